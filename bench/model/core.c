/* core.c - set-up and clean-up of one core of the fast simulator (sim_int.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/sim_int.h"

/*
 * Give every key core c's tasks can make a dense id: the distinct tags of
 * the core (in order of first use) times span pages, the area's pages
 * first, then the start-up pages, then extra pages (the heaps of a run
 * with a heap: multi.c). Sets each task's id bases and the core's tags
 * (c->tags[n] the tag of ids n * span and up); returns the number of ids,
 * or UINT64_MAX when out of memory.
 */
uint64_t core_number_ids(struct fcore *c, uint64_t extra)
{
	uint64_t area = c->r->pages << model_words_shift(c->m, c->r), ntags = 0;
	uint64_t span = area + c->r->startup + extra;
	uint64_t *tags = malloc(2 * (c->ntasks + 1) * sizeof(*tags));

	if (!tags)
		return UINT64_MAX;	/* too many for loc: the levels use the hash index */
	c->tags = tags;
	c->span = span;
	for (unsigned j = 0; j < c->ntasks; j++) {
		struct ftask *t = &c->t[c->tasks[j]];
		uint64_t want[2] = { t->ikey >> 32, t->pkey >> 32 }, slot[2];

		for (unsigned h = 0; h < 2; h++) {
			for (slot[h] = 0; slot[h] < ntags && tags[slot[h]] != want[h]; slot[h]++)
				;
			if (slot[h] == ntags)
				tags[ntags++] = want[h];
		}
		t->idbase = (uint32_t)(slot[0] * span);
		t->pidbase = (uint32_t)(slot[1] * span + area);
	}
	return ntags * span;
}

int core_init(struct fcore *c, unsigned cn, const unsigned *core, const unsigned *strand)
{
	const struct model_machine *m = c->m;
	const struct model_run *r = c->r;
	uint64_t nids;
	unsigned nlv = 0;

	c->tasks = malloc(r->ntasks * sizeof(*c->tasks));
	c->sd = calloc(m->strands, sizeof(*c->sd));
	if (!c->tasks || !c->sd)
		return -ENOMEM;
	for (unsigned i = 0; i < r->ntasks; i++)
		if (core[i] == cn)
			c->tasks[c->ntasks++] = i;
	for (unsigned s = 0; s < m->strands; s++) {
		struct fstrand *d = &c->sd[c->nsd];

		d->q = malloc(c->ntasks * sizeof(*d->q) + 1);
		if (!d->q)
			return -ENOMEM;
		d->s = s;
		for (unsigned j = 0; j < c->ntasks; j++)
			if (strand[c->tasks[j]] == s)
				d->q[d->n++] = c->tasks[j];
		d->qleft = r->quantum;
		if (d->n)
			c->nsd++;
		else
			free(d->q);
	}
	if (r->heap_pages)
		return core_init_multi(c, cn);
	for (unsigned k = 0; k < m->nlevels; k++)
		if (m->level[k].psz_mask & (1u << r->psz))
			nlv++;
	nids = core_number_ids(c, 0);
	if (nids <= model_loc_limit / nlv) {
		c->loc = calloc((nids + 1) * nlv, sizeof(*c->loc));	/* row nids: empty slots' */
		if (!c->loc)
			return -ENOMEM;
	}
	for (unsigned k = 0; k < m->nlevels; k++) {
		if (!(m->level[k].psz_mask & (1u << r->psz)))
			continue;
		if (level_init(&c->lv[c->nlv], m, k, r->psz, r->words, cn, r->seed,
			       c->loc ? c->loc + c->nlv : NULL, nlv, (uint32_t)nids))
			return -ENOMEM;
		c->lv[c->nlv].tags = c->tags;
		c->lv[c->nlv].span = c->span;
		c->nlv++;
	}
	return 0;
}

/* Free what core_init() allocated. */
void core_free(struct fcore *c)
{
	for (unsigned u = 0; u < c->nlv; u++)
		level_free(&c->lv[u]);
	free(c->loc);
	free(c->mu.loc);
	free(c->tags);
	for (unsigned s = 0; s < c->nsd; s++)
		free(c->sd[s].q);
	free(c->sd);
	free(c->tasks);
}

