/* decide.c - bootstrap CI of a ratio of medians (or other quantiles), BH q-values, the verdict rule. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "lib/rng.h"
#include "stats/stats.h"

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Put the k-th smallest of v[0..n-1] at v[k] (Hoare's selection), reordering v. */
static double select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		double pivot = v[lo + (hi - lo) / 2];
		size_t i = lo, j = hi;

		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				double t = v[i];

				v[i] = v[j];
				v[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return v[k];
}

/* Median of v[0..n-1] in linear time, reordering v (the bootstrap's hot path). */
static double median_inplace(double *v, size_t n)
{
	double hi = select_kth(v, n, n / 2), lo;

	if (n % 2)
		return hi;
	/* after selection, v[0..n/2) holds the lower half: its maximum is the other middle */
	lo = v[0];
	for (size_t i = 1; i < n / 2; i++)
		if (v[i] > lo)
			lo = v[i];
	return (lo + hi) / 2;
}

double stats_select_quantile(double *v, size_t n, double q)
{
	double h, lo, hi;
	size_t k;

	if (n == 0 || !(q >= 0 && q <= 1))
		return NAN;
	if (q == 0.5)
		return median_inplace(v, n);
	h = (double)(n - 1) * q;
	k = (size_t)floor(h);
	lo = select_kth(v, n, k);
	if (h == (double)k || k + 1 >= n)
		return lo;
	/* after selection, v(k..n) holds the values above the k-th: their minimum is the next */
	hi = v[k + 1];
	for (size_t i = k + 2; i < n; i++)
		if (v[i] < hi)
			hi = v[i];
	return lo + (h - (double)k) * (hi - lo);
}

/* c / b for medians, with 0/0 = 1 and c/0 = +-inf. */
static double ratio(double c, double b)
{
	if (b != 0)
		return c / b;
	return c == 0 ? 1 : copysign(INFINITY, c);
}

int stats_ratio_ci(const double *base, size_t nb, const double *cand, size_t nc,
		   unsigned resamples, uint64_t seed, double level, struct ratio_ci *out)
{
	return stats_qratio_ci(base, nb, cand, nc, 0.5, resamples, seed, level, out);
}

/* Half the 15.87-84.13 % range of log(r[0..n-1]) (r sorted); NAN when an end is not positive and finite. */
static double robust_sd_log(const double *r, size_t n)
{
	double lo = stats_quantile(r, n, 0.158655), hi = stats_quantile(r, n, 0.841345);

	if (!(lo > 0) || !(hi > 0) || isinf(lo) || isinf(hi))
		return NAN;
	return (log(hi) - log(lo)) / 2;
}

int stats_qratio_ci(const double *base, size_t nb, const double *cand, size_t nc, double q,
		    unsigned resamples, uint64_t seed, double level, struct ratio_ci *out)
{
	double *r, *bufb, *bufc;
	struct rng rng;

	out->ratio = out->lo = out->hi = out->se_log = NAN;
	if (nb == 0 || nc == 0 || resamples < 2 || !(level > 0 && level < 1) || !(q >= 0 && q <= 1))
		return -EINVAL;
	r = malloc((resamples + nb + nc) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	bufb = r + resamples;
	bufc = bufb + nb;
	for (size_t i = 0; i < nb; i++)
		bufb[i] = base[i];
	for (size_t i = 0; i < nc; i++)
		bufc[i] = cand[i];
	out->ratio = ratio(stats_select_quantile(bufc, nc, q), stats_select_quantile(bufb, nb, q));

	rng_seed(&rng, seed, 0);
	for (unsigned k = 0; k < resamples; k++) {
		for (size_t i = 0; i < nb; i++)
			bufb[i] = base[rng_below(&rng, nb)];
		for (size_t i = 0; i < nc; i++)
			bufc[i] = cand[rng_below(&rng, nc)];
		r[k] = ratio(stats_select_quantile(bufc, nc, q), stats_select_quantile(bufb, nb, q));
	}
	qsort(r, resamples, sizeof(*r), cmp_dbl);
	out->lo = stats_quantile(r, resamples, (1 - level) / 2);
	out->hi = stats_quantile(r, resamples, (1 + level) / 2);
	out->se_log = robust_sd_log(r, resamples);
	free(r);
	return 0;
}

int stats_bh(const double *p, size_t n, double *q)
{
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));
	size_t m = 0;
	double run = 1;

	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		q[i] = NAN;
		if (!isnan(p[i]))
			idx[m++] = i;
	}
	/* order the tested entries by p, ascending (insertion sort: m is small) */
	for (size_t i = 1; i < m; i++) {
		size_t t = idx[i], j = i;

		while (j > 0 && p[idx[j - 1]] > p[t]) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = t;
	}
	/* step up from the largest p, keeping the running minimum */
	for (size_t k = m; k > 0; k--) {
		double v = p[idx[k - 1]] * (double)m / (double)k;

		if (v < run)
			run = v;
		q[idx[k - 1]] = run;
	}
	free(idx);
	return 0;
}

const char *stats_verdict_name(enum verdict v)
{
	switch (v) {
	case V_REGRESSION:
		return "regression";
	case V_IMPROVEMENT:
		return "improvement";
	case V_INSUFFICIENT:
		return "insufficient";
	case V_NO_CHANGE:
		break;
	}
	return "no-change";
}

void stats_decide_defaults(struct decide_params *dp)
{
	dp->alpha = STATS_ALPHA;
	dp->fdr = STATS_FDR;
	dp->threshold = STATS_THRESHOLD;
	dp->min_runs = STATS_MIN_RUNS;
}

enum verdict stats_decide(const struct decide_params *dp, size_t n_base, size_t n_cand,
			  double p, double q, const struct ratio_ci *ci, double noise_floor,
			  int higher_better, char *why, size_t whylen)
{
	double bound = dp->threshold, minp;
	int worse, better;

	if (n_base < dp->min_runs || n_cand < dp->min_runs) {
		snprintf(why, whylen, "fewer than %u runs on a side", dp->min_runs);
		return V_INSUFFICIENT;
	}
	minp = stats_mwu_min_p(n_base, n_cand);
	if (minp > dp->alpha) {
		snprintf(why, whylen, "smallest possible p %.3g > alpha %g", minp, dp->alpha);
		return V_INSUFFICIENT;
	}
	if (!isnan(noise_floor) && noise_floor > bound)
		bound = noise_floor;
	if (isnan(p) || isnan(q) || p > dp->alpha || q > dp->fdr) {
		snprintf(why, whylen, "not significant");
		return V_NO_CHANGE;
	}
	/* ratio > 1 means the candidate's value is larger */
	worse = higher_better ? ci->ratio < 1 - bound : ci->ratio > 1 + bound;
	better = higher_better ? ci->ratio > 1 + bound : ci->ratio < 1 - bound;
	if (worse || better) {
		snprintf(why, whylen, "significant, ratio beyond %.3g%%", bound * 100);
		return worse ? V_REGRESSION : V_IMPROVEMENT;
	}
	snprintf(why, whylen, "significant, but ratio within %.3g%%", bound * 100);
	return V_NO_CHANGE;
}
