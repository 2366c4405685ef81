/*
 * zipf.c - OLTP-like skew: page ranks drawn from a Zipf distribution
 * (Gray et al., "Quickly generating billion-record synthetic databases",
 * as used by YCSB), then spread over the SGA by a seeded bijection so the
 * hot pages are not all adjacent.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "workloads/workload.h"

struct zipf {
	double theta, alpha, zetan, eta, half_pow;
	uint64_t mul, add;	/* page = (rank * mul + add) mod pages, gcd(mul, pages) = 1 */
};

/* Exact sum of i^-theta for i in 1..n up to 2^20 terms, then Euler-Maclaurin. */
static double zeta(uint64_t n, double theta)
{
	uint64_t m = n < (1u << 20) ? n : (1u << 20);
	double sum = 0, a, b;

	for (uint64_t i = 1; i <= m; i++)
		sum += pow((double)i, -theta);
	if (n == m)
		return sum;
	a = (double)m;
	b = (double)n;
	sum += (pow(b, 1 - theta) - pow(a, 1 - theta)) / (1 - theta);
	sum += (pow(b, -theta) - pow(a, -theta)) / 2;
	sum += (-theta * pow(b, -theta - 1) + theta * pow(a, -theta - 1)) / 12;
	return sum;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static int zipf_open(struct wl_stream *s)
{
	struct zipf *z;
	double n = (double)s->p.pages, theta = s->p.zipf_theta;
	struct rng r;

	if (theta < WL_ZIPF_THETA_MIN || theta == 1.0 || theta > WL_ZIPF_THETA_MAX)
		return -EINVAL;
	z = malloc(sizeof(*z));
	if (!z)
		return -ENOMEM;
	z->theta = theta;
	z->alpha = 1.0 / (1.0 - theta);
	z->zetan = zeta(s->p.pages, theta);
	z->eta = (1 - pow(2.0 / n, 1 - theta)) / (1 - zeta(2, theta) / z->zetan);
	z->half_pow = 1 + pow(0.5, theta);
	/* The layout of hot pages depends on the run seed only, not the task. */
	rng_seed(&r, s->p.seed, 0x21bf);
	z->mul = (rng_next(&r) | 1) % s->p.pages;
	if (s->p.pages == 1)
		z->mul = 1;	/* everything maps to page 0 */
	while (z->mul == 0 || gcd(z->mul, s->p.pages) != 1)
		z->mul = (z->mul + 1) % s->p.pages;
	z->add = rng_below(&r, s->p.pages);
	s->priv = z;
	return 0;
}

static size_t zipf_fill(struct wl_stream *s, uint32_t *out, size_t n)
{
	struct zipf *z = s->priv;
	uint64_t pages = s->p.pages;

	for (size_t i = 0; i < n; i++) {
		double u = rng_double(&s->rng), uz = u * z->zetan;
		uint64_t rank;

		if (pages == 1 || uz < 1.0)
			rank = 0;
		else if (uz < z->half_pow)
			rank = 1;
		else
			rank = (uint64_t)((double)pages * pow(z->eta * u - z->eta + 1, z->alpha));
		if (rank >= pages)
			rank = pages - 1;
		out[i] = (uint32_t)(((__uint128_t)rank * z->mul + z->add) % pages);
	}
	return n;
}

static void zipf_close(struct wl_stream *s)
{
	free(s->priv);
}

const struct workload_ops wl_zipf = {
	.name = "zipf",
	.help = "Zipf-skewed pages (OLTP-like; --zipf-theta, default 0.99), seeded",
	.open = zipf_open,
	.fill = zipf_fill,
	.close = zipf_close,
};
