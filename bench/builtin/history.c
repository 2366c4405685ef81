/*
 * builtin/history.c - sgabench history: one metric over time for each
 * matching cell, one series per machine, with the change points that
 * E-divisive means + Welch t-test finds (stats_cp.c) and the lookback
 * z-score alarm. A point is a night (the median of the runs carrying one
 * 'nightly-*' label) or, with --per-run or when a cell has no nightly
 * labels, one run. A machine is its name (SGABENCH_MACHINE) on one
 * fingerprint. In the per-night view the change points are still found
 * among the runs (a few nights' medians are too few points for the test,
 * however large the step) and shown at the night where the step begins.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin/builtin.h"
#include "builtin/history.h"
#include "lib/json.h"
#include "lib/log.h"
#include "lib/metrics.h"
#include "lib/opt.h"
#include "stats/stats.h"
#include "store/query.h"
#include "store/store.h"
#include "machine/sysinfo.h"
#include "output/envelope.h"

#define SYNOPSIS "--metric M [--cell PATTERN] [options]"

static const struct opt history_opts[] = {
	{ .name = "metric", .type = OPT_STR, .off = offsetof(struct hist_opts, metric),
	  .metavar = "M",
	  .help = "the metric (a run_metric name, e.g. minor-faults, wall-s)" },
	{ .name = "cell", .type = OPT_STR, .off = offsetof(struct hist_opts, cell),
	  .metavar = "PATTERN", .def = "*",
	  .help = "cells matching this GLOB pattern" },
	{ .type = OPT_ROWS, .rows = builtin_read_rows, .off = offsetof(struct hist_opts, io) },
	{ .name = "machine", .type = OPT_STR, .off = offsetof(struct hist_opts, machine),
	  .metavar = "NAME", .defhelp = "all, one series each",
	  .help = "only the machine named NAME (SGABENCH_MACHINE), or whose fingerprint starts"
		  " with NAME" },
	{ .name = "by", .type = OPT_STR, .off = offsetof(struct hist_opts, by),
	  .metavar = "ORDER", .def = "date",
	  .help = "date, or kernel: a point per kernel variant in Debian version order (flavour, then"
		  " boot parameters, break ties), over each machine name's fingerprints" },
	{ .name = "kernel", .type = OPT_STR, .off = offsetof(struct hist_opts, kernel),
	  .metavar = "PATTERN", .def = "*",
	  .help = "with --by kernel, only the variants matching this GLOB pattern, e.g. '*-rt'"
		  " for one flavour's line, or '6.1.*-[0-9]' for bookworm's plain kernels" },
	{ .name = "per-run", .type = OPT_FLAG, .off = offsetof(struct hist_opts, per_run),
	  .help = "one point per run, not per night" },
	{ .name = "window", .type = OPT_UINT, .off = offsetof(struct hist_opts, window), .min = 6, .max = 100000,
	  .metavar = "N", .def = "50",
	  .help = "points the change-point test looks at around a split" },
	{ .name = "pvalue", .type = OPT_DOUBLE, .off = offsetof(struct hist_opts, pvalue), .dmin = 1e-12, .dmax = 0.5,
	  .metavar = "P", .def = "0.001",
	  .help = "Welch t-test p below which a split is a change point (with --by kernel, also"
		  " a pulse's Holm-adjusted p)" },
	{ .name = "min-change", .type = OPT_DOUBLE, .off = offsetof(struct hist_opts, min_change), .dmax = 10,
	  .metavar = "R", .def = "0.02",
	  .help = "smallest relative step (or pulse, against both neighbours) reported" },
	{ NULL },
};

/* Remember run value v of the current night (per-night series). */
static int push_run(struct series *s, double v)
{
	if (s->nr == s->rcap) {
		size_t nc = s->rcap ? 2 * s->rcap : 64;
		double *nv = realloc(s->rv, nc * sizeof(*nv));
		size_t *nn;

		if (!nv)
			return -ENOMEM;
		s->rv = nv;
		nn = realloc(s->rnight, nc * sizeof(*nn));
		if (!nn)
			return -ENOMEM;
		s->rnight = nn;
		s->rcap = nc;
	}
	s->rv[s->nr] = v;
	s->rnight[s->nr++] = s->n - 1;
	return 0;
}

