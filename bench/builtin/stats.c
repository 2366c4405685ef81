/*
 * builtin/stats.c - sgabench stats: the statistics the shell harness needs,
 * in C rather than awk (scripts/sweep, report/mkreport).
 *
 *   sgabench stats median   KEY...<TAB>VALUE lines in; per distinct key, in
 *                           order of first appearance,
 *                           KEY...<TAB>median<TAB>min<TAB>max<TAB>n out
 *   sgabench stats noise    KEY...<TAB>VALUE lines in; per key with at least
 *                           4 values, KEY...<TAB>floor<TAB>n out: the A/A
 *                           noise floor (stats/noise.h), on medians, or
 *                           for one-sided metrics (--one-sided-noise, the
 *                           registry) on the quantile compare judges them by
 *
 * Numbers are printed as awk prints them (integers whole, others %.6g), so
 * the files the harness writes stay as they were.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin/builtin.h"
#include "lib/log.h"
#include "lib/metrics.h"
#include "lib/opt.h"
#include "stats/noise.h"
#include "stats/stats.h"

struct stats_cfg {
	uint64_t seed;
	uint64_t resamples;
	int pooled;
	const char *one_sided;	/* noise: comma list of metrics that noise only makes worse */
	const char *higher;	/* noise: comma list of those where higher is better */
};

#define F(x) offsetof(struct stats_cfg, x)
static const struct opt stats_opts[] = {
	{ .name = "seed", .type = OPT_UINT, .off = F(seed),
	  .metavar = "N", .def = "1",
	  .help = "noise: seed of the random splits" },
	{ .name = "resamples", .type = OPT_UINT, .off = F(resamples), .min = 1, .max = 1000000,
	  .metavar = "N", .def = "200",
	  .help = "noise: random splits per key" },
	{ .name = "pooled", .type = OPT_FLAG, .off = F(pooled),
	  .help = "noise: lines are KEY...<TAB>SWEEP<TAB>VALUE, pooled over sweeps; the floor is at least the drift between sweeps" },
	{ .name = "one-sided-noise", .type = OPT_STR, .off = F(one_sided),
	  .metavar = "M,...", .defhelp = "the registry's one-way metrics",
	  .help = "noise: keys whose last field is M use the quantile compare --one-sided-noise judges M by, not the median" },
	{ .name = "higher-better", .type = OPT_STR, .off = F(higher),
	  .metavar = "M,...", .defhelp = "the registry's",
	  .help = "noise: of those, the ones where higher is better (the 90th percentile; else the 10th)" },
	{ NULL },
};

/* One key's values (and, with --pooled, the sweep of each, as a small number). */
struct group {
	char *key;
	double *v;
	unsigned *sweep;
	size_t n, cap;
};

struct groups {
	struct group *g;
	size_t n, cap;
	size_t last;	/* the group of the previous line: input is often sorted */
	char **sweeps;	/* --pooled: the sweep names seen, numbered by position */
	size_t nsweeps;
};

/* The number of sweep name in gs (added when new); -1 on ENOMEM. */
static long sweep_of(struct groups *gs, const char *name)
{
	char **s;

	for (size_t i = 0; i < gs->nsweeps; i++)
		if (!strcmp(gs->sweeps[i], name))
			return (long)i;
	s = realloc(gs->sweeps, (gs->nsweeps + 1) * sizeof(*s));
	if (!s)
		return -1;
	gs->sweeps = s;
	s[gs->nsweeps] = strdup(name);
	return s[gs->nsweeps] ? (long)gs->nsweeps++ : -1;
}

/* The group of key, created at the end when new; NULL on ENOMEM. */
static struct group *group_of(struct groups *gs, const char *key)
{
	if (gs->n && !strcmp(gs->g[gs->last].key, key))
		return &gs->g[gs->last];
	for (size_t i = 0; i < gs->n; i++)
		if (!strcmp(gs->g[i].key, key)) {
			gs->last = i;
			return &gs->g[i];
		}
	if (gs->n == gs->cap) {
		size_t cap = gs->cap ? 2 * gs->cap : 64;
		struct group *g = realloc(gs->g, cap * sizeof(*g));

		if (!g)
			return NULL;
		gs->g = g;
		gs->cap = cap;
	}
	gs->g[gs->n] = (struct group){ .key = strdup(key) };
	if (!gs->g[gs->n].key)
		return NULL;
	gs->last = gs->n;
	return &gs->g[gs->n++];
}

/* Append value v of sweep number sweep to g. Returns 0 or -ENOMEM. */
static int group_add(struct group *g, double v, unsigned sweep)
{
	if (g->n == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 16;
		double *nv = realloc(g->v, cap * sizeof(*nv));
		unsigned *ns;

		if (!nv)
			return -ENOMEM;
		g->v = nv;
		ns = realloc(g->sweep, cap * sizeof(*ns));
		if (!ns)
			return -ENOMEM;
		g->sweep = ns;
		g->cap = cap;
	}
	g->sweep[g->n] = sweep;
	g->v[g->n++] = v;
	return 0;
}

static void groups_free(struct groups *gs)
{
	for (size_t i = 0; i < gs->n; i++) {
		free(gs->g[i].key);
		free(gs->g[i].v);
		free(gs->g[i].sweep);
	}
	free(gs->g);
	for (size_t i = 0; i < gs->nsweeps; i++)
		free(gs->sweeps[i]);
	free(gs->sweeps);
}

/*
 * Read "KEY...<TAB>VALUE" lines from f into gs: the key is everything before
 * the last tab. With pooled, the field before the value is the sample's
 * sweep and not part of the key. A line without its tabs or whose value is
 * not a number is an error (-EINVAL, with the line number in *lineno);
 * -ENOMEM.
 */
