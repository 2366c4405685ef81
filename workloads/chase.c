/*
 * chase.c - a dependent pointer chase: one random cycle through all pages
 * (Sattolo's algorithm), seeded by the run seed alone, so every task walks
 * the same chain stored once in the shared SGA. Each round walks the whole
 * cycle once, starting from page 0. Natively, each load's address comes from
 * the previous load, which defeats prefetch and overlapping misses.
 */
#include <errno.h>
#include <stdlib.h>
#include "workloads/workload.h"

struct chase {
	uint32_t *next;	/* next[p] = the page visited after p */
	uint32_t cur;
};

static int chase_open(struct wl_stream *s)
{
	uint64_t n = s->p.pages;
	struct chase *c = malloc(sizeof(*c));
	struct rng r;

	if (!c)
		return -ENOMEM;
	c->next = malloc(n * sizeof(*c->next));
	if (!c->next) {
		free(c);
		return -ENOMEM;
	}
	/* Sattolo: a uniformly random permutation with a single cycle. */
	for (uint64_t i = 0; i < n; i++)
		c->next[i] = (uint32_t)i;
	rng_seed(&r, s->p.seed, 0xc4a5e);
	for (uint64_t i = n - 1; i > 0; i--) {
		uint64_t j = rng_below(&r, i);
		uint32_t t = c->next[i];

		c->next[i] = c->next[j];
		c->next[j] = t;
	}
	c->cur = 0;
	s->priv = c;
	return 0;
}

static size_t chase_fill(struct wl_stream *s, uint32_t *out, size_t n)
{
	struct chase *c = s->priv;
	uint32_t cur = c->cur;

	for (size_t i = 0; i < n; i++) {
		out[i] = cur;
		cur = c->next[cur];
	}
	c->cur = cur;
	return n;
}

static void chase_close(struct wl_stream *s)
{
	struct chase *c = s->priv;

	if (c) {
		free(c->next);
		free(c);
	}
}

const struct workload_ops wl_chase = {
	.name = "chase",
	.help = "dependent pointer chase around one random cycle of all pages (defeats prefetch)",
	.flags = WL_PERIODIC | WL_DEPENDENT,
	.open = chase_open,
	.fill = chase_fill,
	.close = chase_close,
};
