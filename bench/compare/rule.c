/* compare/rule.c - decide each row (BH per machine, then the rule), its minimum detectable effect, the method, the stored verdicts. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/json.h"
#include "lib/log.h"
#include "compare/compare.h"
#include "store/query.h"

/*
 * Whether rows a and b are of one Benjamini-Hochberg family: the rows of
 * one machine (its group), so that a machine's q values, MDEs and verdicts
 * are those it gets alone, whichever other machines the selection holds;
 * across machines (--cross-machine) every row pairs runs of all machines
 * and all rows are one family.
 */
static int same_family(const struct cmp *c, const struct cmp_row *a, const struct cmp_row *b)
{
	return c->cross || a->group == b->group;
}

/* The rows with a p-value in row r's family; r NULL: in the largest family. */
static size_t family(const struct cmp *c, const struct cmp_row *r)
{
	size_t n = 0, most = 0;

	if (!r) {
		for (size_t i = 0; i < c->nrows; i++) {
			n = family(c, &c->rows[i]);
			most = n > most ? n : most;
		}
		return most;
	}
	for (size_t i = 0; i < c->nrows; i++)
		n += same_family(c, r, &c->rows[i]) && !isnan(c->rows[i].mwu.p);
	return n;
}

/*
 * The level a lone change must reach among the family's rows (r's, or
 * with r NULL the largest): BH's q <= fdr with one true change needs p <=
 * fdr / family, and the rule needs p <= alpha too.
 */
static double mde_alpha(const struct cmp *c, const struct cmp_row *r)
{
	size_t m = family(c, r);
	double a = m ? c->dp.fdr / (double)m : c->dp.fdr;

	return a < c->dp.alpha ? a : c->dp.alpha;
}

/* Row r's minimum detectable effect: the statistical MDE (for a one-sided row, from the
 * bootstrap spread of its ratio), but never below the rule's bound (r->threshold must be set). */
static double row_mde(const struct cmp *c, const struct cmp_row *r)
{
	double bound = r->threshold, m;

	if (r->quant == 0.5)
		m = stats_mde(r->cv, r->nb, r->nc, mde_alpha(c, r), STATS_MDE_POWER);
	else
		m = stats_mde_se(r->ci.se_log, r->nb, r->nc, mde_alpha(c, r), STATS_MDE_POWER,
				 STATS_PERM_RESAMPLES);

	if (!isnan(r->floor) && r->floor > bound)
		bound = r->floor;
	if (isnan(m))
		return NAN;
	return m > bound ? m : bound;
}

/*
 * Each row's q: Benjamini-Hochberg over its family alone (same_family).
 * p and q have room for every row. Returns 0 or -ENOMEM.
 */
static int family_q(struct cmp *c, double *p, double *q)
{
	for (size_t i = 0; i < c->nrows; i++) {
		size_t n = 0, k = 0, first = 0;

		while (first < i && !same_family(c, &c->rows[first], &c->rows[i]))
			first++;
		if (first < i)
			continue;	/* its family was adjusted with an earlier row's */
		for (size_t j = i; j < c->nrows; j++)
			if (same_family(c, &c->rows[i], &c->rows[j]))
				p[n++] = c->rows[j].mwu.p;
		if (stats_bh(p, n, q))
			return -ENOMEM;
		for (size_t j = i; j < c->nrows; j++)
			if (same_family(c, &c->rows[i], &c->rows[j]))
				c->rows[j].q = q[k++];
	}
	return 0;
}

int cmp_decide(struct cmp *c)
{
	double *p = malloc((c->nrows + 1) * sizeof(*p)), *q = malloc((c->nrows + 1) * sizeof(*q));
	int reg = 0;

	if (!p || !q || family_q(c, p, q)) {
		free(p);
		free(q);
		return -1;
	}
	for (size_t i = 0; i < c->nrows; i++) {
		struct cmp_row *r = &c->rows[i];
		struct decide_params dp = c->dp;

		r->threshold = dp.threshold = cmp_threshold(c, r->metric);
		r->mde = row_mde(c, r);
		r->v = stats_decide(&dp, r->nb, r->nc, r->mwu.p, r->q, &r->ci, r->floor,
				    r->higher_better, r->why, sizeof(r->why));
		/* tonight against one earlier night: its drift could be all of the change */
		if ((r->v == V_REGRESSION || r->v == V_IMPROVEMENT) && !r->interleaved &&
		    r->sessions < 2 && r->floor_within > 0) {
			snprintf(r->why, sizeof(r->why), "a change, but %u baseline night%s of >= 2 runs: "
				 "drift between nights unmeasured", r->sessions, r->sessions == 1 ? "" : "s");
			r->v = V_INSUFFICIENT;
		}
		if (r->exact)
			cmp_decide_exact(r);
		c->count[r->v]++;
		reg += r->v == V_REGRESSION;
	}
	free(p);
	free(q);
	return reg;
}


