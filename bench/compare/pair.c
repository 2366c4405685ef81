/* compare/pair.c - pair baseline and candidate runs by cell (and machine) and compute each row. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/log.h"
#include "lib/metrics.h"
#include "compare/compare.h"
#include "store/query.h"
#include "store/store.h"

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
		run_ref_free(&c->base.run[i]);
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

/* Whether run r belongs to the group of cell/machine (mach: a run_ref's group). */
static int in_group(const struct cmp *c, const struct run_ref *r, const char *cell, int64_t mach)
{
	return strcmp(r->cell, cell) == 0 && (c->cross || r->group == mach);
}

/*
 * Number the machines of both sides: runs share a group when they share
 * the machine fingerprint (machine_id) and the machine's name, so two
 * machines of one fingerprint are never paired with each other. Across
 * kernels (c->kernels) the name alone: the fingerprint holds the kernel
 * release and command line, which are what differs on purpose then.
 */
static void assign_groups(struct cmp *c)
{
	struct runset *rs[2] = { &c->base, &c->cand };
	const struct run_ref **first = calloc(c->base.n + c->cand.n + 1, sizeof(*first));
	size_t ng = 0;

	for (int side = 0; side < 2; side++)
		for (size_t i = 0; i < rs[side]->n; i++) {
			struct run_ref *r = &rs[side]->run[i];
			size_t g;

			for (g = 0; first && g < ng; g++)
				if ((c->kernels || first[g]->machine_id == r->machine_id) &&
				    strcmp(first[g]->machine_name, r->machine_name) == 0)
					break;
			if (first && g == ng)
				first[ng++] = r;
			r->group = first ? (int64_t)g : r->machine_id;
		}
	free(first);
}

/* The first run of group mach (on either side), for its machine id and name. */
static const struct run_ref *group_run(const struct cmp *c, int64_t mach)
{
	for (size_t i = 0; i < c->cand.n; i++)
		if (c->cand.run[i].group == mach)
			return &c->cand.run[i];
	for (size_t i = 0; i < c->base.n; i++)
		if (c->base.run[i].group == mach)
			return &c->base.run[i];
	return NULL;
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
	int ret;

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
	r->group = mach;
	r->machine_id = c->cross || !group_run(c, mach) ? -1 : group_run(c, mach)->machine_id;
	r->machine = c->cross || !group_run(c, mach) ? NULL : group_run(c, mach)->machine_name;
	r->metric = metric;
	r->higher_better = cmp_higher_better(c, metric);
	r->nb = nb;
	r->nc = nc;
	r->nullb = nullb;
	r->nullc = nullc;
	r->medb = stats_median(xb, nb);
	r->medc = stats_median(xc, nc);
	r->quant = cmp_quantile(c, metric);
	r->estb = stats_quantile(xb, nb, r->quant);
	r->estc = stats_quantile(xc, nc, r->quant);
	r->outb = nb ? stats_outliers(xb, nb, fl) : 0;
	r->outc = nc ? stats_outliers(xc, nc, fl) : 0;
	free(fl);
	if (r->outb || r->outc)
		cmp_note(c, "'%s' in cell '%s': %zu baseline and %zu candidate outliers flagged "
			 "(|x - median| > 14.826 MAD), kept", metric, cell, r->outb, r->outc);
	r->mwu.p = r->q = NAN;
	r->ci.ratio = r->ci.lo = r->ci.hi = r->ci.se_log = NAN;
	r->exact = nb && nc && cmp_row_exact(c, cell, mach, metric, xb, nb, xc, nc);
	if (nb && nc && !r->exact) {
		if (stats_mwu(xb, nb, xc, nc, &r->mwu) == -ENOMEM ||
		    stats_qratio_ci(xb, nb, xc, nc, r->quant, STATS_BOOT_RESAMPLES, STATS_BOOT_SEED,
				    STATS_BOOT_LEVEL, &r->ci) == -ENOMEM)
			return -ENOMEM;
		/* a one-sided row: the permutation test on its quantile replaces MWU's p (u stays for reference) */
		if (r->quant != 0.5) {
			if (stats_perm_quantile(xb, nb, xc, nc, r->quant, STATS_PERM_RESAMPLES,
						STATS_BOOT_SEED, &r->mwu.p) == -ENOMEM)
				return -ENOMEM;
			r->mwu.exact = 0;
		}
	}
	if (cmp_row_floor(c, r, mach))
		return -ENOMEM;
	r->cv = stats_robust_cv(xb, nb, xc, nc);
	r->mde = NAN;
	if (r->exact)
		cmp_exact_fill(r, r->medb, r->medc);
	ret = cmp_row_mux(c, r);
	return ret ? ret : cmp_row_costs(c, r);
}

/*
 * All rows of one group: the chosen metrics, or every metric its runs have
 * for which some way is better (metric_has_direction), but for a
 * deterministic backend's group, the metrics read from a clock (those time
 * the simulator, model-wall-s, not what it simulates) and those that
 * restate other counts (metric_restates: est-* and the levels'
 * own model-LEVEL-misses).
 */
static int group_rows(struct cmp *c, const char *cell, int64_t mach, double *xb, double *xc)
{
	const char **names = NULL;
	size_t n = 0;
	int ret = 0;
	int model = !c->nmetric && cmp_group_deterministic(c, cell, mach);
	int clocks = 0, restated = 0;

	for (size_t i = 0; i < c->nmetric && !ret; i++)
		ret = add_name(&names, &n, c->metric[i]);
	for (int side = 0; side < 2 && !c->nmetric && !ret; side++) {
		const struct runset *rs = side ? &c->cand : &c->base;
		const struct run_values *rv = side ? c->cv : c->bv;

		for (size_t i = 0; i < rs->n && !ret; i++)
			for (size_t k = 0; in_group(c, &rs->run[i], cell, mach) && k < rv[i].n && !ret; k++)
				if (model && cmp_clock_metric(rv[i].name[k]))
					clocks = 1;
				else if (model && metric_restates(rv[i].name[k]))
					restated = 1;
				else if (metric_has_direction(rv[i].name[k]))
					ret = add_name(&names, &n, rv[i].name[k]);
	}
	if (clocks)
		cmp_note(c, "cell '%s': a deterministic backend; its clocks (model-wall-s and the like) "
			 "time the simulator, not the simulated machine, and are not judged: "
			 "--metric NAME judges one", cell);
	if (restated)
		cmp_note(c, "cell '%s': a deterministic backend; est-* (counts priced at assumed costs) and "
			 "model-LEVEL-misses (the levels' breakdown of l1-dtlb-misses, l2-dtlb-misses and "
			 "dtlb-walks) restate other counts and are not judged: --metric NAME judges one", cell);
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
		if (in_group(c, &rs->run[i], r->cell, r->group))
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
	if (cmp_ignore_apply(c))
		goto out;
	assign_groups(c);
	xb = malloc((c->base.n + 1) * sizeof(*xb));
	xc = malloc((c->cand.n + 1) * sizeof(*xc));
	if (!xb || !xc)
		goto out;
	ret = cmp_mux_alloc(c);
	if (!ret)
		ret = cmp_cost_alloc(c);
	if (!ret)
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
		ret = group_rows(c, r->cell, r->group, xb, xc);
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
	return ret == -ENOMEM ? ret : ret ? -EIO : 0;
}