static int read_groups(FILE *f, struct groups *gs, int pooled, size_t *lineno)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int ret = 0;

	*lineno = 0;
	while ((len = getline(&line, &cap, f)) >= 0) {
		char *tab, *end;
		struct group *g;
		long sweep;
		double v;

		++*lineno;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (!len)
			continue;
		tab = strrchr(line, '\t');
		if (!tab) {
			ret = -EINVAL;
			break;
		}
		*tab = '\0';
		errno = 0;
		v = strtod(tab + 1, &end);
		if (end == tab + 1 || *end || errno) {
			ret = -EINVAL;
			break;
		}
		sweep = 0;
		if (pooled) {
			char *st = strrchr(line, '\t');

			if (!st) {
				ret = -EINVAL;
				break;
			}
			*st = '\0';
			sweep = sweep_of(gs, st + 1);
			if (sweep < 0) {
				ret = -ENOMEM;
				break;
			}
		}
		g = group_of(gs, line);
		if (!g || group_add(g, v, (unsigned)sweep)) {
			ret = -ENOMEM;
			break;
		}
	}
	free(line);
	return ret;
}

/* Print v: whole numbers in full, others with 10 significant digits (a
 * median of two counts, x.5, keeps its digits, so a report rounds it as
 * sgabench table does). */
static void print_num(double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		printf("\t%.0f", v);
	else
		printf("\t%.10g", v);
}

static int stats_median_cmd(struct groups *gs)
{
	for (size_t i = 0; i < gs->n; i++) {
		struct group *g = &gs->g[i];
		double lo = g->v[0], hi = g->v[0];

		for (size_t j = 1; j < g->n; j++) {
			lo = g->v[j] < lo ? g->v[j] : lo;
			hi = g->v[j] > hi ? g->v[j] : hi;
		}
		printf("%s", g->key);
		print_num(stats_median(g->v, g->n));
		print_num(lo);
		print_num(hi);
		printf("\t%zu\n", g->n);
	}
	return EX_OK;
}

/* Whether name is one of the comma-separated list (NULL: none). */
static int in_list(const char *list, const char *name)
{
	size_t l = strlen(name);

	for (const char *p = list; p && *p;) {
		size_t k = strcspn(p, ",");

		if (k == l && !strncmp(p, name, l))
			return 1;
		p += k + (p[k] == ',');
	}
	return 0;
}

/*
 * The quantile key's floor is measured on, as compare judges its metric
 * (the key's last field): for a metric in --one-sided-noise or one-way in
 * the registry, STATS_BEST_QUANTILE when it is in --higher-better or
 * higher in the registry, else 1 - it; otherwise 0.5, the median.
 */
static double key_quantile(const struct stats_cfg *c, const char *key)
{
	const char *metric = strrchr(key, '\t');

	metric = metric ? metric + 1 : key;
	if (!in_list(c->one_sided, metric) && !metric_one_way(metric))
		return 0.5;
	return in_list(c->higher, metric) || metric_higher_better(metric) ?
	       STATS_BEST_QUANTILE : 1 - STATS_BEST_QUANTILE;
}

static int stats_noise_cmd(struct groups *gs, const struct stats_cfg *c)
{
	struct noise_rng r;

	noise_rng_seed(&r, c->seed);
	for (size_t i = 0; i < gs->n; i++) {
		struct group *g = &gs->g[i];
		double fl, drift = 0, q = key_quantile(c, g->key);
		int ret;

		if (g->n < STATS_NOISE_MIN_SAMPLES)
			continue;
		ret = stats_noise_floor_q(g->v, g->n, q, (unsigned)c->resamples, &r, &fl);
		if (!ret && c->pooled)
			ret = stats_noise_drift_q(g->v, g->sweep, g->n, q, &drift);
		if (drift > fl)
			fl = drift;
		if (ret) {
			error("noise floor of '%s': %s", g->key, strerror(-ret));
			return EX_FAIL;
		}
		printf("%s\t%.6g\t%zu\n", g->key, fl, g->n);
	}
	return EX_OK;
}

int cmd_stats(int argc, char **argv)
{
	struct stats_cfg c = { 0 };
	struct groups gs = { 0 };
	char *pos[1];
	int npos = 1, ret;
	size_t lineno;

	ret = opt_parse(stats_opts, &c, argc, argv, "stats", "median|noise [OPTIONS] < KEY<TAB>VALUE lines",
			pos, &npos);
	if (ret)
		return ret == OPT_HELP_SHOWN ? EX_OK : ret;
	if (npos != 1 || (strcmp(pos[0], "median") && strcmp(pos[0], "noise"))) {
		error("stats needs 'median' or 'noise'%s%s%s", npos ? ", not '" : "", npos ? pos[0] : "",
		      npos ? "'" : "");
		hint("printf 'a\\t1\\na\\t3\\n' | sgabench stats median");
		return EX_USAGE;
	}
	ret = read_groups(stdin, &gs, c.pooled, &lineno);
	if (ret == -EINVAL) {
		error("stats %s: line %zu of the input is not KEY<TAB>NUMBER", pos[0], lineno);
		ret = EX_USAGE;
	} else if (ret) {
		error("stats %s: %s", pos[0], strerror(-ret));
		ret = EX_FAIL;
	} else if (!strcmp(pos[0], "median")) {
		ret = stats_median_cmd(&gs);
	} else {
		ret = stats_noise_cmd(&gs, &c);
	}
	groups_free(&gs);
	if (fflush(stdout) && !ret)
		ret = EX_FAIL;
	return ret;
}
