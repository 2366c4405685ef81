/*
 * t_teardown.c - the teardown's reading of /proc/interrupts on the lines
 * each architecture has (x86-64: TLB and CAL; arm64 6.1: IPI0..IPI6, no
 * TLB line) and the metrics it sets: a line that does not exist is
 * missing with its reason, never 0.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "native/teardown.h"
#include "tap.h"

static const char x86[] =
	"           CPU0       CPU1       \n"
	"  0:         32          0  IO-APIC   2-edge      timer\n"
	"NMI:          0          0   Non-maskable interrupts\n"
	"RES:    1423083    1251913   Rescheduling interrupts\n"
	"CAL:    1166764     982001   Function call interrupts\n"
	"TLB:     392391     380810   TLB shootdowns\n"
	"ERR:          0\n";

/* arch/arm64/kernel/smp.c, 6.1: show_ipi_list prints "IPI%u:" and ipi_types[]. */
static const char arm64[] =
	"           CPU0       CPU1       \n"
	" 11:      11412      10770     GICv3  27 Level     arch_timer\n"
	"IPI0:       305        412       Rescheduling interrupts\n"
	"IPI1:        70         81       Function call interrupts\n"
	"IPI2:         0          0       CPU stop interrupts\n"
	"IPI3:         0          0       CPU stop (for crash dump) interrupts\n"
	"IPI4:         0          0       Timer broadcast interrupts\n"
	"IPI5:         2          1       IRQ work interrupts\n"
	"IPI6:         0          0       CPU wake-up interrupts\n"
	"Err:          0\n";

/* Write text to a temporary file; returns its path (static). */
static const char *fake(const char *text)
{
	static char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/t_teardown.%d", (int)getpid());
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return path;
}

static int missing_reason(const struct run_result *r, enum metric_id id, const char *why)
{
	for (unsigned i = 0; i < r->nmissing; i++)
		if (r->missing[i].id == id)
			return strcmp(r->missing[i].reason, why) == 0;
	return 0;
}

static int has_metric(const struct run_result *r, enum metric_id id, double want)
{
	double v;

	return result_get_metric(r, id, &v) == 0 && v == want;
}

static void test_read(void)
{
	struct irq_counts c;
	const char *p;

	p = fake(x86);
	ok(teardown_read_irqs(p, &c) == 0 && c.tlb == 392391 + 380810 && c.calls == 1166764 + 982001,
	   "x86-64: TLB and CAL summed over the CPUs");
	p = fake(arm64);
	ok(teardown_read_irqs(p, &c) == 0 && c.tlb == -1 && c.calls == 70 + 81,
	   "arm64: no TLB line (-1), IPI1 is the function-call line");
	p = fake("           CPU0\n  0:   1   timer\n");
	ok(teardown_read_irqs(p, &c) == 0 && c.tlb == -1 && c.calls == -1, "neither line: both -1");
	unlink(p);
	ok(teardown_read_irqs(p, &c) < 0 && c.tlb == -1 && c.calls == -1, "no such file: -errno, both -1");
}

static void test_metrics(void)
{
	struct td_snap b = { .pt_kb = 1000 }, a = { .pt_kb = 900 };
	struct td_times t = { .released = 1000, .reaped = 5000, .removed = 7000 };
	struct td_task td[2];
	struct run_result r;

	memset(td, 0, sizeof(td));
	td[0] = (struct td_task){ .released_ns = 900, .detached_ns = 3000 };
	td[1] = (struct td_task){ .released_ns = 1100, .detached_ns = 4000 };
	td[0].ins.state = EV_NO_PMU;
	td[1].ins.state = EV_NO_PMU;
	b.irq = (struct irq_counts){ .tlb = -1, .calls = 10 };
	a.irq = (struct irq_counts){ .tlb = -1, .calls = 25 };
	memset(&r, 0, sizeof(r));
	teardown_metrics(&r, &b, &a, &t, td, 2, 2);
	ok(has_metric(&r, MET_TEARDOWN_DETACH_S, 3100e-9), "detach: earliest release (900) to last detach (4000)");
	ok(has_metric(&r, MET_TEARDOWN_EXIT_S, 4100e-9), "exit: to the last reaped (5000)");
	ok(has_metric(&r, MET_TEARDOWN_REMOVE_S, 2000e-9), "remove: reaped to removed");
	ok(has_metric(&r, MET_TEARDOWN_S, 6100e-9), "the whole phase");
	ok(has_metric(&r, MET_TEARDOWN_PAGETABLES_FREED_BYTES, 100 * 1024.0), "100 kB of PageTables freed");
	ok(has_metric(&r, MET_TEARDOWN_IPIS, 15), "15 function-call IPIs");
	ok(missing_reason(&r, MET_TEARDOWN_TLB_SHOOTDOWNS, "no-interrupt-line") &&
	   result_get_metric(&r, MET_TEARDOWN_TLB_SHOOTDOWNS, &(double){ 0 }) != 0,
	   "no TLB line: missing with its reason, not 0");
	ok(missing_reason(&r, MET_TEARDOWN_DETACH_INSTRUCTIONS, "no-pmu"), "no PMU: instructions missing (no-pmu)");

	td[0].ins = (struct ev_value){ .raw = 100, .value = 100, .enabled = 5, .running = 5 };
	td[1].ins = (struct ev_value){ .raw = 250, .value = 250, .enabled = 5, .running = 5 };
	a.irq_err = -2;
	memset(&r, 0, sizeof(r));
	teardown_metrics(&r, &b, &a, &t, td, 2, 2);
	ok(has_metric(&r, MET_TEARDOWN_DETACH_INSTRUCTIONS, 350), "counted: the detaches' instructions summed");
	ok(missing_reason(&r, MET_TEARDOWN_IPIS, "no-interrupts-file") &&
	   missing_reason(&r, MET_TEARDOWN_TLB_SHOOTDOWNS, "no-interrupts-file"),
	   "/proc/interrupts unreadable: both missing, no-interrupts-file");
	memset(&r, 0, sizeof(r));
	teardown_metrics(&r, &b, &a, &t, td, 2, 1);
	ok(has_metric(&r, MET_TEARDOWN_DETACH_S, 2100e-9) &&
	   has_metric(&r, MET_TEARDOWN_DETACH_INSTRUCTIONS, 100),
	   "threads: one detach (the worker's), released by any thread");
	result_set_metric(&r, MET_TEARDOWN_IPIS, 3);
	ok(!missing_reason(&r, MET_TEARDOWN_IPIS, "no-interrupts-file") && has_metric(&r, MET_TEARDOWN_IPIS, 3),
	   "setting a missing metric clears its gap");
}

int main(void)
{
	test_read();
	test_metrics();
	return done_testing();
}
