/*
 * builtin/table_model.c - the model's columns of `sgabench table`: every
 * cell's runs simulated on every CPU, stored in one fixed order, and each
 * cell the median over the seeds.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "builtin/builtin.h"
#include "builtin/table.h"
#include "lib/log.h"
#include "lib/opt.h"
#include "lib/pool.h"
#include "model/backend.h"
#include "stats/stats.h"
#include "store/store.h"

/* One model run of the table: simulated by a worker thread, stored by the caller. */
struct table_job {
	uint64_t rounds, seed;
	int shared;
	int ret;		/* EX_* */
	struct sim_cfg c;
	void *plan;
	struct run_result res;
	char err[320];
};

struct table_jobs {
	const struct table_cfg *tc;
	const struct sysinfo *si;
	struct table_job *job;
};

/* The sim settings of one cell's run into c: sim's defaults, the
 * table's and the cell's. Returns 0 or -EINVAL. */
static int cell_cfg(const struct table_cfg *tc, uint64_t rounds, int shared, uint64_t seed,
		    struct sim_cfg *c)
{
	int ret = opt_defaults(model_backend.opts, c, "table");

	if (ret)
		return ret;
	c->rounds = rounds;
	c->sharedctx = shared;
	c->working_set = tc->ws;
	c->jitter = tc->jitter;
	c->startup = tc->startup;
	c->seed = seed;
	c->progress = -1;	/* many runs at once: no progress lines */
	c->walk_cycles = tc->sim.walk_cycles;
	c->timing = tc->sim.timing;
	c->hz = tc->sim.hz;
	c->tick_entries = tc->sim.tick_entries;
	c->access_cycles = tc->sim.access_cycles;
	c->inflight = tc->sim.inflight;
	return 0;
}

int table_model_check(const struct table_cfg *tc, const struct sysinfo *si, char *err, size_t errlen)
{
	struct sim_cfg c = { 0 };
	void *plan = NULL;
	int ret = cell_cfg(tc, table_rounds[0], 0, tc->seed, &c);

	if (!ret)
		ret = model_backend.prepare(&c, si, &plan, err, errlen);
	if (plan)
		model_backend.release(plan);
	return ret;
}

/* Simulate job j (a pool_run job): it writes only its own slot. */
static int table_sim(void *arg, unsigned j)
{
	const struct backend_ops *be = &model_backend;
	struct table_jobs *js = arg;
	struct table_job *jb = &js->job[j];

	jb->ret = cell_cfg(js->tc, jb->rounds, jb->shared, jb->seed, &jb->c);
	if (jb->ret)
		return jb->ret;
	jb->ret = be->prepare(&jb->c, js->si, &jb->plan, jb->err, sizeof(jb->err));
	if (!jb->ret)
		jb->ret = be->run(jb->plan, js->si, &jb->res, jb->err, sizeof(jb->err));
	return jb->ret;
}

/* Store a simulated job's run. Returns EX_OK or EX_FAIL. */
static int table_store(const struct table_cfg *tc, const struct sysinfo *si, struct store *db,
		       struct table_job *jb)
{
	struct backend_names nm = { 0 };
	struct run_meta meta;

	model_backend.name_run(jb->plan, &jb->res, &meta, &nm);
	meta.label = tc->label;
	return store_put_run(db, si, &meta, &jb->res, NULL) ? EX_FAIL : EX_OK;
}

double table_slope(const double *normal)
{
	return (normal[NROWS - 1] - normal[0]) / (double)(table_rounds[NROWS - 1] - table_rounds[0]);
}

