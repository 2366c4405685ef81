/* random.c - uniform random pages, seeded per task. */
#include "workloads/workload.h"

static size_t random_fill(struct wl_stream *s, uint32_t *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = (uint32_t)rng_below(&s->rng, s->p.pages);
	return n;
}

const struct workload_ops wl_random = {
	.name = "random",
	.help = "uniform random pages, seeded per task",
	.fill = random_fill,
};
