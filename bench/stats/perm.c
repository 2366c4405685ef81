/* perm.c - a permutation test on a difference of quantiles (compare's one-sided metrics). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lib/rng.h"
#include "stats/stats.h"

/* |Q_q(v[n1..n)) - Q_q(v[0..n1))| over a copy of v (buf holds n values). */
static double statistic(const double *v, size_t n1, size_t n, double q, double *buf)
{
	memcpy(buf, v, n * sizeof(*buf));
	return fabs(stats_select_quantile(buf + n1, n - n1, q) - stats_select_quantile(buf, n1, q));
}

int stats_perm_quantile(const double *a, size_t n1, const double *b, size_t n2, double q,
			unsigned resamples, uint64_t seed, double *p)
{
	size_t n = n1 + n2;
	double *v, *buf, obs, tol;
	unsigned reach = 0;
	struct rng rng;

	*p = NAN;
	if (!n1 || !n2 || !resamples || !(q >= 0 && q <= 1))
		return -EINVAL;
	v = malloc(2 * n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	buf = v + n;
	memcpy(v, a, n1 * sizeof(*v));
	memcpy(v + n1, b, n2 * sizeof(*v));
	obs = statistic(v, n1, n, q, buf);
	/* a relabelling as far apart as the observed one may differ from it by rounding alone */
	tol = 0;
	for (size_t i = 0; i < n; i++)
		tol = fabs(v[i]) > tol ? fabs(v[i]) : tol;
	tol *= 1e-12;
	rng_seed(&rng, seed, 0);
	for (unsigned k = 0; k < resamples; k++) {
		/* the first n1 of a partial Fisher-Yates shuffle go to side a */
		for (size_t i = 0; i < n1; i++) {
			size_t j = i + (size_t)rng_below(&rng, n - i);
			double t = v[i];

			v[i] = v[j];
			v[j] = t;
		}
		reach += statistic(v, n1, n, q, buf) >= obs - tol;
	}
	free(v);
	*p = (1.0 + reach) / (1.0 + resamples);
	return 0;
}