/* "one_sided_noise": the metrics of c's rows compared on a quantile, each once. */
static void one_sided_json(struct json *j, const struct cmp *c)
{
	json_arr_open(j, "one_sided_noise");
	for (size_t i = 0; i < c->nrows; i++) {
		size_t k = 0;

		while (k < i && !(c->rows[k].quant != 0.5 && strcmp(c->rows[k].metric, c->rows[i].metric) == 0))
			k++;
		if (c->rows[i].quant != 0.5 && k == i)
			json_str(j, NULL, c->rows[i].metric);
	}
	json_arr_close(j);
}

/* The test and its p-value: the row's (r) or the comparison's; with
 * the one-sided-noise metrics of the comparison when r is NULL. */
static void method_test(struct json *j, const struct cmp *c, const struct cmp_row *r)
{
	if (r && r->quant != 0.5) {
		json_str(j, "test", "permutation two-sided");
		json_str(j, "p", "(1 + relabellings with |Q(cand) - Q(base)| >= observed) / (resamples + 1),"
			 " Q the row's quantile, over random relabellings of the pooled runs");
		json_u64(j, "perm_resamples", STATS_PERM_RESAMPLES);
	} else {
		json_str(j, "test", "mann-whitney-u two-sided");
		json_str(j, "p", "exact without ties when C(n1+n2,n1) < 1e15, else normal approximation "
			 "with tie and continuity correction");
	}
	if (!r && cmp_any_one_sided(c)) {
		one_sided_json(j, c);
		json_dbl(j, "one_sided_quantile", STATS_BEST_QUANTILE);
		json_str(j, "one_sided_noise_test", "noise only makes these metrics worse: each side's"
			 " one_sided_quantile (1 minus it when lower is better) in place of the median, in the"
			 " effect, the floor and the CI; p from a permutation test on it; MDE from the"
			 " bootstrap spread of its ratio");
	}
}

/* The threshold, the noise floor, the rule and the MDE, as the row (r) or the comparison uses them. */
static void method_bounds(struct json *j, const struct cmp *c, const struct cmp_row *r)
{
	json_dbl(j, "threshold", r ? r->threshold : c->dp.threshold);
	if (!r && c->nmt) {
		json_obj_open(j, "metric_thresholds");
		for (size_t i = 0; i < c->nmt; i++)
			json_dbl(j, c->mt_name[i], c->mt_value[i]);
		json_obj_close(j);
	}
	json_str(j, "bound", "max(threshold, noise floor)");
	json_str(j, "noise_floor", "from the baseline's runs of the cell alone: max(within, between);"
		 " within = 95th percentile of |median(half 1) / median(half 2) - 1| over 200 seeded"
		 " half-splits, x sqrt((1/n_base + 1/n_cand) / (1/h1 + 1/h2)); between (only when the"
		 " sides do not interleave in time within one boot) = (max - min) of the medians of the baseline's"
		 " labels of >= 2 runs / the median of all its runs");
	json_str(j, "rule", "significant (p <= alpha and q <= q) and the ratio of medians beyond the bound;"
		 " insufficient instead when the sides do not interleave within one boot, the metric varies"
		 " (floor within > 0)"
		 " and the baseline has fewer than 2 labels of >= 2 runs");
	if (r && r->quant != 0.5)
		json_str(j, "mde", "max(bound, (z(a/2) + z(power)) * se), se = half the 15.9-84.1 % range of"
			 " log(bootstrap ratio), a = min(alpha, q / family)");
	else
		json_str(j, "mde", "max(bound, sqrt(pi/3) * (z(a/2) + z(power)) * cv * sqrt(1/n_base + 1/n_cand)),"
			 " cv = 1.4826 * pooled MAD of x / median(own side) - 1, a = min(alpha, q / family)");
	json_dbl(j, "mde_power", STATS_MDE_POWER);
	json_dbl(j, "mde_alpha", mde_alpha(c, r));
}

