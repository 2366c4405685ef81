/*
 * builtin/table.c - `sgabench table`: the 2016 cover-letter table (two tasks,
 * 1 to 1,000,000 rounds, normal vs shared context), from the native
 * backend where this machine can count dTLB misses and share a context,
 * else from the TLB model, beside the published figures.
 */
#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "builtin/builtin.h"
#include "lib/json.h"
#include "lib/log.h"
#include "builtin/table.h"
#include "builtin/table_native.h"
#include "model/backend.h"
#include "output/envelope.h"
#include "model/simrun.h"
#include "model/timed.h"
#include "lib/opt.h"
#include "native/sharedctx.h"
#include "store/store.h"
#include "machine/sysinfo.h"
#include "lib/clock.h"

/* Kravetz, [RFC PATCH 00/14] sparc64 shared context/TLB support, 2016-12-16 */
const uint64_t table_rounds[NROWS] = { 1, 10, 100, 1000, 10000, 100000, 1000000 };
static const double pub_normal[NROWS] = { 771, 1651, 10422, 97992, 975910, 9719193, 97941327 };
static const double pub_shared[NROWS] = { 834, 881, 874, 958, 963, 1017, 4148 };
#define PUB_SLOPE 97.9

/* The documented defaults (bench/model/README.md, "Reproducing the 2016 table"). */

#define O(f) offsetof(struct table_cfg, f)

static const struct opt table_opts[] = {
	{ .name = "backend", .type = OPT_CHOICE, .off = O(backend), .choices = TABLE_BACKEND_CHOICES,
	  .def = "auto",
	  .help = "native needs dTLB counters and a shared context; auto falls back to the model" },
	{ .name = "native-normal", .type = OPT_FLAG, .off = O(native_normal),
	  .help = "also run the normal column natively beside the model (auto does where a PMU exists)" },
	{ .name = "working-set", .type = OPT_SIZE, .off = O(ws), .min = 1,
	  .metavar = "SIZE", .def = "276m",
	  .help = "per task (model); the inferred default is 69 T2 TTEs of 4 MiB" },
	{ .name = "jitter", .type = OPT_UINT, .off = O(jitter), .max = 1u << 20,
	  .metavar = "N", .defhelp = "4096; 0 with --timing",
	  .help = "strand issue-order jitter (model; --timing takes the order from the timing)" },
	{ .name = "startup", .type = OPT_UINT, .off = O(startup), .max = 1u << 30,
	  .metavar = "N", .def = "300",
	  .help = "private start-up pages per task (model; calibrated, see README)" },
	{ .name = "seed", .type = OPT_UINT, .off = O(seed),
	  .metavar = "N", .def = "1",
	  .help = "seed" },
	{ .name = "seeds", .type = OPT_UINT, .off = O(seeds), .min = 1, .max = 64,
	  .metavar = "K", .def = "8",
	  .help = "model: each cell is the median over seeds N..N+K-1 (every run is stored); 1 for one draw" },
	{ .type = OPT_ROWS, .rows = model_timing_opts, .off = O(sim) },
	{ .name = "json", .type = OPT_FLAG, .off = O(json),
	  .help = "print JSON" },
	{ .name = "export-json", .type = OPT_STR, .off = O(export_json), .metavar = "FILE",
	  .help = "also write the JSON of --json to FILE, from the same runs (the table still prints)" },
	{ .type = OPT_ROWS, .rows = builtin_db_rows, .off = O(db) },
	{ .name = "no-store", .type = OPT_FLAG, .off = O(no_store),
	  .help = "do not store the runs" },
	{ .name = "label", .type = OPT_STR, .off = O(label),
	  .metavar = "TEXT", .def = "table",
	  .help = "tag stored with the runs" },
	{ NULL },
};

