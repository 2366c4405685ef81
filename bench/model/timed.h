/*
 * timed.h - the timed engine (`sim --timing`): the reference's levels and
 * streams, with strands that advance in cycles instead of fixed slots,
 * and the kernel's timer tick. Opt-in; the untimed simulators are not
 * touched by it.
 *
 * Contract (timed.c; bench/model/README.md, "Timing"):
 *  - Each strand has a clock. The strand with the earliest clock makes its
 *    next access (ties: the lower strand). An access costs access_cycles;
 *    one that misses the first level holding its size and hits level k
 *    costs ceil(level k's hit_cycles) more; one that misses every level
 *    (a walk) costs walk_cycles more, and the strand stalls for all of
 *    it while the core's other strands go on.
 *  - Fills happen when the access completes (a walk's at its end): an
 *    entry is in the TLB for every access that starts at or after that
 *    cycle. A fill that finds its entry already there refreshes it.
 *  - Two strands that walk for the same entry while the first walk is in
 *    flight: INFLIGHT_WALK, both walk and count (each strand's own
 *    tablewalk and counter); INFLIGHT_WAIT, the second waits for the first
 *    walk's end (or its own access_cycles, if later) and counts no miss
 *    and no walk (`merged`); it stalls for the wait beyond access_cycles. Which one a
 *    given CPU does is not published for the presets: inferred either way.
 *  - Timer tick at hz: tick n (n >= 1) of a strand is due at cycle
 *    n * cpu_hz / hz; when its clock has reached that, the strand first
 *    runs the handler: tick_entries accesses to kernel pages 0..K-1
 *    (context 0, every strand the same pages; the run's page size), timed
 *    and filled like user accesses, counted apart (ticks, tick_misses,
 *    tick_walks of the task then running). A strand takes ticks until its
 *    tasks end; so over its T cycles it takes floor(T * hz / cpu_hz).
 *  - The jitter, a heap and tag none are refused (-EINVAL): the issue
 *    order comes from the timing, and the other two are not modelled here.
 */
#ifndef SGA_MODEL_TIMED_H
#define SGA_MODEL_TIMED_H

#include "model/model.h"

enum model_inflight { INFLIGHT_WALK, INFLIGHT_WAIT };
#define MODEL_INFLIGHT_CHOICES "walk|wait"

struct model_timing {
	uint64_t access_cycles;	/* an access that hits the first level (>= 1) */
	uint64_t walk_cycles;	/* added by a walk */
	uint64_t cpu_hz;	/* cycles per second, for the tick */
	uint64_t hz;		/* timer ticks per second, 0: none */
	unsigned tick_entries;	/* kernel pages each tick handler touches */
	int inflight;		/* enum model_inflight */
};

/* What each task saw beyond struct model_task. */
struct model_timed_task {
	uint64_t end_cycle;	/* its strand's clock when it made its last access (after it) */
	uint64_t ticks;		/* tick handlers run while it was the strand's task */
	uint64_t tick_accesses, tick_misses, tick_walks;	/* theirs; misses: first level */
	uint64_t merged;	/* walks it waited for instead of making (INFLIGHT_WAIT) */
	uint64_t stall_cycles;	/* cycles it stalled beyond access_cycles per access */
};

struct model_timed_stats {
	unsigned ntasks;
	struct model_timed_task *task;	/* owned: model_timed_free() */
	uint64_t cycles;	/* the largest strand clock at the end */
};

/*
 * Run r on m with timing tm: st as model_reference() fills it for the
 * user's accesses (the same counters), ts with the timing. Returns 0,
 * -EINVAL (bad configuration, reason in err) or -ENOMEM.
 */
int model_timed(const struct model_machine *m, const struct model_run *r, const struct model_timing *tm,
		struct model_stats *st, struct model_timed_stats *ts, char *err, size_t errlen);
void model_timed_free(struct model_timed_stats *ts);
/* model_timed()'s refusals alone: 0, or -EINVAL with the reason in err. */
int model_timed_check(const struct model_machine *m, const struct model_run *r, const struct model_timing *tm,
		      char *err, size_t errlen);

/* `sim --timing` (timedcli.c). */
struct sim_cfg;
/* The walk a timed run stalls for: the machine's walk_cycles (after
 * --walk-cycles), rounded. */
uint64_t sim_timed_walk(const struct model_machine *m);
/* The timing options against each other and the run: 0, or -EINVAL. */
int sim_timing_check(const struct sim_cfg *c, const struct model_machine *m, const struct model_run *r,
		     char *err, size_t errlen);
/* A timed run's figures over all its tasks (the sums of struct
 * model_timed_task; cycles: struct model_timed_stats'). */
struct model_timed_totals {
	uint64_t cycles, stall_cycles, ticks, tick_accesses, tick_misses, tick_walks, merged;
};
void model_timed_totals(const struct model_timed_stats *ts, struct model_timed_totals *tot);
/* Run the timed engine into st and tot. Returns 0 or -errno. */
int sim_timed_run(const struct model_machine *m, const struct model_run *r, const struct sim_cfg *c,
		  struct model_stats *st, struct model_timed_totals *tot);
/* tot and the timing it was run with, on stderr: one line at the default verbosity. */
void sim_timed_print(const struct model_machine *m, const struct sim_cfg *c, const struct model_timed_totals *tot);
/* tot as the run's model-cycles, model-stall-cycles, model-tick-* and
 * model-merged-walks metrics (lib/metrics.h): the line's figures, set
 * only on a timed run. */
struct run_result;
void sim_timed_result(const struct model_timed_totals *tot, struct run_result *res);

#endif
