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
