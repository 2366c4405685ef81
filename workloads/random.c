/*
 * random.c - uniform random pages, seeded per task: rng_below(pages) per
 * access, with the generator's state in locals (rng_step) for the whole
 * request, so the stream and the state after each fill are those of one
 * rng_below() call per access.
 */
#include "workloads/workload.h"

static size_t random_fill(struct wl_stream *s, uint32_t *out, size_t n)
{
	uint64_t pages = s->p.pages, thresh = -pages % pages, st[4];

	for (unsigned k = 0; k < 4; k++)
		st[k] = s->rng.s[k];
	for (size_t i = 0; i < n; i++) {
		/* rng_below: Lemire's multiply, rejecting the few biased low parts */
		__uint128_t m = (__uint128_t)rng_step(st) * pages;

		while ((uint64_t)m < thresh)
			m = (__uint128_t)rng_step(st) * pages;
		out[i] = (uint32_t)(m >> 64);
	}
	for (unsigned k = 0; k < 4; k++)
		s->rng.s[k] = st[k];
	return n;
}

const struct workload_ops wl_random = {
	.name = "random",
	.help = "uniform random pages, seeded per task",
	.fill = random_fill,
};
