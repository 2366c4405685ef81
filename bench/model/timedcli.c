/*
 * timedcli.c - `sgabench sim --timing`: the options of the timed engine
 * (timed.h) against each other, the run, and its timing. The counters
 * go to the run's result as the untimed engines' do; the timing itself
 * (cycles, stalls, ticks and their misses, merged walks) is summed once
 * (model_timed_totals), printed on stderr and set as the run's metrics.
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

void model_timed_totals(const struct model_timed_stats *ts, struct model_timed_totals *tot)
{
	*tot = (struct model_timed_totals){ .cycles = ts->cycles };
	for (unsigned i = 0; i < ts->ntasks; i++) {
		tot->stall_cycles += ts->task[i].stall_cycles;
		tot->ticks += ts->task[i].ticks;
		tot->tick_accesses += ts->task[i].tick_accesses;
		tot->tick_misses += ts->task[i].tick_misses;
		tot->tick_walks += ts->task[i].tick_walks;
		tot->merged += ts->task[i].merged;
	}
}

int sim_timed_run(const struct model_machine *m, const struct model_run *r, const struct sim_cfg *c,
		  struct model_stats *st, struct model_timed_totals *tot)
{
	struct model_timing tm = timing_of(c, m);
	struct model_timed_stats ts;
	char err[160];
	int ret = model_timed(m, r, &tm, st, &ts, err, sizeof(err));

	if (ret)
		return ret;
	model_timed_totals(&ts, tot);
	model_timed_free(&ts);
	return 0;
}

void sim_timed_print(const struct model_machine *m, const struct sim_cfg *c, const struct model_timed_totals *tot)
{
	struct model_timing tm = timing_of(c, m);

	info(1, "sim: timing: %llu cycles (%.4g s at %g GHz; access %llu, walk %llu cycles, in-flight %s); "
	     "ticks %llu (hz %llu, %u entries): %llu kernel accesses, %llu misses, %llu walks (not in the "
	     "counters); merged walks %llu; stall cycles %llu",
	     (unsigned long long)tot->cycles, (double)tot->cycles / (double)tm.cpu_hz, m->ghz,
	     (unsigned long long)tm.access_cycles, (unsigned long long)tm.walk_cycles,
	     tm.inflight == INFLIGHT_WAIT ? "wait" : "walk", (unsigned long long)tot->ticks,
	     (unsigned long long)tm.hz, tm.tick_entries, (unsigned long long)tot->tick_accesses,
	     (unsigned long long)tot->tick_misses, (unsigned long long)tot->tick_walks,
	     (unsigned long long)tot->merged, (unsigned long long)tot->stall_cycles);
}

void sim_timed_result(const struct model_timed_totals *tot, struct run_result *res)
{
	result_set_metric(res, MET_MODEL_CYCLES, (double)tot->cycles);
	result_set_metric(res, MET_MODEL_STALL_CYCLES, (double)tot->stall_cycles);
	result_set_metric(res, MET_MODEL_TICKS, (double)tot->ticks);
	result_set_metric(res, MET_MODEL_TICK_ACCESSES, (double)tot->tick_accesses);
	result_set_metric(res, MET_MODEL_TICK_MISSES, (double)tot->tick_misses);
	result_set_metric(res, MET_MODEL_TICK_WALKS, (double)tot->tick_walks);
	result_set_metric(res, MET_MODEL_MERGED_WALKS, (double)tot->merged);
}
