/*
 * stats_cp.c - change points in a series of nightly results.
 *
 * Why E-divisive means with a t-test (Hunter/Otava, arXiv 2301.03034):
 * the energy divergence finds the most likely split without assuming a
 * distribution, and replacing E-divisive's permutation test with a Welch
 * t-test makes the result deterministic (no random permutations, the same
 * history always gives the same answer) and cheap. The divergence and the
 * test only look at `window` points around a candidate (Otava: 50), so a
 * long history with several steps is split locally and old nights do not
 * dilute a recent change. p = 0.001 (Otava's default) keeps the false
 * alarm rate of a whole history low even though the split point is the
 * maximum over all candidates (a selection effect the t-test ignores); the
 * tests in t_stats.c measure that rate on pure noise: about 6 % of 60-night
 * series of 1 % noise get a spurious point from the test alone. So, like
 * compare, a step must also be large enough to matter (Otava's
 * min_magnitude; history uses compare's 2 % threshold), which removes
 * those. The lookback z-score
 * is a second, independent alarm that reacts to one wild night at once.
 *
 * Binary segmentation cannot see a pulse, one group of runs (a kernel
 * variant) that differs from the groups on both sides: every single split
 * leaves the pulse's runs beside the unchanged runs of its other side,
 * which dilutes both the divergence and the t-test. stats_pulses tests
 * each group against each neighbour instead, using the group's own runs
 * for its variance; requiring both differences (intersection-union)
 * keeps a step from reading as a pulse, and Holm's adjustment over the
 * groups tested bounds the chance of any false pulse in a series by the
 * same p threshold, under any dependence between neighbouring tests.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "stats/stats.h"

/* The bounds of the windowed sides of a split at t within [a, b). */
static void sides(size_t a, size_t b, size_t t, size_t half, size_t *l0, size_t *r1)
{
	*l0 = t - a > half ? t - half : a;
	*r1 = b - t > half ? t + half : b;
}

/*
 * E-divisive (alpha = 1) divergence of x[l0..t) against x[t..r1):
 * Q = m n / (m + n) * (2/(mn) sum|x-y| - 1/C(m,2) sum|x-x'| - 1/C(n,2) sum|y-y'|).
 */
static double qhat(const double *x, size_t l0, size_t t, size_t r1)
{
	double m = (double)(t - l0), n = (double)(r1 - t), between = 0, wl = 0, wr = 0;

	for (size_t i = l0; i < t; i++)
		for (size_t j = t; j < r1; j++)
			between += fabs(x[i] - x[j]);
	for (size_t i = l0; i < t; i++)
		for (size_t j = i + 1; j < t; j++)
			wl += fabs(x[i] - x[j]);
	for (size_t i = t; i < r1; i++)
		for (size_t j = i + 1; j < r1; j++)
			wr += fabs(x[i] - x[j]);
	return m * n / (m + n) *
	       (2 * between / (m * n) - wl / (m * (m - 1) / 2) - wr / (n * (n - 1) / 2));
}

/* Welch p between the windowed sides of t in [a, b); fills the means. */
static double split_p(const double *x, size_t a, size_t b, size_t t, size_t half,
		      double *before, double *after)
{
	size_t l0, r1;

	sides(a, b, t, half, &l0, &r1);
	*before = stats_mean(x + l0, t - l0);
	*after = stats_mean(x + t, r1 - t);
	return stats_welch_p(x + l0, t - l0, x + t, r1 - t);
}

struct cp_state {
	const double *x;
	size_t half;
	double pmax;
	double min_rel;
	unsigned char *mark;	/* mark[i]: a change point starts at i */
};

/* Whether a split with these statistics passes both the test and the magnitude. */
static int accepted(const struct cp_state *s, double p, double before, double after)
{
	return p < s->pmax && fabs(after - before) >= s->min_rel * fabs(before);
}

/* Binary segmentation of [a, b): split at the maximum divergence while significant. */
static void segment(struct cp_state *s, size_t a, size_t b)
{
	size_t best = 0, l0, r1;
	double bq = -INFINITY, mb, ma, p;

	if (b - a < 2 * STATS_CP_MIN_SEG)
		return;
	for (size_t t = a + STATS_CP_MIN_SEG; t + STATS_CP_MIN_SEG <= b; t++) {
		double q;

		sides(a, b, t, s->half, &l0, &r1);
		q = qhat(s->x, l0, t, r1);
		if (q > bq) {
			bq = q;
			best = t;
		}
	}
	if (!best)
		return;
	p = split_p(s->x, a, b, best, s->half, &mb, &ma);
	if (!accepted(s, p, mb, ma))
		return;
	s->mark[best] = 1;
	segment(s, a, best);
	segment(s, best, b);
}

int stats_change_points(const double *x, size_t n, size_t window, double pmax, double min_rel,
			struct change_point *cp, size_t max)
{
	struct cp_state s = { x, window / 2 > STATS_CP_MIN_SEG ? window / 2 : STATS_CP_MIN_SEG,
			      pmax, min_rel, NULL };
	size_t *pts, k = 0, out = 0;

	if (n < 2 * STATS_CP_MIN_SEG)
		return 0;
	s.mark = calloc(n, 1);
	pts = malloc((n + 2) * sizeof(*pts));
	if (!s.mark || !pts) {
		free(s.mark);
		free(pts);
		return -ENOMEM;
	}
	segment(&s, 0, n);
	pts[k++] = 0;
	for (size_t i = 1; i < n; i++)
		if (s.mark[i])
			pts[k++] = i;
	pts[k++] = n;

