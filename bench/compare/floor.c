/*
 * compare/floor.c - each row's noise floor, measured from the baseline's
 * runs alone: the candidate's runs never widen the bound they are judged
 * against, so a regression tonight cannot hide itself.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare/compare.h"
#include "stats/noise.h"
#include "stats/stats.h"

/* Whether run r belongs to the group of cell/machine (as pair.c's in_group). */
static int in_cell(const struct cmp *c, const struct run_ref *r, const char *cell, int64_t mach)
{
	return strcmp(r->cell, cell) == 0 && (c->cross || r->group == mach);
}

/*
 * The earliest and latest start of rs's runs in the cell that ran in boot
 * (ISO UTC strings sort as times).
 */
static void span(const struct cmp *c, const struct runset *rs, const char *cell, int64_t mach,
		 const char *boot, const char **first, const char **last)
{
	*first = *last = NULL;
	for (size_t i = 0; i < rs->n; i++) {
		const char *t = rs->run[i].started_at;

		if (!in_cell(c, &rs->run[i], cell, mach) || !t || strcmp(rs->run[i].boot_id, boot))
			continue;
		if (!*first || strcmp(t, *first) < 0)
			*first = t;
		if (!*last || strcmp(t, *last) > 0)
			*last = t;
	}
}

int cmp_interleaved(const struct cmp *c, const char *cell, int64_t mach)
{
	const struct runset *b = &c->base;

	for (size_t i = 0; i < b->n; i++) {
		const char *boot = b->run[i].boot_id, *b0, *b1, *c0, *c1;
		size_t k = 0;

		if (!in_cell(c, &b->run[i], cell, mach))
			continue;
		/* each boot once: at its first run in the cell */
		while (k < i && !(in_cell(c, &b->run[k], cell, mach) && strcmp(b->run[k].boot_id, boot) == 0))
			k++;
		if (k < i)
			continue;
		span(c, b, cell, mach, boot, &b0, &b1);
		span(c, &c->cand, cell, mach, boot, &c0, &c1);
		if (b0 && c0 && strcmp(b0, c1) <= 0 && strcmp(c0, b1) <= 0)
			return 1;
	}
	return 0;
}

/* Session number (by label, NULL its own) of baseline run i among the labels seen so far. */
static unsigned session_of(const struct runset *rs, const size_t *idx, size_t k, unsigned *grp)
{
	const char *l = rs->run[idx[k]].label;
	unsigned next = 0;

	for (size_t j = 0; j < k; j++) {
		const char *m = rs->run[idx[j]].label;

		if ((!l && !m) || (l && m && strcmp(l, m) == 0))
			return grp[j];
		if (grp[j] + 1 > next)
			next = grp[j] + 1;
	}
	return next;
}

/*
 * The range of the sessions' q-quantiles (medians at q = 0.5) over that of
 * all: (max - min) of Q_q(session) / Q_q(x[0..n-1]), over the sessions of at least
 * CMP_SESSION_MIN_RUNS samples (0 when fewer than two such), and in
 * *used_out how many sessions that is. Returns 0 or -ENOMEM.
 */
static int session_range(const double *x, const unsigned *grp, size_t n, unsigned nsess, double q,
			 double *out, unsigned *used_out)
{
	double *v = malloc((n ? n : 1) * sizeof(*v)), *all = malloc((n ? n : 1) * sizeof(*all));
	double lo = INFINITY, hi = -INFINITY, m;
	unsigned used = 0;

	*out = 0;
	if (!v || !all) {
		free(v);
		free(all);
		return -ENOMEM;
	}
	for (unsigned g = 0; g < nsess; g++) {
		size_t k = 0;

		for (size_t i = 0; i < n; i++)
			if (grp[i] == g)
				v[k++] = x[i];
		if (k < CMP_SESSION_MIN_RUNS)
			continue;
		m = stats_quantile(v, k, q);
		lo = m < lo ? m : lo;
		hi = m > hi ? m : hi;
		used++;
	}
	for (size_t i = 0; i < n; i++)
		all[i] = x[i];
	m = n ? stats_quantile(all, n, q) : 0;
	if (used >= 2 && m != 0)
		*out = (hi - lo) / fabs(m);
	*used_out = used;
	free(v);
	free(all);
	return 0;
}

int cmp_row_floor(const struct cmp *c, struct cmp_row *r, int64_t mach)
{
	size_t n = 0, *idx = malloc((c->base.n + 1) * sizeof(*idx));
	double *x = malloc((c->base.n + 1) * sizeof(*x));
	unsigned *grp = malloc((c->base.n + 1) * sizeof(*grp));
	struct noise_rng rng;
	const char *why;
	int ret = 0;

	r->floor = r->floor_within = r->floor_between = NAN;
	r->sessions = 0;
	r->interleaved = cmp_interleaved(c, r->cell, mach);
	if (!idx || !x || !grp) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < c->base.n; i++)
		if (in_cell(c, &c->base.run[i], r->cell, mach) &&
		    run_values_get(&c->bv[i], r->metric, &x[n], &why) == 1)
			idx[n++] = i;
	for (size_t k = 0; k < n; k++) {
		grp[k] = session_of(&c->base, idx, k, grp);
		if (grp[k] + 1 > r->sessions)
			r->sessions = grp[k] + 1;
	}
	noise_rng_seed(&rng, CMP_FLOOR_SEED);
	if (n >= STATS_NOISE_MIN_SAMPLES && r->nc) {
		double h1 = (double)(n / 2), h2 = (double)(n - n / 2), f;

		if (stats_noise_floor_q(x, n, r->quant, CMP_FLOOR_RESAMPLES, &rng, &f) == -ENOMEM) {
			ret = -ENOMEM;
			goto out;
		}
		/* from halves of n/2 to this comparison's n_base and n_cand */
		r->floor_within = f * sqrt((1 / (double)n + 1 / (double)r->nc) / (1 / h1 + 1 / h2));
	}
	if (!r->interleaved) {
		double d;
		unsigned labels = r->sessions;

		if (session_range(x, grp, n, labels, r->quant, &d, &r->sessions)) {
			ret = -ENOMEM;
			goto out;
		}
		if (r->sessions >= 2)
			r->floor_between = d;
	}
	r->floor = r->floor_within;
	if (!isnan(r->floor_between) && (isnan(r->floor) || r->floor_between > r->floor))
		r->floor = r->floor_between;
out:
	free(idx);
	free(x);
	free(grp);
	return ret;
}