static int push_point(struct series *s, const char *label, const char *date)
{
	if (s->n == s->cap) {
		size_t nc = s->cap ? 2 * s->cap : 64;
		struct point *np = realloc(s->pt, nc * sizeof(*np));

		if (!np)
			return -ENOMEM;
		s->pt = np;
		s->cap = nc;
	}
	memset(&s->pt[s->n], 0, sizeof(s->pt[0]));
	snprintf(s->pt[s->n].label, sizeof(s->pt[0].label), "%s", label);
	snprintf(s->pt[s->n].date, sizeof(s->pt[0].date), "%s", date);
	s->n++;
	return 0;
}

int history_add_run(void *ctx, const char *label, const char *date, const char *uuid,
		   int has_value, double v)
{
	struct loading *l = ctx;
	struct series *s = l->s;
	struct point *p = s->n ? &s->pt[s->n - 1] : NULL;
	char key[96];
	int ret;

	if (s->per_night)
		snprintf(key, sizeof(key), "%s", label ? label : "");
	else	/* a run: its label and uuid prefix */
		snprintf(key, sizeof(key), "%.80s/%.8s", label ? label : "-", uuid);
	if (!p || !s->per_night || strcmp(p->label, key) != 0) {
		if (p && s->per_night && l->nv)
			p->value = stats_median(l->vals, l->nv);
		l->nv = 0;
		ret = push_point(s, key, date);
		if (ret)
			return ret;
		p = &s->pt[s->n - 1];
		p->value = NAN;
	}
	p->n++;
	if (!has_value) {
		p->missing++;
		s->skipped++;
		return 0;
	}
	if (l->nv == l->cap) {
		size_t nc = l->cap ? 2 * l->cap : 64;
		double *nvl = realloc(l->vals, nc * sizeof(*nvl));

		if (!nvl)
			return -ENOMEM;
		l->vals = nvl;
		l->cap = nc;
	}
	l->vals[l->nv++] = v;
	if (!s->per_night)
		p->value = v;
	return s->per_night ? push_run(s, v) : 0;
}

/*
 * Load the series of one cell on one machine: the runs in time order, and
 * for nights the median of each label's values. Runs with no value are
 * counted, never read as 0.
 */
static int load_series(struct store *db, const struct hist_opts *o, struct series *s)
{
	struct loading l = { .s = s };
	int ret = store_series_points(db, o->metric, s->cell, s->machine_id, s->name, s->per_night,
				      history_add_run, &l);

	if (!ret && s->per_night && s->n && l.nv)
		s->pt[s->n - 1].value = stats_median(l.vals, l.nv);
	free(l.vals);
	return ret;
}

/*
 * The change points of a per-night series, found among its runs (s->rv)
 * and moved to the night of the run where each step begins; two steps in
 * one night count once, and none in the first night. Returns their number
 * or -ENOMEM.
 */
static int night_change_points(const struct hist_opts *o, struct series *s)
{
	struct change_point cp[64];
	int n = stats_change_points(s->rv, s->nr, o->window, o->pvalue, o->min_change, cp, 64), k = 0;

	for (int i = 0; i < n; i++) {
		cp[i].index = s->rnight[cp[i].index];
		/* a step inside the first night (kernel) has no night before it:
		   not a change between nights */
		if (cp[i].index == 0 || (k && s->cp[k - 1].index == cp[i].index))
			continue;
		s->cp[k++] = cp[i];
	}
	return n < 0 ? n : k;
}

