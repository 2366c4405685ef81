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

/* The same with the q-quantile of each half in place of its median (q in [0, 1]). */
int stats_noise_floor_q(const double *x, size_t n, double q, unsigned resamples,
			struct noise_rng *r, double *floor);

/* Fewest samples a group (and the rest) needs for stats_noise_drift. */
#define STATS_NOISE_DRIFT_MIN	3

/*
 * The drift between the groups of x[0..n-1] (grp[i] names sample i's group,
 * e.g. the sweep it came from): over every group with at least
 * STATS_NOISE_DRIFT_MIN samples whose complement has as many, the largest
 * |median(group) / median(the rest) - 1|; 0 when there is no such group.
 * Random splits that mix the groups hide this drift between nights, so a
 * floor pooled over several sweeps is at least it. Returns 0 or -ENOMEM.
 */
int stats_noise_drift(const double *x, const unsigned *grp, size_t n, double *drift);

/* The same with q-quantiles in place of medians (q in [0, 1]). */
int stats_noise_drift_q(const double *x, const unsigned *grp, size_t n, double q, double *drift);

#endif
