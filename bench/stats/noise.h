/* noise.h - the A/A noise floor of one cell's samples. */
#ifndef SGA_STATS_NOISE_H
#define SGA_STATS_NOISE_H

#include <stddef.h>
#include <stdint.h>

/* Fewest samples a noise floor is computed from (two halves of two). */
#define STATS_NOISE_MIN_SAMPLES	4

/*
 * The MINSTD stream the sweep has always used (x = x * 48271 mod 2^31-1),
 * seeded as seed mod (2^31-1) + 1. One stream serves every cell in turn,
 * so the floors depend only on the seed and the order of the cells.
 */
struct noise_rng {
	uint64_t x;
};
void noise_rng_seed(struct noise_rng *r, uint64_t seed);

/*
 * A/A noise floor of x[0..n-1]: over `resamples` random splits of the
 * samples into two halves (Fisher-Yates on the indices, from r), the 95th
 * percentile (nearest rank) of |median(half 1) / median(half 2) - 1|; a
 * split whose second median is 0 counts 0 when the first is 0 too, else 1.
 * Returns 0 and sets *floor, -EINVAL when n < STATS_NOISE_MIN_SAMPLES or
 * resamples is 0, -ENOMEM.
 */
int stats_noise_floor(const double *x, size_t n, unsigned resamples,
		      struct noise_rng *r, double *floor);

#endif
