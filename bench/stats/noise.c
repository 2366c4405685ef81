/* noise.c - the A/A noise floor of a cell (what scripts/sweep stores). */
#include <errno.h>
#include <stdlib.h>
#include "stats/noise.h"
#include "stats/stats.h"

#define MINSTD_M	2147483647u
#define MINSTD_A	48271u

void noise_rng_seed(struct noise_rng *r, uint64_t seed)
{
	r->x = seed % MINSTD_M + 1;
}

/* The next value of the stream, in 1..2^31-2. */
static uint64_t noise_next(struct noise_rng *r)
{
	r->x = r->x * MINSTD_A % MINSTD_M;
	return r->x;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int stats_noise_floor(const double *x, size_t n, unsigned resamples,
		      struct noise_rng *r, double *floor)
{
	return stats_noise_floor_q(x, n, 0.5, resamples, r, floor);
}

int stats_noise_floor_q(const double *x, size_t n, double q, unsigned resamples,
			struct noise_rng *r, double *floor)
{
	size_t *idx = NULL, h = n / 2;
	double *half = NULL, *d = NULL;
	int ret = -ENOMEM;

	if (n < STATS_NOISE_MIN_SAMPLES || !resamples || !(q >= 0 && q <= 1))
		return -EINVAL;
	idx = malloc(n * sizeof(*idx));
	half = malloc(n * sizeof(*half));
	d = malloc(resamples * sizeof(*d));
	if (!idx || !half || !d)
		goto out;
	for (unsigned b = 0; b < resamples; b++) {
		double m1, m2;

		for (size_t i = 0; i < n; i++)
			idx[i] = i;
		for (size_t i = n - 1; i > 0; i--) {
			size_t j = noise_next(r) % (i + 1), t = idx[i];

			idx[i] = idx[j];
			idx[j] = t;
		}
		for (size_t i = 0; i < n; i++)
			half[i] = x[idx[i]];
		m1 = stats_quantile(half, h, q);
		m2 = stats_quantile(half + h, n - h, q);
		if (m2 == 0)
			d[b] = m1 == 0 ? 0 : 1;
		else
			d[b] = m1 / m2 - 1;
		if (d[b] < 0)
			d[b] = -d[b];
	}
	qsort(d, resamples, sizeof(*d), cmp_dbl);
	*floor = d[(size_t)(0.95 * (resamples - 1) + 0.5)];
	ret = 0;
out:
	free(idx);
	free(half);
	free(d);
	return ret;
}

/* |a / b - 1|, where b = 0 counts 0 when a = 0 too, else 1. */
static double rel_gap(double a, double b)
{
	double r = b == 0 ? (a == 0 ? 0 : 1) : a / b - 1;

	return r < 0 ? -r : r;
}

int stats_noise_drift(const double *x, const unsigned *grp, size_t n, double *drift)
{
	return stats_noise_drift_q(x, grp, n, 0.5, drift);
}

int stats_noise_drift_q(const double *x, const unsigned *grp, size_t n, double q, double *drift)
{
	double *in = malloc((n ? n : 1) * sizeof(*in)), *out = malloc((n ? n : 1) * sizeof(*out));
	double worst = 0;

	if (!in || !out) {
		free(in);
		free(out);
		return -ENOMEM;
	}
	for (size_t s = 0; s < n; s++) {
		size_t n1 = 0, n2 = 0, first = 1;

		/* each group once: at the first sample that names it */
		for (size_t i = 0; i < s && first; i++)
			first = grp[i] != grp[s];
		if (!first)
			continue;
		for (size_t i = 0; i < n; i++) {
			if (grp[i] == grp[s])
				in[n1++] = x[i];
			else
				out[n2++] = x[i];
		}
		if (n1 < STATS_NOISE_DRIFT_MIN || n2 < STATS_NOISE_DRIFT_MIN)
			continue;
		{
			double g = rel_gap(stats_quantile(in, n1, q), stats_quantile(out, n2, q));

			worst = g > worst ? g : worst;
		}
	}
	free(in);
	free(out);
	*drift = worst;
	return 0;
}
