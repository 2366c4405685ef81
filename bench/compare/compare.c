/* compare/compare.c - pair baseline and candidate runs, compute and decide each row, store verdicts. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/json.h"
#include "lib/log.h"
#include "compare/compare.h"
#include "store/query.h"
#include "store/store.h"

size_t cmp_split_list(const char *list, char **out, size_t max)
{
	size_t n = 0;
	const char *p = list;

	while (*p && n < max) {
		size_t l = strcspn(p, ",");

		if (l)
			out[n] = strndup(p, l);
		if (l && out[n])
			n++;
		p += l;
		if (*p == ',')
			p++;
	}
	return n;
}

int cmp_higher_better(const struct cmp *c, const char *metric)
{
	size_t l = strlen(metric);

	for (size_t i = 0; i < c->nhb; i++)
		if (strcmp(c->hb[i], metric) == 0)
			return 1;
	return l > 6 && strcmp(metric + l - 6, "-per-s") == 0;
}

void cmp_note(struct cmp *c, const char *fmt, ...)
{
	char **nn = realloc(c->notes, (c->nnotes + 1) * sizeof(*nn));
	va_list ap;

	if (!nn)
		return;
	c->notes = nn;
	va_start(ap, fmt);
	if (vasprintf(&c->notes[c->nnotes], fmt, ap) >= 0)
		c->nnotes++;
	va_end(ap);
}

/* Drop baseline runs that are also candidates (e.g. last-10 vs tonight). */
static void drop_overlap(struct cmp *c)
{
	size_t k = 0;

	for (size_t i = 0; i < c->base.n; i++) {
		int dup = 0;

		for (size_t j = 0; j < c->cand.n && !dup; j++)
			dup = c->base.run[i].id == c->cand.run[j].id;
		if (!dup) {
			c->base.run[k++] = c->base.run[i];
			continue;
		}
		free(c->base.run[i].cell);
		free(c->base.run[i].label);
		free(c->base.run[i].started_at);
		free(c->base.run[i].uuid);
	}
	c->overlap = c->base.n - k;
	c->base.n = k;
	if (c->overlap)
		cmp_note(c, "%zu baseline runs are also candidates and were left out of the baseline",
			 c->overlap);
}

