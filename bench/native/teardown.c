/* native/teardown.c - the teardown phase's readings and metrics (teardown.h). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "native/internal.h"
#include "native/teardown.h"

const char *teardown_irq_path(void)
{
	const char *p = getenv("SGABENCH_TEST_INTERRUPTS");

	return p && *p ? p : "/proc/interrupts";
}

/*
 * One line of /proc/interrupts: "LABEL: N N ... description". Sums the
 * per-CPU columns into *sum; points *desc at the description (trailing
 * newline cut). Returns 0, or -1 for a line without a label.
 */
static int irq_line(char *line, char **label, int64_t *sum, char **desc)
{
	char *colon = strchr(line, ':'), *p, *end;

	if (!colon)
		return -1;
	*colon = '\0';
	for (p = line; isspace((unsigned char)*p); p++)
		;
	*label = p;
	*sum = 0;
	p = colon + 1;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!isdigit((unsigned char)*p))
			break;
		*sum += strtoll(p, &end, 10);
		p = end;
	}
	end = p + strlen(p);
	while (end > p && isspace((unsigned char)end[-1]))
		*--end = '\0';
	*desc = p;
	return 0;
}

int teardown_read_irqs(const char *path, struct irq_counts *c)
{
	FILE *f = fopen(path, "r");
	char line[8192];

	c->tlb = -1;
	c->calls = -1;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *label, *desc;
		int64_t sum;

		if (irq_line(line, &label, &sum, &desc))
			continue;
		/* x86 names its line TLB; no other arch has a shootdown line. */
		if (strcmp(label, "TLB") == 0 || strcmp(desc, "TLB shootdowns") == 0)
			c->tlb = sum;
		/* The same words on x86 (CAL), arm, arm64 and riscv (IPI1). */
		else if (strcmp(desc, "Function call interrupts") == 0)
			c->calls = sum;
	}
	fclose(f);
	return 0;
}

/*
 * Let the page tables freed so far reach the counter: with RCU table
 * freeing (x86 and arm64) an exiting mm's tables are handed to call_rcu
 * and leave PageTables only when the callback runs, after a grace period.
 * MEMBARRIER_CMD_GLOBAL is synchronize_rcu() on a machine of more than
 * one CPU; two of them let the callbacks queued before the first run.
 * Under nohz_full it is refused, and 50 ms stand in for it.
 */
static void rcu_settle(void)
{
	for (int i = 0; i < 2; i++)
		if (syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) != 0) {
			nanosleep(&(struct timespec){ .tv_nsec = 50000000 }, NULL);
			return;
		}
}

int64_t pagetables_kb(void)
{
	int fd = open("/proc/sys/vm/stat_refresh", O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (write(fd, "1\n", 2) < 0) {
			/* EINVAL on kernels that find a counter negative: folded all the same */
		}
		close(fd);
	}
	return read_kb("/proc/meminfo", "PageTables");
}

/*
 * The refresh (a work item on every CPU, an IPI each) comes before the
 * interrupts are read before the release, and after them after the
 * removal, so its IPIs stay out of the phase's counts. Only the after
 * reading waits for RCU (two grace periods, about 30 ms on the 2-CPU
 * host): a table still waiting at the before reading is one of the
 * tasks' own, freed after their window, and leaves inside the phase.
 */
void teardown_snap_before(struct td_snap *s)
{
	s->pt_kb = pagetables_kb();
	s->irq_err = teardown_read_irqs(teardown_irq_path(), &s->irq);
}

void teardown_snap_after(struct td_snap *s)
{
	s->irq_err = teardown_read_irqs(teardown_irq_path(), &s->irq);
	rcu_settle();
	s->pt_kb = pagetables_kb();
}

void td_open(const struct plan *pl, struct perf_set *ps)
{
	perf_open(ps, &pl->td_spec, pl->td_state == EV_COUNTED, pl->has_core_pmu);
}

/*
 * Detach base (the teardown's first step) with the teardown counter
 * enabled around it: its instructions and the time it was done go to td.
 * Closes tps.
 */
void td_detach(struct plan *pl, struct perf_set *tps, void *base, struct td_task *td)
{
	perf_enable(tps);
	sga_detach(&pl->sga, base);
	td->detached_ns = clock_now_ns();
	perf_disable(tps);
	if (pl->td_state == EV_COUNTED) {
		perf_read(tps, &td->ins);
		/* a detach runs kernel code: 0 instructions is a stub PMU, not a count */
		perf_check_dead(&pl->td_spec, &td->ins, 1);
	} else
		td->ins.state = pl->td_state;
	perf_close(tps);
}

/* after - before of one interrupt line, or missing with its reason. */
static void irq_metric(struct run_result *r, enum metric_id id, const struct td_snap *b,
		       const struct td_snap *a, int64_t bv, int64_t av)
{
	if (b->irq_err || a->irq_err)
		result_set_metric_missing(r, id, "no-interrupts-file");
	else if (bv < 0 || av < 0)
		result_set_metric_missing(r, id, "no-interrupt-line");
	else
		result_set_metric(r, id, (double)(av - bv));
}

/* The instructions of the detaches, summed; missing with the first task's reason. */
static void ins_metric(struct run_result *r, const struct td_task *td, unsigned ndetach)
{
	double sum = 0;

	for (unsigned i = 0; i < ndetach; i++) {
		if (td[i].ins.state != EV_COUNTED) {
			result_set_metric_missing(r, MET_TEARDOWN_DETACH_INSTRUCTIONS,
						  ev_state_name(td[i].ins.state));
			return;
		}
		sum += td[i].ins.value;
	}
	result_set_metric(r, MET_TEARDOWN_DETACH_INSTRUCTIONS, sum);
}

void teardown_metrics(struct run_result *r, const struct td_snap *before, const struct td_snap *after,
		      const struct td_times *t, const struct td_task *td, unsigned ntasks,
		      unsigned ndetach)
{
	uint64_t rel = t->released, det = 0;

	for (unsigned i = 0; i < ntasks; i++)
		if (td[i].released_ns && td[i].released_ns < rel)
			rel = td[i].released_ns;
	for (unsigned i = 0; i < ndetach; i++)
		if (td[i].detached_ns > det)
			det = td[i].detached_ns;
	if (det >= rel)
		result_set_metric(r, MET_TEARDOWN_DETACH_S, (double)(det - rel) / 1e9);
	result_set_metric(r, MET_TEARDOWN_EXIT_S, (double)(t->reaped - rel) / 1e9);
	result_set_metric(r, MET_TEARDOWN_REMOVE_S, (double)(t->removed - t->reaped) / 1e9);
	result_set_metric(r, MET_TEARDOWN_S, (double)(t->removed - rel) / 1e9);
	if (before->pt_kb >= 0 && after->pt_kb >= 0)
		result_set_metric(r, MET_TEARDOWN_PAGETABLES_FREED_BYTES,
				  (double)(before->pt_kb - after->pt_kb) * 1024);
	irq_metric(r, MET_TEARDOWN_TLB_SHOOTDOWNS, before, after, before->irq.tlb, after->irq.tlb);
	irq_metric(r, MET_TEARDOWN_IPIS, before, after, before->irq.calls, after->irq.calls);
	ins_metric(r, td, ndetach);
}