/* Why the native backend cannot produce the whole table here, or NULL if it can. */
static const char *native_reason(const struct sysinfo *si, int *can_count)
{
	*can_count = si->has_core_pmu;
	if (!si->has_core_pmu)
		return "this machine has no hardware PMU, so dTLB-load-misses cannot be counted";
	if (!SHAREDCTX_ARCH_HAS_FLAGS || strcmp(si->arch, "sparc64") != 0)
		return "dTLB misses can be counted, but only sparc64 T2 or later with our kernel "
		       "series offers a shared context";
	return NULL;
}

/* Both columns (or the normal one) natively: 69 pages per task, as the model. */
static int native_rows(const struct table_cfg *tc, const struct sysinfo *si, struct store *db, int both,
		       double *normal, double *shared, char *why, size_t whylen)
{
	int sparc = SHAREDCTX_ARCH_HAS_FLAGS;
	/* sparc64: one 4 MiB TTE touched per 8 MiB page; elsewhere 2 MiB pages */
	struct native_row nr = { .page = sparc ? "8m" : "2m", .ws = sparc ? "552m" : "138m",
				 .sga = sparc ? "552m" : "138m", .db = db, .label = tc->label };
	/* two tasks must share one TLB: sibling strands, or one CPU time-sliced */
	nr.place = si->threads_per_core > 1 ? "smt" : "same-cpu";
	int ret = 0;

	for (int i = 0; i < NROWS; i++) {
		normal[i] = shared[i] = NAN;
		nr.rounds = table_rounds[i];
		nr.sharedctx = 0;
		if (!ret)
			ret = native_row_run(&nr, si, &normal[i], why, whylen);
		nr.sharedctx = 1;
		if (!ret && both)
			ret = native_row_run(&nr, si, &shared[i], why, whylen);
	}
	return ret;
}

/*
 * The cells of one column outside a factor of 2 of the published figures:
 * returns how many, and appends "shared at 1000000 rounds 669 is 0.16x
 * the published 4148" for each to why (len bytes, "; " between).
 */
static int outside_2x(const char *name, const double *col, const double *pub, char *why, size_t len)
{
	int bad = 0;

	for (int i = 0; i < NROWS; i++) {
		double r = col[i] / pub[i];
		size_t n = strlen(why);

		if (r >= 0.5 && r <= 2)
			continue;
		bad++;
		snprintf(why + n, len - n, "%s%s at %llu rounds %.0f is %.2fx the published %.0f", n ? "; " : "",
			 name, (unsigned long long)table_rounds[i], col[i], r, pub[i]);
	}
	return bad;
}

/* What dTLB-load-misses counts natively (this CPU's driver) and in the model (T2's). */
static void native_meaning(const struct sysinfo *si)
{
	struct model_machine host = { .name = "host" };

	model_host_counters(si, &host);
	printf("dTLB-load-misses: model, as T2's driver: the DTLB's misses (arch/sparc/kernel/"
	       "perf_event.c:539); native, as this CPU's driver: %s\n", host.counters);
}

/* Print a count, or "n/a" when it is missing. */
static void cell(double v, int width)
{
	if (isnan(v))
		printf(" %*s", width, "n/a");
	else
		printf(" %*.0f", width, v);
}

/* Both columns, how they were made, and the checks against the published ones. */
struct table_view {
	const struct table_cfg *tc;
	const struct sysinfo *si;
	const char *backend, *reason, *path;	/* reason: why not native, or NULL */
	int can_count, native, beside, stored;
	double normal[NROWS], shared[NROWS], nat[NROWS];	/* nat: with beside */
	char why[320];				/* why the native normal column is missing */
	double secs, slope, slope_min, slope_max;
	int ok_slope, ok_flat, ok_first, ok_cells, ok_all;
	char diff[1024];			/* the cells outside their bounds */
	struct model_machine t2;		/* the model's machine, for the timing's clock and walk */
	struct table_timing tim[NROWS][2];	/* --timing: each row's normal, shared; first seed */
};

/* The checks: slope within 10 %, shared flat, first row and every cell
 * within a factor of 2 of the published figures. */
