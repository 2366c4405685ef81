/*
 * timedcli.c - `sgabench sim --timing`: the options of the timed engine
 * (timed.h) against each other, the run, and its timing on stderr. The
 * counters go to the run's result as the untimed engines' do; the
 * timing itself (cycles, ticks and their misses) is printed, not stored.
 */
#include <errno.h>
#include <stdio.h>
#include "lib/log.h"
#include "model/simrun.h"
#include "model/timed.h"

uint64_t sim_timed_walk(const struct model_machine *m)
{
	return m->walk_cycles > 0 ? (uint64_t)(m->walk_cycles + 0.5) : 0;
}

static struct model_timing timing_of(const struct sim_cfg *c, const struct model_machine *m)
{
	return (struct model_timing){ .access_cycles = c->access_cycles ? c->access_cycles : 1,
				      .walk_cycles = sim_timed_walk(m),
				      .cpu_hz = (uint64_t)(m->ghz * 1e9 + 0.5), .hz = c->hz,
				      .tick_entries = (unsigned)c->tick_entries, .inflight = c->inflight };
}

int sim_timing_check(const struct sim_cfg *c, const struct model_machine *m, const struct model_run *r,
		     char *err, size_t errlen)
{
	struct model_timing tm = timing_of(c, m);
	const char *why = NULL;

	if (!c->timing && (c->hz || c->tick_entries || c->access_cycles || c->inflight))
		why = "--hz, --tick-entries, --access-cycles and --inflight need --timing";
	else if (!c->timing)
		return 0;
	else if (c->reference)
		why = "--timing is its own engine: not with --reference";
	else if (c->jobs > 1)
		why = "--timing runs on one thread: not with --jobs";
	else if (c->tick_entries && !c->hz)
		why = "--tick-entries needs --hz";
	if (why) {
		snprintf(err, errlen, "%s", why);
		return -EINVAL;
	}
	return model_timed_check(m, r, &tm, err, errlen);
}

int sim_timed_run(const struct model_machine *m, const struct model_run *r, const struct sim_cfg *c,
		  struct model_stats *st)
{
	struct model_timing tm = timing_of(c, m);
	struct model_timed_stats ts;
	struct model_timed_task sum = { 0 };
	char err[160];
	int ret = model_timed(m, r, &tm, st, &ts, err, sizeof(err));

	if (ret)
		return ret;
	for (unsigned i = 0; i < ts.ntasks; i++) {
		sum.ticks += ts.task[i].ticks;
		sum.tick_accesses += ts.task[i].tick_accesses;
		sum.tick_misses += ts.task[i].tick_misses;
		sum.tick_walks += ts.task[i].tick_walks;
		sum.merged += ts.task[i].merged;
		sum.stall_cycles += ts.task[i].stall_cycles;
	}
	info(1, "sim: timing: %llu cycles (%.4g s at %g GHz; access %llu, walk %llu cycles, in-flight %s); "
	     "ticks %llu (hz %llu, %u entries): %llu kernel accesses, %llu misses, %llu walks (not in the "
	     "counters); merged walks %llu; stall cycles %llu",
	     (unsigned long long)ts.cycles, (double)ts.cycles / (double)tm.cpu_hz, m->ghz,
	     (unsigned long long)tm.access_cycles, (unsigned long long)tm.walk_cycles,
	     tm.inflight == INFLIGHT_WAIT ? "wait" : "walk", (unsigned long long)sum.ticks,
	     (unsigned long long)tm.hz, tm.tick_entries, (unsigned long long)sum.tick_accesses,
	     (unsigned long long)sum.tick_misses, (unsigned long long)sum.tick_walks,
	     (unsigned long long)sum.merged, (unsigned long long)sum.stall_cycles);
	model_timed_free(&ts);
	return 0;
}