	/*
	 * Re-test each point against its neighbouring segments; drop the
	 * weakest until all pass. A point that fails the magnitude is the
	 * weakest of all (its p counts as 2).
	 */
	for (;;) {
		size_t worst = 0;
		double wp = -1, mb, ma;

		for (size_t i = 1; i + 1 < k; i++) {
			double p = split_p(x, pts[i - 1], pts[i + 1], pts[i], s.half, &mb, &ma);

			if (isnan(p))
				p = 1;
			if (!accepted(&s, p, mb, ma))
				p += 1;
			if (p > wp) {
				wp = p;
				worst = i;
			}
		}
		if (!worst || wp < pmax)
			break;
		for (size_t i = worst; i + 1 < k; i++)
			pts[i] = pts[i + 1];
		k--;
	}
	for (size_t i = 1; i + 1 < k && out < max; i++, out++) {
		cp[out].index = pts[i];
		cp[out].p = split_p(x, pts[i - 1], pts[i + 1], pts[i], s.half,
				    &cp[out].mean_before, &cp[out].mean_after);
	}
	free(s.mark);
	free(pts);
	return (int)out;
}

int stats_zscores(const double *x, size_t n, size_t lookback, size_t min_prior, double *z)
{
	if (lookback == 0 || min_prior < 2)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		size_t from = i > lookback ? i - lookback : 0, m = i - from;
		double mean, sd;

		z[i] = NAN;
		if (m < min_prior)
			continue;
		mean = stats_mean(x + from, m);
		sd = sqrt(stats_var(x + from, m));
		if (sd > 0)
			z[i] = (x[i] - mean) / sd;
		else
			z[i] = x[i] == mean ? 0 : copysign(INFINITY, x[i] - mean);
	}
	return 0;
}

/* A run of equal g: the runs of one group. */
struct span {
	size_t g, from, n;
};

/* Holm's step-down adjustment of p[0..m) in place (NAN entries untouched). */
static int holm(double *p, size_t m)
{
	size_t *ix = malloc((m + 1) * sizeof(*ix)), k = 0;
	double run = 0;

	if (!ix)
		return -ENOMEM;
	for (size_t i = 0; i < m; i++)
		if (!isnan(p[i]))
			ix[k++] = i;
	for (size_t i = 1; i < k; i++)	/* insertion sort by p, then index: a total order */
		for (size_t j = i; j > 0 && p[ix[j - 1]] > p[ix[j]]; j--) {
			size_t t = ix[j];

			ix[j] = ix[j - 1];
			ix[j - 1] = t;
		}
	for (size_t j = 0; j < k; j++) {
		double a = fmin(1, (double)(k - j) * p[ix[j]]);

		run = fmax(run, a);
		p[ix[j]] = run;
	}
	free(ix);
	return (int)k;
}

/* The relative difference of a from b: a / b - 1 (sign-safe). */
static double rel(double a, double b)
{
	return (a - b) / fabs(b);
}

int stats_pulses(const double *x, const size_t *g, size_t n, double pmax, double min_rel,
		 size_t min_runs, struct pulse *out, size_t max)
{
	struct span *sp = malloc((n + 1) * sizeof(*sp));
	double *p = malloc((n + 1) * sizeof(*p));
	size_t ns = 0, k = 0;
	int m;

	if (!sp || !p) {
		free(sp);
		free(p);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		if (!ns || sp[ns - 1].g != g[i])
			sp[ns++] = (struct span){ g[i], i, 0 };
		sp[ns - 1].n++;
	}
	for (size_t s = 0; s < ns; s++) {
		p[s] = NAN;
		if (s == 0 || s + 1 == ns || sp[s].n < min_runs || sp[s - 1].n < min_runs ||
		    sp[s + 1].n < min_runs)
			continue;
		p[s] = fmax(stats_welch_p(x + sp[s].from, sp[s].n, x + sp[s - 1].from, sp[s - 1].n),
			    stats_welch_p(x + sp[s].from, sp[s].n, x + sp[s + 1].from, sp[s + 1].n));
	}
	m = holm(p, ns);
	if (m < 0) {
		free(sp);
		free(p);
		return m;
	}
	for (size_t s = 1; s + 1 < ns && k < max; s++) {
		const struct span *a = &sp[s - 1], *v = &sp[s], *b = &sp[s + 1];
		struct pulse q = { v->g, a->g, b->g, v->n, a->n, b->n,
				   stats_mean(x + v->from, v->n), stats_mean(x + a->from, a->n),
				   stats_mean(x + b->from, b->n), NAN, NAN, (size_t)m, 0 };
		double up = rel(q.mean, q.mean_prev), down = rel(q.mean, q.mean_next);

		/* the same direction against both, and large enough against both */
		if (!(up * down > 0 && fabs(up) >= min_rel && fabs(down) >= min_rel))
			continue;
		if (isnan(p[s])) {
			q.insufficient = 1;
		} else {
			q.p_holm = p[s];
			q.p = fmax(stats_welch_p(x + v->from, v->n, x + a->from, a->n),
				   stats_welch_p(x + v->from, v->n, x + b->from, b->n));
			if (!(q.p_holm < pmax))
				continue;
		}
		out[k++] = q;
	}
	free(sp);
	free(p);
	return (int)k;
}
