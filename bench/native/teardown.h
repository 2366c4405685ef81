/*
 * native/teardown.h - the teardown phase of a native run, measured: after
 * the window the tasks are released together, each detaches the SGA and
 * exits, the parent reaps them and removes the SGA (its last attachment:
 * the pages are freed then). Around the phase the parent reads the
 * system's PageTables and /proc/interrupts; each task may count the
 * instructions of its detach. See Documentation/sgabench-run.adoc,
 * "Teardown".
 */
#ifndef SGA_NATIVE_TEARDOWN_H
#define SGA_NATIVE_TEARDOWN_H

#include <stdint.h>
#include "lib/result.h"

/*
 * The interrupt counts of /proc/interrupts, summed over the CPUs: the
 * TLB shootdown line (x86's "TLB") and the function-call IPI line (the
 * line described "Function call interrupts": x86's "CAL", arm64's
 * "IPI1", riscv's "IPI1"). -1 when this kernel has no such line.
 */
struct irq_counts {
	int64_t tlb;
	int64_t calls;
};

/*
 * Read path (/proc/interrupts; the test knob SGABENCH_TEST_INTERRUPTS
 * names another file) into c. Returns 0, or -errno when the file cannot
 * be read (c is then all -1).
 */
int teardown_read_irqs(const char *path, struct irq_counts *c);

/* The file teardown_read_irqs reads: SGABENCH_TEST_INTERRUPTS or /proc/interrupts. */
const char *teardown_irq_path(void);

/* What the parent reads just before the release and just after the removal. */
struct td_snap {
	int64_t pt_kb;		/* PageTables of /proc/meminfo, -1 unknown */
	struct irq_counts irq;
	int irq_err;		/* 0, or -errno of teardown_read_irqs */
};

/*
 * PageTables of /proc/meminfo in kB, exact: the kernel keeps the counter
 * per CPU and folds a CPU's share into the total only past a threshold
 * (tens of pages) or once a second, so a plain read can miss a change of
 * a hundred pages. As root, a write to /proc/sys/vm/stat_refresh folds
 * every CPU's share first; without the right the read is as the kernel
 * has it. -1 when unreadable.
 */
int64_t pagetables_kb(void);

/* Read the snapshot just before the release; and just after the removal. */
void teardown_snap_before(struct td_snap *s);
void teardown_snap_after(struct td_snap *s);

/* One task's share, written by the task in the control block. */
struct td_task {
	uint64_t released_ns;	/* clock on leaving the release barrier; 0 unknown */
	uint64_t detached_ns;	/* clock when its detach returned; 0: it did not detach */
	struct ev_value ins;	/* instructions over the detach, kernel included */
};

/* The parent's clock readings over the phase (ns of clock_now_ns). */
struct td_times {
	uint64_t released;	/* on leaving the release barrier */
	uint64_t reaped;	/* the last task reaped */
	uint64_t removed;	/* the SGA removed */
};

/*
 * Set the teardown metrics of r: the times from the release (the earliest
 * clock reading of any party leaving the release barrier) to the last
 * detach, to the last task reaped and to the removal, and the removal
 * alone; PageTables freed; the two interrupt counts, missing with reason
 * "no-interrupt-line" or "no-interrupts-file" where there is no figure;
 * and the instructions of the ndetach detaches (td[0..ndetach)), missing
 * with the state of the first task that could not count them
 * ("no-pmu", "permission", ...).
 */
void teardown_metrics(struct run_result *r, const struct td_snap *before, const struct td_snap *after,
		      const struct td_times *t, const struct td_task *td, unsigned ntasks,
		      unsigned ndetach);

#endif
