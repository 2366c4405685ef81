/*
 * random.c - uniform random pages, seeded per task: rng_below(pages) per
 * access. The raw 64-bit values are made in blocks (rng_fill), never more
 * than the rest of the request is sure to use, so the stream and the
 * generator's state after each fill are those of one rng_below() call per
 * access.
 */
#include "workloads/workload.h"

#define RAW 256

struct raw {
	uint64_t v[RAW];
	size_t pos, len;
};

/* The next raw value; when the block is used up, make min(RAW, need) more
 * (need: values the rest of the request uses at least). */
static uint64_t next_raw(struct rng *r, struct raw *b, size_t need)
{
	if (b->pos == b->len) {
		b->len = need < RAW ? need : RAW;
		b->pos = 0;
		rng_fill(r, b->v, b->len);
	}
	return b->v[b->pos++];
}

static size_t random_fill(struct wl_stream *s, uint32_t *out, size_t n)
{
	uint64_t pages = s->p.pages, thresh = -pages % pages;
	struct raw b = { .pos = 0, .len = 0 };

	for (size_t i = 0; i < n; i++) {
		/* rng_below: Lemire's multiply, rejecting the few biased low parts */
		__uint128_t m = (__uint128_t)next_raw(&s->rng, &b, n - i) * pages;

		while ((uint64_t)m < thresh)
			m = (__uint128_t)next_raw(&s->rng, &b, n - i) * pages;
		out[i] = (uint32_t)(m >> 64);
	}
	return n;
}

const struct workload_ops wl_random = {
	.name = "random",
	.help = "uniform random pages, seeded per task",
	.fill = random_fill,
};
