/*
 * perf_mux.h - how far to trust a multiplexed estimate. With more hardware
 * events than counters the kernel rotates the events onto the counters
 * every multiplexing interval (perf_event_mux_interval_ms of the PMU in
 * sysfs, 4 ms by default), and perf_read scales each event by
 * enabled/running. The estimate samples the window in running/interval
 * slices: over few slices a change of rate inside the window (a burst of
 * misses at its start, a phase of the workload) can fall wholly inside
 * or outside the slices counted, and the scaled figure can be far off.
 */
#ifndef SGA_PERF_MUX_H
#define SGA_PERF_MUX_H

#include <stdint.h>
#include "lib/result.h"

/*
 * Fewer slices on the counter than this and the estimate is not trusted.
 * Over n slices drawn from the window, the sampling error of a rate that
 * changes between slices falls as about 1/sqrt(n): 10 slices keep it near
 * a third of the rate's spread across the window; fewer, and one slice
 * more or less moves the estimate by over 10 %.
 */
#define PERF_MUX_MIN_ROTATIONS 10

enum perf_trust {
	TRUST_EXACT,		/* on a counter the whole time: not scaled */
	TRUST_SCALED,		/* scaled, over PERF_MUX_MIN_ROTATIONS slices or more */
	TRUST_FEW_ROTATIONS,	/* scaled over fewer slices: not to be trusted */
	TRUST_UNKNOWN,		/* scaled, and the multiplexing interval is unknown */
};

struct perf_mux {
	double ratio;		/* running / enabled, 1 when not scaled */
	double rotations;	/* running / interval: the slices counted; NAN unknown */
	int trust;		/* enum perf_trust */
};

/*
 * Judge one reading: enabled and running in ns, interval_ms the PMU's
 * multiplexing interval (0: unknown). A reading never scheduled (running
 * 0) is multiplexed-out, not an estimate: the caller has it missing.
 * Pure.
 */
void perf_mux_judge(uint64_t enabled, uint64_t running, double interval_ms, struct perf_mux *out);

/*
 * The least trusted task reading of counted event e of r (the fewest
 * slices among the readings of the worst verdict). Returns 0, or -1 when some task has no
 * value for e.
 */
int perf_mux_event(const struct run_result *r, unsigned e, struct perf_mux *out);

/* Warn on stderr about every event of r whose estimate rests on too few rotations. */
void perf_mux_warn(const struct run_result *r);

/* "exact", "scaled", "few-rotations", "unknown". */
const char *perf_trust_name(int trust);

/*
 * perf_event_mux_interval_ms of PMU pmu (e.g. "cpu", "armv8_pmuv3_0")
 * under /sys/bus/event_source/devices, or 0 when it is not known; then
 * *why says why, as run_result.mux_interval_missing keeps it: "no-pmu"
 * (pmu NULL or empty: the machine has no core PMU) or "unreadable" (no
 * such file, or not a positive number). The test knob
 * SGABENCH_TEST_MUX_INTERVAL names a file read in place of the PMU's,
 * whatever pmu is: no PMU is needed to store a known interval.
 */
double perf_mux_interval_ms(const char *pmu, const char **why);

#endif