/* The timed engine's metrics of a run into t (NAN: not set, an untimed run). */
static void timing_of(const struct run_result *res, struct table_timing *t)
{
	static const struct {
		enum metric_id id;
		size_t off;
	} f[] = {
		{ MET_MODEL_CYCLES, offsetof(struct table_timing, cycles) },
		{ MET_MODEL_STALL_CYCLES, offsetof(struct table_timing, stall_cycles) },
		{ MET_MODEL_TICKS, offsetof(struct table_timing, ticks) },
		{ MET_MODEL_TICK_ACCESSES, offsetof(struct table_timing, tick_accesses) },
		{ MET_MODEL_TICK_MISSES, offsetof(struct table_timing, tick_misses) },
		{ MET_MODEL_TICK_WALKS, offsetof(struct table_timing, tick_walks) },
		{ MET_MODEL_MERGED_WALKS, offsetof(struct table_timing, merged) },
	};

	for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
		double *v = (double *)((char *)t + f[k].off);

		if (result_get_metric(res, f[k].id, v))
			*v = NAN;
	}
}

/*
 * Both model columns: each cell is the median over seeds tc->seed ..
 * tc->seed + tc->seeds - 1 (the issue-order jitter, hence the normal
 * slope, depends on the seed), the statistic the summary and the report
 * show for the same runs. The runs are simulated on every CPU
 * (lib/pool.h), then stored in one fixed order (seed, row, normal before
 * shared), so the stored order does not depend on the threads. Fills the
 * lowest and highest per-seed slope, and the timing of every cell at the
 * first seed.
 */
int table_model_rows(const struct table_cfg *tc, const struct sysinfo *si, struct store *db,
		     double *normal, double *shared, double *slope_min, double *slope_max,
		     struct table_timing tim[][2])
{
	unsigned n = (unsigned)tc->seeds * NROWS * 2;
	struct table_jobs js = { .tc = tc, .si = si, .job = calloc(n, sizeof(*js.job)) };
	double one[NROWS], *vals = calloc(n, sizeof(*vals));	/* [row][shared][seed] */
	unsigned ns = (unsigned)tc->seeds;
	int ret;

	if (!js.job || !vals) {
		free(js.job);
		free(vals);
		return EX_FAIL;
	}
	for (unsigned j = 0; j < n; j++) {
		js.job[j].seed = tc->seed + j / (NROWS * 2);
		js.job[j].rounds = table_rounds[j / 2 % NROWS];
		js.job[j].shared = (int)(j % 2);
	}
	ret = pool_run(n, pool_cpus(), table_sim, &js);
	for (unsigned j = 0; j < n && ret; j++) {
		if (js.job[j].ret) {
			error("table: %s", js.job[j].err[0] ? js.job[j].err : "the model failed");
			break;
		}
	}
	for (unsigned j = 0; j < n && !ret; j++) {
		struct table_job *jb = &js.job[j];
		uint64_t k = j / (NROWS * 2);
		int i = (int)(j / 2 % NROWS);
		double v = 0;

		/* dTLB-load-misses as T2's driver counts it (the DTLB's misses),
		 * as the published column was counted */
		v = NAN;
		for (unsigned e = 0; e < jb->res.nevents; e++)
			if (strcmp(jb->res.events[e], "dTLB-load-misses") == 0)
				result_event_total(&jb->res, e, &v);
		if (db)
			ret = table_store(tc, si, db, jb);
		vals[((unsigned)i * 2 + (unsigned)jb->shared) * ns + (unsigned)k] = v;
		if (!jb->shared)
			one[i] = v;
		if (k == 0)
			timing_of(&jb->res, &tim[i][jb->shared]);
		if (jb->shared && i == NROWS - 1) {
			v = table_slope(one);
			if (k == 0 || v < *slope_min)
				*slope_min = v;
			if (k == 0 || v > *slope_max)
				*slope_max = v;
		}
	}
	for (int i = 0; i < NROWS && !ret; i++) {
		normal[i] = stats_median(vals + (unsigned)i * 2 * ns, ns);
		shared[i] = stats_median(vals + ((unsigned)i * 2 + 1) * ns, ns);
	}
	for (unsigned j = 0; j < n; j++) {
		if (js.job[j].plan)
			model_backend.release(js.job[j].plan);
		free(js.job[j].res.task);
	}
	free(js.job);
	free(vals);
	return ret;
}