static int load_side(struct cmp *c, const struct runset *rs, struct run_values **out)
{
	*out = calloc(rs->n ? rs->n : 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (size_t i = 0; i < rs->n; i++)
		if (select_load_values(c->db_handle, rs->run[i].id, &(*out)[i]))
			return -EIO;
	return 0;
}

/* Whether run r belongs to the group of cell/machine. */
static int in_group(const struct cmp *c, const struct run_ref *r, const char *cell, int64_t mach)
{
	return strcmp(r->cell, cell) == 0 && (c->cross || r->machine_id == mach);
}

/* Add name to the set names[0..*n) unless present. */
static int add_name(const char ***names, size_t *n, const char *name)
{
	const char **nn;

	for (size_t i = 0; i < *n; i++)
		if (strcmp((*names)[i], name) == 0)
			return 0;
	nn = realloc(*names, (*n + 1) * sizeof(*nn));
	if (!nn)
		return -ENOMEM;
	nn[(*n)++] = name;
	*names = nn;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The A/A noise floor of the cell and metric (NAN when not measured). */
static double noise_floor(struct cmp *c, const char *cell, const char *metric, int64_t mach)
{
	return store_noise_floor(c->db_handle, cell, metric, mach);
}

/* Gather one side's values of metric in the group; counts runs without one. */
static size_t gather(const struct cmp *c, const struct runset *rs, const struct run_values *rv,
		     const char *cell, int64_t mach, const char *metric, double *x, size_t *nnull,
		     const char **why)
{
	size_t n = 0;

	*nnull = 0;
	for (size_t i = 0; i < rs->n; i++) {
		if (!in_group(c, &rs->run[i], cell, mach))
			continue;
		if (run_values_get(&rv[i], metric, &x[n], why) == 1)
			n++;
		else
			(*nnull)++;
	}
	return n;
}

/* Count a metric with no value in any run of a cell; one note per metric at the end. */
static int note_no_value(struct cmp *c, const char *metric, const char *why)
{
	size_t i;

	for (i = 0; i < c->nnv; i++)
		if (strcmp(c->nv_metric[i], metric) == 0)
			break;
	if (i == CMP_MAX_LIST)
		return 0;
	if (i == c->nnv) {
		c->nv_metric[i] = metric;
		c->nv_why[i] = why;
		c->nv_cells[i] = 0;
		c->nnv++;
	}
	c->nv_cells[i]++;
	return 0;
}

/* Compute the row for one cell/machine group and metric; a metric with no value anywhere is a note. */
static int add_row(struct cmp *c, const char *cell, int64_t mach, const char *metric, double *xb,
		   double *xc)
{
	const char *whyb = "absent", *whyc = "absent";
	struct cmp_row *r, *nr;
	unsigned char *fl;
	size_t nullb, nullc, nb, nc;

	nb = gather(c, &c->base, c->bv, cell, mach, metric, xb, &nullb, &whyb);
	nc = gather(c, &c->cand, c->cv, cell, mach, metric, xc, &nullc, &whyc);
	if (nb == 0 && nc == 0)
		return note_no_value(c, metric, whyc);
	if (nullb || nullc)
		cmp_note(c, "'%s' in cell '%s': skipped %zu baseline and %zu candidate runs with no "
			 "value (%s)", metric, cell, nullb, nullc, nullc ? whyc : whyb);
	nr = realloc(c->rows, (c->nrows + 1) * sizeof(*nr));
	fl = malloc(nb + nc + 1);
	if (!nr || !fl) {
		free(fl);
		if (nr)
			c->rows = nr;
		return -ENOMEM;
	}
	c->rows = nr;
	r = &c->rows[c->nrows++];
	memset(r, 0, sizeof(*r));
	r->cell = cell;
	r->machine_id = c->cross ? -1 : mach;
	r->metric = metric;
	r->higher_better = cmp_higher_better(c, metric);
	r->nb = nb;
	r->nc = nc;
	r->nullb = nullb;
	r->nullc = nullc;
	r->medb = stats_median(xb, nb);
	r->medc = stats_median(xc, nc);
	r->outb = nb ? stats_outliers(xb, nb, fl) : 0;
	r->outc = nc ? stats_outliers(xc, nc, fl) : 0;
	free(fl);
	if (r->outb || r->outc)
		cmp_note(c, "'%s' in cell '%s': %zu baseline and %zu candidate outliers flagged "
			 "(|x - median| > 14.826 MAD), kept", metric, cell, r->outb, r->outc);
	r->mwu.p = r->q = NAN;
	r->ci.ratio = r->ci.lo = r->ci.hi = NAN;
	if (nb && nc) {
		if (stats_mwu(xb, nb, xc, nc, &r->mwu) == -ENOMEM ||
		    stats_ratio_ci(xb, nb, xc, nc, STATS_BOOT_RESAMPLES, STATS_BOOT_SEED,
				   STATS_BOOT_LEVEL, &r->ci) == -ENOMEM)
			return -ENOMEM;
	}
	r->floor = noise_floor(c, cell, metric, r->machine_id);
	r->cv = stats_robust_cv(xb, nb, xc, nc);
	r->mde = NAN;
	return 0;
}

/* All rows of one group: the chosen metrics, or every metric its runs have. */
static int group_rows(struct cmp *c, const char *cell, int64_t mach, double *xb, double *xc)
{
	const char **names = NULL;
	size_t n = 0;
	int ret = 0;

	for (size_t i = 0; i < c->nmetric && !ret; i++)
		ret = add_name(&names, &n, c->metric[i]);
	for (int side = 0; side < 2 && !c->nmetric && !ret; side++) {
		const struct runset *rs = side ? &c->cand : &c->base;
		const struct run_values *rv = side ? c->cv : c->bv;

		for (size_t i = 0; i < rs->n && !ret; i++)
			for (size_t k = 0; in_group(c, &rs->run[i], cell, mach) && k < rv[i].n && !ret; k++)
				ret = add_name(&names, &n, rv[i].name[k]);
	}
	if (!c->nmetric && n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n && !ret; i++)
		ret = add_row(c, cell, mach, names[i], xb, xc);
	free(names);
	return ret;
}

/* Whether some run of rs before index end is in the same group as r. */
static int seen_before(const struct cmp *c, const struct runset *rs, size_t end,
		       const struct run_ref *r)
{
	for (size_t i = 0; i < end; i++)
		if (in_group(c, &rs->run[i], r->cell, r->machine_id))
			return 1;
	return 0;
}

/* One note per reason for the metrics that had no value in any run of a cell. */
static void note_no_values(struct cmp *c)
{
	for (size_t i = 0; i < c->nnv; i++) {
		char *buf = NULL;
		size_t len, k;
		FILE *f;

		for (k = 0; k < i; k++)
			if (strcmp(c->nv_why[k], c->nv_why[i]) == 0)
				break;
		if (k < i || !(f = open_memstream(&buf, &len)))
			continue;
		for (k = i; k < c->nnv; k++)
			if (strcmp(c->nv_why[k], c->nv_why[i]) == 0)
				fprintf(f, "%s'%s' (%zu cell%s)", k == i ? "" : ", ", c->nv_metric[k],
					c->nv_cells[k], c->nv_cells[k] == 1 ? "" : "s");
		fclose(f);
		cmp_note(c, "no value in any run (%s), not compared: %s", c->nv_why[i], buf);
		free(buf);
	}
}

int cmp_build_rows(struct cmp *c)
{
	size_t only_cand = 0, only_base = 0, other_machine = 0;
	double *xb = NULL, *xc = NULL;
	int ret = -ENOMEM;

	drop_overlap(c);
	xb = malloc((c->base.n + 1) * sizeof(*xb));
	xc = malloc((c->cand.n + 1) * sizeof(*xc));
	if (!xb || !xc)
		goto out;
	ret = load_side(c, &c->base, &c->bv);
	if (!ret)
		ret = load_side(c, &c->cand, &c->cv);
	for (size_t i = 0; i < c->cand.n && !ret; i++) {
		const struct run_ref *r = &c->cand.run[i];

		if (seen_before(c, &c->cand, i, r))
			continue;
		if (!seen_before(c, &c->base, c->base.n, r)) {
			only_cand++;
			for (size_t j = 0; j < c->base.n; j++)
				if (strcmp(c->base.run[j].cell, r->cell) == 0) {
					other_machine++;
					break;
				}
			continue;
		}
		ret = group_rows(c, r->cell, r->machine_id, xb, xc);
	}
	for (size_t i = 0; i < c->base.n && !ret; i++) {
		const struct run_ref *r = &c->base.run[i];

		if (!seen_before(c, &c->base, i, r) && !seen_before(c, &c->cand, c->cand.n, r))
			only_base++;
	}
	note_no_values(c);
	if (only_cand)
		cmp_note(c, "%zu cell(s) have candidate runs but no baseline runs%s", only_cand,
			 c->cross ? "" : " on the same machine");
	if (other_machine)
		cmp_note(c, "%zu of them have baseline runs on another machine; not compared "
			 "(--cross-machine compares them)", other_machine);
	if (only_base)
		cmp_note(c, "%zu cell(s) have baseline runs but no candidate runs", only_base);
out:
	free(xb);
	free(xc);
	if (ret == -ENOMEM)
		error("compare: out of memory");
	else if (ret)
		error("compare: reading run values: %s", store_errmsg(c->db_handle));
	return ret ? EX_FAIL : 0;
}

/* Rows with a p-value: the family Benjamini-Hochberg adjusts over. */
static size_t family(const struct cmp *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nrows; i++)
		n += !isnan(c->rows[i].mwu.p);
	return n;
}

/*
 * The level a lone change must reach among the family's rows: BH's q <=
 * fdr with one true change needs p <= fdr / family, and the rule needs p
 * <= alpha too.
 */
static double mde_alpha(const struct cmp *c)
{
	size_t m = family(c);
	double a = m ? c->dp.fdr / (double)m : c->dp.fdr;

	return a < c->dp.alpha ? a : c->dp.alpha;
}

/* Row r's minimum detectable effect: the statistical MDE, but never below the rule's bound. */
static double row_mde(const struct cmp *c, const struct cmp_row *r)
{
	double bound = c->dp.threshold, m = stats_mde(r->cv, r->nb, r->nc, mde_alpha(c), STATS_MDE_POWER);

	if (!isnan(r->floor) && r->floor > bound)
		bound = r->floor;
	if (isnan(m))
		return NAN;
	return m > bound ? m : bound;
}

int cmp_decide(struct cmp *c)
{
	double *p = malloc((c->nrows + 1) * sizeof(*p)), *q = malloc((c->nrows + 1) * sizeof(*q));
	int reg = 0;

	if (!p || !q) {
		free(p);
		free(q);
		return -1;
	}
	for (size_t i = 0; i < c->nrows; i++)
		p[i] = c->rows[i].mwu.p;
	if (stats_bh(p, c->nrows, q)) {
		free(p);
		free(q);
		return -1;
	}
	for (size_t i = 0; i < c->nrows; i++) {
		struct cmp_row *r = &c->rows[i];

		r->q = q[i];
		r->mde = row_mde(c, r);
		r->v = stats_decide(&c->dp, r->nb, r->nc, r->mwu.p, r->q, &r->ci, r->floor,
				    r->higher_better, r->why, sizeof(r->why));
		c->count[r->v]++;
		reg += r->v == V_REGRESSION;
	}
	free(p);
	free(q);
	return reg;
}


void cmp_method_json(const struct cmp *c, const struct cmp_row *r, FILE *f)
{
	struct json j;

	json_init(&j, f, 0);
	json_obj_open(&j, NULL);
	json_str(&j, "test", "mann-whitney-u two-sided");
	json_str(&j, "p", "exact without ties when C(n1+n2,n1) < 1e15, else normal approximation "
		 "with tie and continuity correction");
	json_dbl(&j, "alpha", c->dp.alpha);
	json_str(&j, "multiple", "benjamini-hochberg over all rows of this comparison");
	json_dbl(&j, "q", c->dp.fdr);
	json_u64(&j, "family", family(c));
	json_str(&j, "effect", "ratio of medians candidate/baseline");
	json_str(&j, "ci", "percentile bootstrap, sides resampled independently");
	json_dbl(&j, "ci_level", STATS_BOOT_LEVEL);
	json_u64(&j, "resamples", STATS_BOOT_RESAMPLES);
	json_u64(&j, "seed", STATS_BOOT_SEED);
	json_str(&j, "rng", "xoshiro256** stream 0");
	json_dbl(&j, "threshold", c->dp.threshold);
	json_str(&j, "bound", "max(threshold, noise floor)");
	json_str(&j, "rule", "significant (p <= alpha and q <= q) and the ratio of medians beyond the bound");
	json_str(&j, "mde", "max(bound, sqrt(pi/3) * (z(a/2) + z(power)) * cv * sqrt(1/n_base + 1/n_cand)),"
		 " cv = 1.4826 * pooled MAD of x / median(own side) - 1, a = min(alpha, q / family)");
	json_dbl(&j, "mde_power", STATS_MDE_POWER);
	json_dbl(&j, "mde_alpha", mde_alpha(c));
	json_u64(&j, "min_runs", c->dp.min_runs);
	json_str(&j, "outliers", "flagged |x - median| > 14.826 MAD, kept");
	json_bool(&j, "cross_machine", c->cross);
	if (r) {
		json_dbl(&j, "noise_floor", r->floor);
		json_bool(&j, "higher_better", r->higher_better);
		json_bool(&j, "exact", r->mwu.exact);
		json_dbl(&j, "noise_cv", r->cv);
		json_dbl(&j, "mde", r->mde);
	}
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
			.noise_floor = r->floor, .mde = r->mde,
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

void cmp_free(struct cmp *c)
{
	for (size_t i = 0; c->bv && i < c->base.n; i++)
		run_values_free(&c->bv[i]);
	for (size_t i = 0; c->cv && i < c->cand.n; i++)
		run_values_free(&c->cv[i]);
	free(c->bv);
	free(c->cv);
	runset_free(&c->base);
	runset_free(&c->cand);
	for (size_t i = 0; i < c->nhb; i++)
		free(c->hb[i]);
	for (size_t i = 0; i < c->nmetric; i++)
		free(c->metric[i]);
	for (size_t i = 0; i < c->nnotes; i++)
		free(c->notes[i]);
	free(c->notes);
	free(c->rows);
	if (c->db_handle)
		store_close(c->db_handle);
	free(c);
}
