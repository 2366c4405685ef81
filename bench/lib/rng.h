/* rng.h - the one seeded random stream used everywhere (xoshiro256**, splitmix64 seeding). */
#ifndef SGA_RNG_H
#define SGA_RNG_H

#include <stddef.h>
#include <stdint.h>

struct rng {
	uint64_t s[4];
};

/* Seed the generator from a 64-bit seed and a stream number (e.g. the task index). */
void rng_seed(struct rng *r, uint64_t seed, uint64_t stream);
/* Next 64 random bits. */
uint64_t rng_next(struct rng *r);
/*
 * One step of the generator on a copy of its state, st (for a loop that
 * keeps the state in registers and stores it back after): the value
 * rng_next() would return.
 */
static inline uint64_t rng_step(uint64_t st[4])
{
	uint64_t x = st[1] * 5, result = ((x << 7) | (x >> 57)) * 9, t = st[1] << 17;

	st[2] ^= st[0];
	st[3] ^= st[1];
	st[1] ^= st[2];
	st[0] ^= st[3];
	st[2] ^= t;
	st[3] = (st[3] << 45) | (st[3] >> 19);
	return result;
}

/* Uniform integer in [0, n), unbiased (Lemire's method); n > 0. */
uint64_t rng_below(struct rng *r, uint64_t n);
/* Uniform double in [0, 1). */
double rng_double(struct rng *r);
/* A standard normal deviate N(0, 1) (Box-Muller, two uniforms per call). */
double rng_normal(struct rng *r);

/* Fill x[0..n-1] with mean * (1 + cv * N(0, 1)): a noisy measurement. */
void rng_noisy(struct rng *r, double *x, size_t n, double mean, double cv);

#endif
