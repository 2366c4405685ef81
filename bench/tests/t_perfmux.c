/*
 * t_perfmux.c - how far a multiplexed estimate is trusted (perf_mux.h),
 * on synthetic enabled/running times: this host has no PMU, and the
 * decision is arithmetic on the two times and the interval.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "machine/perf_mux.h"
#include "tap.h"

#define MS 1000000ull

static void test_judge(void)
{
	struct perf_mux m;

	perf_mux_judge(100 * MS, 100 * MS, 4, &m);
	ok(m.trust == TRUST_EXACT && m.ratio == 1, "on a counter the whole window: exact, ratio 1");
	ok(fabs(m.rotations - 25) < 1e-9, "and 100 ms / 4 ms = 25 slices");
	perf_mux_judge(100 * MS, 50 * MS, 4, &m);
	ok(m.trust == TRUST_SCALED && fabs(m.ratio - 0.5) < 1e-12, "half of 100 ms: scaled, ratio 0.5");
	ok(fabs(m.rotations - 12.5) < 1e-9, "over 50 ms / 4 ms = 12.5 slices");
	perf_mux_judge(40 * MS, 20 * MS, 4, &m);
	ok(m.trust == TRUST_FEW_ROTATIONS && fabs(m.rotations - 5) < 1e-9,
	   "half of 40 ms: 5 slices, too few to trust");
	perf_mux_judge(80 * MS, 40 * MS, 4, &m);
	ok(m.trust == TRUST_SCALED && m.rotations == PERF_MUX_MIN_ROTATIONS,
	   "exactly %d slices: trusted (the bound is inclusive)", PERF_MUX_MIN_ROTATIONS);
	perf_mux_judge(80 * MS, 40 * MS - 1, 4, &m);
	ok(m.trust == TRUST_FEW_ROTATIONS, "1 ns less: not");
	perf_mux_judge(1000 * MS, 30 * MS, 1, &m);
	ok(m.trust == TRUST_SCALED && fabs(m.ratio - 0.03) < 1e-12,
	   "3 %% of a long window at a 1 ms interval: 30 slices, trusted despite the low ratio");
	perf_mux_judge(1000 * MS, 30 * MS, 4, &m);
	ok(m.trust == TRUST_FEW_ROTATIONS, "the same at 4 ms: 7.5 slices, not");
	perf_mux_judge(100 * MS, 50 * MS, 0, &m);
	ok(m.trust == TRUST_UNKNOWN && isnan(m.rotations), "interval unknown: no slice count, trust unknown");
	perf_mux_judge(100 * MS, 100 * MS, 0, &m);
	ok(m.trust == TRUST_EXACT, "not scaled: exact even without the interval");
	perf_mux_judge(0, 0, 4, &m);
	ok(m.trust == TRUST_EXACT && m.ratio == 1, "never enabled (the model backend): exact");
}

static void test_event(void)
{
	struct task_result t[3];
	struct run_result r = { .ntasks = 3, .task = t, .nevents = 1, .mux_interval_ms = 4 };
	struct perf_mux m;

	memset(t, 0, sizeof(t));
	t[0].ev[0] = (struct ev_value){ .raw = 1, .enabled = 100 * MS, .running = 100 * MS };
	t[1].ev[0] = (struct ev_value){ .raw = 1, .enabled = 100 * MS, .running = 80 * MS };
	t[2].ev[0] = (struct ev_value){ .raw = 1, .enabled = 100 * MS, .running = 60 * MS };
	t[1].ev[0] = (struct ev_value){ .raw = 1, .enabled = 80 * MS, .running = 80 * MS };
	t[2].ev[0] = (struct ev_value){ .raw = 1, .enabled = 90 * MS, .running = 90 * MS };
	ok(perf_mux_event(&r, 0, &m) == 0 && m.trust == TRUST_EXACT && fabs(m.rotations - 20) < 1e-9,
	   "all exact: the fewest slices, 80 ms of task 1 (not the first task's 25)");
	t[1].ev[0] = (struct ev_value){ .raw = 1, .enabled = 100 * MS, .running = 80 * MS };
	t[2].ev[0] = (struct ev_value){ .raw = 1, .enabled = 100 * MS, .running = 60 * MS };
	ok(perf_mux_event(&r, 0, &m) == 0 && m.trust == TRUST_SCALED && fabs(m.rotations - 15) < 1e-9,
	   "the run's verdict is its least trusted task: 60 ms of 100, 15 slices");
	t[1].ev[0].running = 20 * MS;
	ok(perf_mux_event(&r, 0, &m) == 0 && m.trust == TRUST_FEW_ROTATIONS && fabs(m.ratio - 0.2) < 1e-12,
	   "one task counted over 5 slices makes the run's estimate untrusted");
	t[2].ev[0].state = EV_MULTIPLEXED_OUT;
	ok(perf_mux_event(&r, 0, &m) == -1, "a task without a value: no verdict (the event is missing)");
	ok(strcmp(perf_trust_name(TRUST_FEW_ROTATIONS), "few-rotations") == 0 &&
	   strcmp(perf_trust_name(TRUST_EXACT), "exact") == 0, "the verdicts' names");
}

/* The interval and, when it is unknown, why: the knob stands for the sysfs file. */
static void test_interval(void)
{
	char path[] = "/tmp/sgabench-t_perfmux-XXXXXX";
	const char *why = "x";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	unsetenv("SGABENCH_TEST_MUX_INTERVAL");
	ok(perf_mux_interval_ms(NULL, &why) == 0 && why && strcmp(why, "no-pmu") == 0,
	   "no core PMU: unknown, no-pmu");
	ok(perf_mux_interval_ms("no-such-pmu-here", &why) == 0 && why && strcmp(why, "unreadable") == 0,
	   "a PMU without the sysfs file: unknown, unreadable");
	if (!f) {
		ok(0, "a scratch file for the knob");
		return;
	}
	fputs("16\n", f);
	fclose(f);
	setenv("SGABENCH_TEST_MUX_INTERVAL", path, 1);
	ok(perf_mux_interval_ms(NULL, &why) == 16 && why == NULL,
	   "the knob's file is read in place of the PMU's: 16 ms, no reason");
	f = fopen(path, "w");
	if (f) {
		fputs("0\n", f);
		fclose(f);
	}
	ok(perf_mux_interval_ms("cpu", &why) == 0 && why && strcmp(why, "unreadable") == 0,
	   "an interval of 0 is no interval: unreadable");
	unsetenv("SGABENCH_TEST_MUX_INTERVAL");
	unlink(path);
}

int main(void)
{
	test_judge();
	test_event();
	test_interval();
	return done_testing();
}