static void table_judge(struct table_view *v)
{
	v->slope = table_slope(v->normal);
	v->ok_slope = v->slope >= PUB_SLOPE * 0.9 && v->slope <= PUB_SLOPE * 1.1;
	v->ok_flat = v->shared[NROWS - 1] < 0.01 * v->normal[NROWS - 1];
	v->ok_first = v->normal[0] >= pub_normal[0] / 2 && v->normal[0] <= pub_normal[0] * 2 &&
		      v->shared[0] >= pub_shared[0] / 2 && v->shared[0] <= pub_shared[0] * 2;
	v->diff[0] = '\0';
	v->ok_cells = !outside_2x("normal", v->normal, pub_normal, v->diff, sizeof(v->diff));
	v->ok_cells &= !outside_2x("shared", v->shared, pub_shared, v->diff, sizeof(v->diff));
	v->ok_all = v->ok_slope && v->ok_flat && v->ok_first && v->ok_cells;
}

/*
 * The model's options given to table (model_timing_opts' user-facing rows
 * that are not at their default, and --jitter when given), as "--a",
 * "--a and --b" or "--a, --b and --c" into buf. Returns how many.
 */
static unsigned model_knobs_given(const struct table_cfg *tc, char *buf, size_t n)
{
	const char *name[32];
	unsigned k = 0;

	for (const struct opt *o = model_timing_opts; o->name && k < 31; o++)
		if (!(o->flags & OPT_DERIVED) && !opt_is_default(o, &tc->sim))
			name[k++] = o->name;
	if (tc->jitter_given)
		name[k++] = "jitter";
	opt_join_names(name, k, buf, n);
	return k;
}

/* The walk a timed cell stalls for: --walk-cycles, else the machine's. */
static double timed_walk(const struct table_view *v)
{
	return v->tc->sim.walk_cycles >= 0 ? v->tc->sim.walk_cycles : v->t2.walk_cycles;
}

/* One row's timed cells, each an object named by its column ("normal",
 * "shared") of the timed engine's metrics under their lib/metrics.h names. */
static void timing_cells_json(struct json *j, const struct table_timing tim[2])
{
	for (int k = 0; k < 2; k++) {
		const struct table_timing *t = &tim[k];

		json_obj_open(j, k ? "shared" : "normal");
		json_dbl(j, metric_defs[MET_MODEL_CYCLES].name, t->cycles);
		json_dbl(j, metric_defs[MET_MODEL_STALL_CYCLES].name, t->stall_cycles);
		json_dbl(j, metric_defs[MET_MODEL_TICKS].name, t->ticks);
		json_dbl(j, metric_defs[MET_MODEL_TICK_ACCESSES].name, t->tick_accesses);
		json_dbl(j, metric_defs[MET_MODEL_TICK_MISSES].name, t->tick_misses);
		json_dbl(j, metric_defs[MET_MODEL_TICK_WALKS].name, t->tick_walks);
		json_dbl(j, metric_defs[MET_MODEL_MERGED_WALKS].name, t->merged);
		json_obj_close(j);
	}
}

/* With --timing: "timing": its settings, and the last row's timed cells
 * (timing_cells_json(); every row's are in "rows"); null without. */
static void timing_json(struct json *j, const struct table_view *v)
{
	const struct sim_cfg *c = &v->tc->sim;
	char b[16];

	if (!c->timing || v->native) {
		json_null(j, "timing");
		return;
	}
	json_obj_open(j, "timing");
	json_u64(j, "access_cycles", c->access_cycles ? c->access_cycles : 1);
	json_dbl(j, "walk_cycles", timed_walk(v));
	json_dbl(j, "ghz", v->t2.ghz);
	json_u64(j, "hz", c->hz);
	json_u64(j, "tick_entries", c->tick_entries);
	json_str(j, "inflight", opt_choice_name(MODEL_INFLIGHT_CHOICES, c->inflight, b, sizeof(b)));
	json_u64(j, "rounds", table_rounds[NROWS - 1]);
	timing_cells_json(j, v->tim[NROWS - 1]);
	json_obj_close(j);
}

