/*
 * compare/exact.c - rows of a deterministic backend: the TLB model gives
 * the same count every time for a cell and seed, so one run a side is the
 * answer and its verdict is the exact ratio, with no test and no noise.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "compare/compare.h"
#include "lib/json.h"
#include "lib/metrics.h"

/* Whether cell is of a deterministic backend: its backend token is model:*. */
static int deterministic(const char *cell)
{
	for (const char *p = cell; *p;) {
		size_t l = strcspn(p, " ");

		if (strncmp(p, "backend=", 8) == 0)
			return l > 14 && strncmp(p + 8, "model:", 6) == 0;
		p += l;
		while (*p == ' ')
			p++;
	}
	return 0;
}

/*
 * Whether metric is read from a clock (a time, a rate over one, or their
 * spread): it moves from run to run even on a deterministic backend (the
 * model's own model-wall-s). The metric registry says so (kind time or
 * rate, or derived with one-way noise: the spreads); est-* are estimates
 * from counts. Of the event totals, which the registry leaves to perf,
 * task-clock and cpu-clock are.
 */
int cmp_clock_metric(const char *metric)
{
	int id = metric_find(metric);
	size_t l = strlen(metric);

	if (id >= 0)
		return metric_defs[id].kind == KIND_TIME || metric_defs[id].kind == KIND_RATE ||
		       (metric_defs[id].kind == KIND_DERIVED && metric_defs[id].noise == NOISE_ONE_WAY);
	/* an event total: task-clock and cpu-clock are the clocks among them */
	return l > 6 && strcmp(metric + l - 6, "-clock") == 0;
}

/* Whether x[0..n-1] are all equal. */
static int all_equal(const double *x, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (x[i] != x[0])
			return 0;
	return 1;
}

/*
 * Whether side has runs of the group cell/mach (mach: the machine group,
 * run_ref.group) and every one is of a deterministic backend.
 */
static int side_deterministic(const struct cmp *c, int side, const char *cell, int64_t mach)
{
	const struct runset *rs = side ? &c->cand : &c->base;
	size_t seen = 0;

	for (size_t i = 0; i < rs->n; i++) {
		if (strcmp(rs->run[i].cell, cell) != 0 || (!c->cross && rs->run[i].group != mach))
			continue;
		if (!deterministic(cmp_full_cell(c, side, i)))
			return 0;
		seen++;
	}
	return seen > 0;
}

int cmp_group_deterministic(const struct cmp *c, const char *cell, int64_t mach)
{
	return side_deterministic(c, 0, cell, mach) && side_deterministic(c, 1, cell, mach);
}

int cmp_row_exact(struct cmp *c, const char *cell, int64_t mach, const char *metric,
		  const double *xb, size_t nb, const double *xc, size_t nc)
{
	if (!nb || !nc || cmp_clock_metric(metric) || !side_deterministic(c, 0, cell, mach) ||
	    !side_deterministic(c, 1, cell, mach))
		return 0;
	if (all_equal(xb, nb) && all_equal(xc, nc))
		return 1;
	cmp_note(c, "'%s' in cell '%s': a deterministic backend, but a side's runs differ (pooled across "
		 "an ignored axis, another seed or version?): judged by the tests, not exactly", metric, cell);
	return 0;
}

void cmp_exact_fill(struct cmp_row *r, double b, double cv)
{
	double ratio = b != 0 ? cv / b : cv == 0 ? 1 : copysign(INFINITY, cv);

	r->ci.ratio = r->ci.lo = r->ci.hi = ratio;
	r->ci.se_log = 0;
	r->mwu.u = r->mwu.z = r->mwu.p = NAN;
	r->mwu.exact = 0;
	r->q = NAN;
	r->floor = 0;
	r->floor_within = r->floor_between = NAN;
	r->cv = 0;
	r->exact = 1;
}

void cmp_decide_exact(struct cmp_row *r)
{
	double t = r->threshold, x = r->ci.ratio;
	int worse = r->higher_better ? x < 1 - t : x > 1 + t;
	int better = r->higher_better ? x > 1 + t : x < 1 - t;

	r->mde = t;
	if (worse || better) {
		snprintf(r->why, sizeof(r->why), "exact: ratio beyond %.3g%%", t * 100);
		r->v = worse ? V_REGRESSION : V_IMPROVEMENT;
	} else {
		snprintf(r->why, sizeof(r->why), x == 1 ? "exact: identical" : "exact: ratio within %.3g%%",
			 t * 100);
		r->v = V_NO_CHANGE;
	}
}

/* How many rows are exact. */
static size_t exact_rows(const struct cmp *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nrows; i++)
		n += c->rows[i].exact;
	return n;
}

void cmp_exact_method(const struct cmp *c, const struct cmp_row *r, struct json *j)
{
	const char *rule = "exact: a deterministic backend (backend model:*), a metric not read from a"
			   " clock, and every run of a side equal: the ratio candidate/baseline is the"
			   " answer, from one run a side; no test, no bootstrap (the CI is the ratio),"
			   " noise floor 0; regression or improvement when the ratio lies beyond the"
			   " threshold";

	if (!r) {
		if (exact_rows(c)) {
			json_str(j, "exact", rule);
			json_u64(j, "exact_rows", exact_rows(c));
		}
		return;
	}
	json_str(j, "test", "exact");
	json_str(j, "rule", rule);
	json_str(j, "effect", "ratio of the values candidate/baseline");
	json_dbl(j, "threshold", r->threshold);
	json_bool(j, "higher_better", r->higher_better);
	json_u64(j, "n_base", r->nb);
	json_u64(j, "n_cand", r->nc);
	json_bool(j, "cross_machine", c->cross);
}

void cmp_print_exact(const struct cmp *c, FILE *f)
{
	size_t n = exact_rows(c);

	if (n)
		fprintf(f, "exact: %zu row%s of a deterministic backend (the model): the ratio is the "
			"answer, from one run a side; no test (p 'exact'), no noise floor; a change when "
			"the ratio lies beyond the threshold\n", n, n == 1 ? "" : "s");
}
