/* rng.c - xoshiro256** (Blackman and Vigna), seeded through splitmix64. */
#include <math.h>
#include "lib/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1342543de82ef95ULL);

	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

uint64_t rng_next(struct rng *r)
{
	return rng_step(r->s);
}

uint64_t rng_below(struct rng *r, uint64_t n)
{
	__uint128_t m = (__uint128_t)rng_next(r) * n;
	uint64_t lo = (uint64_t)m;

	if (lo < n) {
		uint64_t thresh = -n % n;

		while (lo < thresh) {
			m = (__uint128_t)rng_next(r) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

double rng_double(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

double rng_normal(struct rng *r)
{
	double u1 = rng_double(r), u2 = rng_double(r);

	if (u1 < 1e-300)
		u1 = 1e-300;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

void rng_noisy(struct rng *r, double *x, size_t n, double mean, double cv)
{
	for (size_t i = 0; i < n; i++)
		x[i] = mean * (1 + cv * rng_normal(r));
}