/* The row's own figures: its floor, sessions, direction, MDE and quantile. */
static void method_row(struct json *j, const struct cmp_row *r)
{
	json_dbl(j, "noise_floor", r->floor);
	json_dbl(j, "floor_within", r->floor_within);
	json_dbl(j, "floor_between", r->floor_between);
	json_u64(j, "baseline_sessions", r->sessions);
	json_bool(j, "interleaved", r->interleaved);
	json_bool(j, "higher_better", r->higher_better);
	json_bool(j, "exact", r->mwu.exact);
	json_dbl(j, "noise_cv", r->cv);
	json_dbl(j, "mde", r->mde);
	json_dbl(j, "quantile", r->quant);
}

void cmp_method_json(const struct cmp *c, const struct cmp_row *r, FILE *f)
{
	struct json j;

	json_init(&j, f, 0);
	json_obj_open(&j, NULL);
	cmp_ignored_json(c, &j, r);
	/* a stored verdict keeps what its estimates rest on, as the --json row says */
	if (r) {
		cmp_row_mux_json(&j, r);
		cmp_row_costs_json(c, &j, r);
	}
	if (r && r->exact) {
		cmp_exact_method(c, r, &j);
		json_obj_close(&j);
		return;
	}
	method_test(&j, c, r);
	json_dbl(&j, "alpha", c->dp.alpha);
	if (c->cross)
		json_str(&j, "multiple", "benjamini-hochberg over all rows of this comparison");
	else
		json_str(&j, "multiple", r ? "benjamini-hochberg over the rows of the row's machine alone" :
			 "benjamini-hochberg over the rows of each machine alone; family and mde_alpha:"
			 " the machine with the most rows'");
	json_dbl(&j, "q", c->dp.fdr);
	json_u64(&j, "family", family(c, r));
	if (r && r->quant != 0.5) {
		char effect[64];

		snprintf(effect, sizeof(effect), "ratio of %.0fth percentiles candidate/baseline", 100 * r->quant);
		json_str(&j, "effect", effect);
	} else
		json_str(&j, "effect", "ratio of medians candidate/baseline");
	json_str(&j, "ci", "percentile bootstrap, sides resampled independently");
	json_dbl(&j, "ci_level", STATS_BOOT_LEVEL);
	json_u64(&j, "resamples", STATS_BOOT_RESAMPLES);
	json_u64(&j, "seed", STATS_BOOT_SEED);
	json_str(&j, "rng", "xoshiro256** stream 0");
	method_bounds(&j, c, r);
	json_u64(&j, "min_runs", c->dp.min_runs);
	json_str(&j, "outliers", "flagged |x - median| > 14.826 MAD, kept");
	json_bool(&j, "cross_machine", c->cross);
	if (!r)
		cmp_exact_method(c, NULL, &j);
	if (r)
		method_row(&j, r);
	json_obj_close(&j);
}

int cmp_store_verdicts(struct cmp *c)
{
	struct store_verdict *v = calloc(c->nrows ? c->nrows : 1, sizeof(*v));
	char **method = calloc(c->nrows ? c->nrows : 1, sizeof(*method));
	int ret = v && method ? 0 : -1;

	for (size_t i = 0; !ret && i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		size_t len;
		FILE *f = open_memstream(&method[i], &len);

		if (!f) {
			ret = -1;
			break;
		}
		cmp_method_json(c, r, f);
		fclose(f);
		v[i] = (struct store_verdict){
			.baseline = c->baseline, .candidate = c->candidate, .cell = r->cell,
			.metric = r->metric, .machine_id = r->machine_id,
			.n_base = (int64_t)r->nb, .n_cand = (int64_t)r->nc,
			.ratio = r->ci.ratio, .ci_lo = r->ci.lo, .ci_hi = r->ci.hi,
			.p_value = r->mwu.p, .q_value = r->q,
			.verdict = stats_verdict_name(r->v), .method = method[i], .reason = r->why,
			.noise_floor = r->floor, .mde = r->mde, .machine_name = r->machine,
		};
	}
	if (!ret)
		ret = store_put_verdicts(c->db_handle, v, c->nrows);
	if (ret)
		error("compare: storing verdicts failed");
	for (size_t i = 0; method && i < c->nrows; i++)
		free(method[i]);
	free(method);
	free(v);
	return ret;
}

