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
/* The next n values of rng_next(), into out. */
void rng_fill(struct rng *r, uint64_t *out, size_t n);
/* Uniform integer in [0, n), unbiased (Lemire's method); n > 0. */
uint64_t rng_below(struct rng *r, uint64_t n);
/* Uniform double in [0, 1). */
double rng_double(struct rng *r);

#endif