/* Drop points with no value, then find change points and z-scores. */
static int analyse(const struct hist_opts *o, struct series *s)
{
	size_t k = 0;
	double *x;
	int n;

	for (size_t i = 0; i < s->n; i++) {
		for (size_t r = 0; r < s->nr; r++)	/* runs follow their night */
			if (s->rnight[r] == i)
				s->rnight[r] = k;
		if (!isnan(s->pt[i].value))
			s->pt[k++] = s->pt[i];
	}
	s->n = k;
	x = malloc((s->n + 1) * sizeof(*x));
	s->z = malloc((s->n + 1) * sizeof(*s->z));
	if (!x || !s->z) {
		free(x);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->n; i++)
		x[i] = s->pt[i].value;
	if (s->per_night)
		n = night_change_points(o, s);
	else
		n = stats_change_points(x, s->n, o->window, o->pvalue, o->min_change, s->cp, 64);
	stats_zscores(x, s->n, STATS_Z_LOOKBACK, STATS_Z_MIN_PRIOR, s->z);
	free(x);
	if (n < 0)
		return n;
	s->ncp = n;
	/* by date a one-night pulse has the z-alarm; a few kernels are too few for it */
	return s->by_kernel ? history_kernel_pulses(o, s) : 0;
}

struct listing {
	const struct hist_opts *o;
	struct series *s;
	size_t n;
};

