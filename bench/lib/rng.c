/* rng.c - xoshiro256** (Blackman and Vigna), seeded through splitmix64. */
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

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

void rng_fill(struct rng *r, uint64_t *out, size_t n)
{
	uint64_t s0 = r->s[0], s1 = r->s[1], s2 = r->s[2], s3 = r->s[3];

	for (size_t i = 0; i < n; i++) {
		uint64_t t = s1 << 17;

		out[i] = rotl(s1 * 5, 7) * 9;
		s2 ^= s0;
		s3 ^= s1;
		s1 ^= s2;
		s0 ^= s3;
		s2 ^= t;
		s3 = rotl(s3, 45);
	}
	r->s[0] = s0;
	r->s[1] = s1;
	r->s[2] = s2;
	r->s[3] = s3;
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