/* Write the table as JSON to f. */
static void table_json(const struct table_view *v, FILE *f)
{
	const struct table_cfg *tc = v->tc;
	struct json j;

	json_init(&j, f, 1);
	json_obj_open(&j, NULL);
	envelope_json(&j, v->si, "table");
	json_str(&j, "backend", v->backend);
	json_str(&j, "native_unavailable", v->reason);
	json_bool(&j, "native_can_count", v->can_count);
	json_str(&j, "native_normal_missing", v->beside && v->why[0] ? v->why : NULL);
	json_u64(&j, "working_set", tc->ws);
	json_u64(&j, "jitter", tc->jitter);
	json_u64(&j, "startup_pages", tc->startup);
	json_u64(&j, "seed", tc->seed);
	json_u64(&j, "seeds", tc->seeds);
	json_dbl(&j, "seconds", v->secs);
	timing_json(&j, v);
	json_arr_open(&j, "rows");
	for (int i = 0; i < NROWS; i++) {
		json_obj_open(&j, NULL);
		json_u64(&j, "rounds", table_rounds[i]);
		json_dbl(&j, "normal", v->normal[i]);
		json_dbl(&j, "normal_published", pub_normal[i]);
		json_dbl(&j, "normal_ratio", v->normal[i] / pub_normal[i]);
		json_dbl(&j, "shared", v->shared[i]);
		json_dbl(&j, "shared_published", pub_shared[i]);
		json_dbl(&j, "shared_ratio", v->shared[i] / pub_shared[i]);
		if (v->beside)
			json_dbl(&j, "native_normal", v->nat[i]);
		if (v->tc->sim.timing && !v->native) {
			json_obj_open(&j, "timing");
			timing_cells_json(&j, v->tim[i]);
			json_obj_close(&j);
		}
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_dbl(&j, "slope", v->slope);
	json_dbl(&j, "slope_min_seed", v->slope_min);
	json_dbl(&j, "slope_max_seed", v->slope_max);
	json_bool(&j, "slope_within_10pct", v->ok_slope);
	json_bool(&j, "shared_flat", v->ok_flat);
	json_bool(&j, "first_row_within_2x", v->ok_first);
	json_bool(&j, "cells_within_2x", v->ok_cells);
	json_str(&j, "cells_outside_2x", v->ok_cells ? NULL : v->diff);
	json_bool(&j, "reproduced", v->ok_all);
	json_obj_close(&j);
	json_end(&j);
}

/* The rows: ours beside the published ones, and the native column. */
static void table_rows(const struct table_view *v)
{
	printf("%9s | %12s %12s %6s | %10s %10s %6s", "rounds", "normal", "published",
	       "ratio", "shared", "published", "ratio");
	printf(v->beside ? " | %12s\n" : "\n", "native normal");
	for (int i = 0; i < NROWS; i++) {
		printf("%9llu |", (unsigned long long)table_rounds[i]);
		cell(v->normal[i], 12);
		printf(" %12.0f %6.2f |", pub_normal[i], v->normal[i] / pub_normal[i]);
		cell(v->shared[i], 10);
		printf(" %10.0f %6.2f", pub_shared[i], v->shared[i] / pub_shared[i]);
		if (v->beside) {
			printf(" |");
			cell(v->nat[i], 12);
		}
		putchar('\n');
	}
	if (v->beside && v->why[0])
		printf("native normal: %s\n", v->why);
	else if (v->beside)
		printf("native normal: this machine's own TLB, 69 x 2 MiB pages per task "
		       "(no shared context here); not comparable with the T2 figures\n");
	if (v->beside)
		native_meaning(v->si);
}

/* With --timing: its settings (figures 0), or what it gave at the last row (1). */
static void timing_print(const struct table_view *v, int figures)
{
	const struct sim_cfg *c = &v->tc->sim;
	char b[16];

	if (!c->timing || v->native)
		return;
	if (!figures) {
		printf("timed: access %llu cycles, walk %g cycles at %g GHz (strands stall), in-flight %s, "
		       "hz %llu, %llu kernel pages a tick\n", (unsigned long long)(c->access_cycles ? c->access_cycles : 1),
		       timed_walk(v), v->t2.ghz, opt_choice_name(MODEL_INFLIGHT_CHOICES, c->inflight, b, sizeof(b)),
		       (unsigned long long)c->hz, (unsigned long long)c->tick_entries);
		return;
	}
	for (int k = 0; k < 2; k++) {
		const struct table_timing *t = &v->tim[NROWS - 1][k];

		printf("timed %s at %llu rounds, seed %llu: %.0f cycles (%.4g s), stall cycles %.0f; "
		       "%.0f ticks: %.0f kernel accesses, %.0f misses, %.0f walks; merged walks %.0f\n",
		       k ? "shared" : "normal", (unsigned long long)table_rounds[NROWS - 1],
		       (unsigned long long)v->tc->seed, t->cycles, t->cycles / (v->t2.ghz * 1e9), t->stall_cycles,
		       t->ticks, t->tick_accesses, t->tick_misses, t->tick_walks, t->merged);
	}
}

/* Print the table for a reader: how it was made, the rows, the checks. */
static void table_print(const struct table_view *v)
{
	const struct table_cfg *tc = v->tc;

	if (v->native) {
		printf("backend: native (2 tasks on one core, 69 pages per task)\n\n");
	} else {
		printf("backend: model:ultrasparc-t2 (native not available: %s)\n", v->reason ? v->reason :
		       "--backend model");
		printf("model: 2 tasks on 2 strands of one core, %llu MiB per task in 4 MiB TTEs, "
		       "jitter %llu, %llu start-up pages per task, seed %llu",
		       (unsigned long long)(tc->ws >> 20), (unsigned long long)tc->jitter,
		       (unsigned long long)tc->startup, (unsigned long long)tc->seed);
		if (tc->seeds > 1)
			printf("-%llu (each cell the median of %llu seeds)",
			       (unsigned long long)(tc->seed + tc->seeds - 1), (unsigned long long)tc->seeds);
		printf("\n");
		timing_print(v, 0);
		printf("\n");
	}
	table_rows(v);
	timing_print(v, 1);
	printf("\nslope within 10%% of the published %.1f misses/round", PUB_SLOPE);
	if (!v->native && tc->seeds > 1)
		printf(" (one seed alone: %.2f to %.2f)", v->slope_min, v->slope_max);
	printf(": %.2f: %s\n", v->slope, v->ok_slope ? "yes" : "NO");
	printf("shared at 1,000,000 rounds under 1%% of normal (the shape; published %.4f%%): %.4f%%: %s\n",
	       100 * pub_shared[NROWS - 1] / pub_normal[NROWS - 1], 100 * v->shared[NROWS - 1] / v->normal[NROWS - 1],
	       v->ok_flat ? "yes" : "NO");
	printf("first row within a factor of 2 of 771 / 834: %s%s\n", v->ok_first ? "yes" : "NO",
	       v->native ? "" : " (the model's start-up pages, --startup, are calibrated to this row)");
	printf("every cell within a factor of 2 of the published one: %s%s\n", v->ok_cells ? "yes" : "NO: ",
	       v->ok_cells ? "" : v->diff);
	printf("verdict: %s; %s in %.2f s%s\n", v->ok_all ? "reproduced" : "NOT reproduced",
	       v->native ? "measured" : "simulated", v->secs, v->stored ? "" : " (not stored)");
	if (v->stored)
		printf("stored in %s, label '%s'\n", v->path, tc->label);
}

/* --export-json: the JSON of v into path too, so one table serves a reader and a report. 0 or -1. */
static int export_json(const struct table_view *v, const char *path)
{
	FILE *f = fopen(path, "w");
	int bad = !f;

	if (f) {
		table_json(v, f);
		bad = ferror(f) | (fclose(f) != 0);
	}
	if (bad)
		error("table: cannot write '%s': %s", path, strerror(errno));
	return bad ? -1 : 0;
}

int cmd_table(int argc, char **argv)
{
	struct table_cfg tc = { 0 };
	struct table_view v = { .tc = &tc, .backend = "model:ultrasparc-t2", .slope_min = NAN,
				.slope_max = NAN };
	double unused[NROWS], t0;
	struct sysinfo si;
	struct store *db = NULL;
	int ret;
	unsigned knobs;
	char knob_names[256];

	tc.jitter = TABLE_JITTER_UNSET;
	ret = opt_parse(table_opts, &tc, argc, argv, "table", "[OPTIONS]", NULL, NULL);
	if (ret == OPT_HELP_SHOWN)
		return EX_OK;
	if (ret)
		return ret;
	tc.jitter_given = tc.jitter != TABLE_JITTER_UNSET;
	if (!tc.jitter_given)
		tc.jitter = tc.sim.timing ? 0 : TABLE_JITTER_DEFAULT;
	/* the model's knobs would be ignored by a native table: refused, not dropped */
	knobs = model_knobs_given(&tc, knob_names, sizeof(knob_names));
	if (knobs && tc.backend == TABLE_NATIVE) {
		error("table: %s %s the model's: not with --backend native", knob_names, knobs > 1 ? "are" : "is");
		return EX_USAGE;
	}
	sysinfo_collect(&si);
	v.si = &si;
	v.reason = native_reason(&si, &v.can_count);
	if (tc.backend == TABLE_NATIVE && v.reason) {
		error("table: the native backend is not available here: %s", v.reason);
		hint("use --backend model (or auto) to reproduce the table with the TLB model");
		return EX_RESOURCE;
	}
	v.native = tc.backend == TABLE_NATIVE || (tc.backend == TABLE_AUTO && !v.reason);
	if (knobs && v.native) {
		error("table: %s %s the model's, and --backend auto chose native here (this machine counts"
		      " dTLB misses and has a shared context): give --backend model", knob_names,
		      knobs > 1 ? "are" : "is");
		return EX_USAGE;
	}
	if (!v.native && table_model_check(&tc, &si, v.why, sizeof(v.why))) {
		error("table: %s", v.why);
		return EX_USAGE;
	}
	v.why[0] = '\0';
	model_preset_find("ultrasparc-t2", &v.t2);
	v.beside = !v.native && tc.backend != TABLE_MODEL && (v.can_count || tc.native_normal);
	if (!tc.no_store) {
		/* tc.db NULL: SGABENCH_DB, else the default (store_resolve) */
		ret = store_open(tc.db, &db);
		if (ret)
			return ret;
		v.path = store_path(db);
	}
	v.stored = db != NULL;
	t0 = clock_now_s();
	if (v.native) {
		v.backend = "native";
		ret = native_rows(&tc, &si, db, 1, v.normal, v.shared, v.why, sizeof(v.why));
		if (ret) {
			error("table: native run failed: %s", v.why);
			if (ret == EX_RESOURCE)
				hint("'--backend model' reproduces both columns with the TLB model");
			ret = ret > 0 ? ret : EX_FAIL;
			goto out;
		}
	} else {
		ret = table_model_rows(&tc, &si, db, v.normal, v.shared, &v.slope_min, &v.slope_max, v.tim);
		if (ret)
			goto out;
		/* a native normal column that cannot be counted is shown as n/a, with why */
		if (v.beside && !native_rows(&tc, &si, db, 0, v.nat, unused, v.why, sizeof(v.why)))
			v.why[0] = '\0';
	}
	v.secs = clock_now_s() - t0;
	table_judge(&v);
	if (tc.json)
		table_json(&v, stdout);
	else
		table_print(&v);
	ret = v.ok_all ? EX_OK : EX_FAIL;
	if (tc.export_json && export_json(&v, tc.export_json))
		ret = EX_FAIL;
out:
	if (db)
		store_close(db);
	return ret;
}