/* Add one (cell, machine) series. */
static int add_series(void *ctx, const char *cell, int64_t machine_id, const char *fp,
		      const char *name, int nightly)
{
	struct listing *l = ctx;
	struct series *ns = realloc(l->s, (l->n + 1) * sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	l->s = ns;
	memset(&ns[l->n], 0, sizeof(ns[0]));
	ns[l->n].cell = strdup(cell);
	ns[l->n].machine_id = machine_id;
	snprintf(ns[l->n].fp, sizeof(ns[0].fp), "%s", fp);
	snprintf(ns[l->n].name, sizeof(ns[0].name), "%s", name);
	ns[l->n].per_night = !l->o->per_run && nightly;
	return ns[l->n++].cell ? 0 : -ENOMEM;
}

/* The (cell, machine) pairs to show, with whether each has nightly labels. */
static int list_series(struct store *db, const struct hist_opts *o, struct series **out, size_t *n)
{
	struct listing l = { .o = o };
	int ret = store_list_series(db, o->cell, o->machine, add_series, &l);

	*out = l.s;
	*n = l.n;
	return ret;
}

struct names {
	char **name;
	size_t n;
};

static int add_stored(void *ctx, const char *name)
{
	struct names *l = ctx;
	char **nn = realloc(l->name, (l->n + 1) * sizeof(*nn));

	if (!nn)
		return -ENOMEM;
	l->name = nn;
	nn[l->n] = strdup(name);
	return nn[l->n] ? (l->n++, 0) : -ENOMEM;
}

/*
 * Whether --metric is a metric (metric_check): a registry row, or a name
 * stored by some run of a cell matching --cell on --machine. Returns 0,
 * EX_USAGE (printed why) or EX_FAIL.
 */
static int check_metric(struct store *db, const struct hist_opts *o)
{
	struct names l = { 0 };
	int ret;

	if (metric_find(o->metric) >= 0)
		return 0;
	ret = store_metric_names(db, o->cell, o->machine, add_stored, &l);
	if (ret) {
		error("history: %s", ret == -ENOMEM ? "out of memory" : store_errmsg(db));
		ret = EX_FAIL;
	} else if (!metric_check("history", o->metric, (const char *const *)l.name, l.n)) {
		ret = EX_USAGE;
	}
	for (size_t i = 0; i < l.n; i++)
		free(l.name[i]);
	free(l.name);
	return ret;
}

int cmd_history(int argc, char **argv)
{
	struct hist_opts o = { 0 };
	struct series *s = NULL;
	size_t ns = 0;
	struct store *db = NULL;
	struct json j;
	struct sysinfo si;
	int ret;

	ret = opt_parse(history_opts, &o, argc, argv, "history", SYNOPSIS, NULL, NULL);
	if (ret)
		return ret == OPT_HELP_SHOWN ? EX_OK : ret;
	if (!o.metric) {
		error("history: --metric is required");
		hint("e.g. sgabench history --metric minor-faults --cell '*tasks=8 *'");
		return EX_USAGE;
	}
	if (strcmp(o.by, "date") != 0 && strcmp(o.by, "kernel") != 0) {
		error("history: --by '%s': date or kernel", o.by);
		return EX_USAGE;
	}
	o.by_kernel = strcmp(o.by, "kernel") == 0;
	if (o.by_kernel && o.per_run) {
		error("history: --by kernel and --per-run: a point is a kernel's runs");
		return EX_USAGE;
	}
	ret = store_open_ro(o.io.db, &db);
	if (ret)
		return ret;
	ret = o.by_kernel ? history_kernel_series(db, &o, &s, &ns) : list_series(db, &o, &s, &ns);
	if (!ret && ns == 0) {
		error("history: no successful runs%s of a cell matching '%s'%s%s",
		      o.by_kernel ? " with a kernel variant" : "", o.cell,
		      o.machine ? " on machine " : "", o.machine ? o.machine : "");
		hint("list the stored runs with 'sgabench runs --db %s'", store_path(db));
		ret = EX_RESOURCE;
		goto out;
	}
	ret = check_metric(db, &o);
	if (ret)
		goto out;
	for (size_t i = 0; i < ns && !ret; i++) {
		ret = o.by_kernel ? history_kernel_load(db, &o, &s[i]) : load_series(db, &o, &s[i]);
		if (!ret)
			ret = analyse(&o, &s[i]);
	}
	if (!ret && o.by_kernel && history_drop_empty(s, &ns) == 0) {
		error("history: no successful runs of a kernel variant matching '%s' in a cell matching '%s'%s%s",
		      o.kernel, o.cell, o.machine ? " on machine " : "", o.machine ? o.machine : "");
		ret = EX_RESOURCE;
		goto out;
	}
	if (ret) {
		error("history: %s", ret == -ENOMEM ? "out of memory" : store_errmsg(db));
		ret = EX_FAIL;
		goto out;
	}
	if (o.io.json) {
		json_init(&j, stdout, 1);
		json_obj_open(&j, NULL);
		sysinfo_collect(&si);
		envelope_json(&j, &si, "history");
		json_str(&j, "metric", o.metric);
		json_str(&j, "by", o.by);
		history_method_json(&j, &o);
		if (o.by_kernel && history_kernels_json(&j, s, ns)) {
			ret = EX_FAIL;
			error("history: out of memory");
		}
		json_arr_open(&j, "series");
		for (size_t i = 0; i < ns; i++)
			history_series_json(&j, &o, &s[i]);
		json_arr_close(&j);
		json_arr_open(&j, "change_points");	/* all series, flat, for scripts */
		for (size_t i = 0; i < ns; i++)
			for (int k = 0; k < s[i].ncp; k++)
				history_cp_json(&j, &s[i], k, 1);
		json_arr_close(&j);
		if (o.by_kernel) {
			json_arr_open(&j, "pulses");	/* the same, flat */
			for (size_t i = 0; i < ns; i++)
				for (int k = 0; k < s[i].npulse; k++)
					history_pulse_json(&j, o.metric, &s[i], k, 1);
			json_arr_close(&j);
		}
		json_obj_close(&j);
		json_end(&j);
	} else {
		for (size_t i = 0; i < ns; i++)
			history_print_human(&o, &s[i], stdout);
		printf("method: e-divisive means + Welch t-test (p < %g, window %llu, step >= %g%%); "
		       "z-alarm |z| >= %g over <= %d prior points\n", o.pvalue,
		       (unsigned long long)o.window, o.min_change * 100, STATS_Z_LIMIT,
		       STATS_Z_LOOKBACK);
		if (o.by_kernel)
			printf("pulses: each variant's runs against each neighbour's (Welch, both must differ"
			       " the same way by >= %g%%), Holm-adjusted p < %g over the variants tested;"
			       " a variant needs %d runs, as do its neighbours\n", o.min_change * 100,
			       o.pvalue, STATS_MIN_RUNS);
	}
out:
	for (size_t i = 0; i < ns; i++) {
		free(s[i].cell);
		free(s[i].pt);
		free(s[i].z);
		free(s[i].rv);
		free(s[i].rnight);
	}
	free(s);
	store_close(db);
	return ret;
}
