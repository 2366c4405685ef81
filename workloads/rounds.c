/*
 * rounds.c - the cover-letter pattern: each round, the task touches one
 * word in every page of its working set, in ascending page order.
 */
#include "workloads/workload.h"

/* Produce pages pos % pages, (pos+1) % pages, ... */
static size_t rounds_fill(struct wl_stream *s, uint32_t *out, size_t n)
{
	uint64_t page = s->pos % s->p.pages;

	for (size_t i = 0; i < n; i++) {
		out[i] = (uint32_t)page;
		if (++page == s->p.pages)
			page = 0;
	}
	return n;
}

const struct workload_ops wl_rounds = {
	.name = "rounds",
	.help = "each round touches one word in every page, in order (the 2016 cover letter)",
	.flags = WL_PERIODIC,
	.fill = rounds_fill,
};
