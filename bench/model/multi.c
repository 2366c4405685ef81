/*
 * multi.c - runs with a private heap per task beside the shared area
 * (model_run.heap_pages): two page sizes in one run, for the fast
 * simulator. Such a core keeps one fast level (level.h) for each machine
 * level and each partition of its ways (model_level_ways()) that an area
 * takes, finds keys through the levels' hash indexes (no loc table: a key
 * probes only the levels that hold its size), and never skips periods.
 * The single-size path (access.h, step.c) is not involved: it reaches
 * access_multi() only where it already takes the hash-index path.
 * Semantics as ref.c's: after the area's access j come
 * model_heap_after(r, j) heap accesses; a heap page h has the key of page
 * MODEL_HEAP_PAGE0 + h in the task's own context, and the set of page h.
 */
#include <errno.h>
#include <stdlib.h>
#include "model/access.h"

int core_init_multi(struct fcore *c, unsigned cn)
{
	const struct model_machine *m = c->m;
	const struct model_run *r = c->r;

	c->multi = 1;
	for (unsigned k = 0; k < m->nlevels; k++) {
		const struct model_level *ml = &m->level[k];
		int first = (int)c->nlv;

		for (unsigned a = 0; a < MODEL_AREAS; a++) {
			unsigned psz = model_area_psz(r, a), u;

			if (!(ml->psz_mask & (1u << psz)))
				continue;
			/* the other area's level, when it is the same partition */
			for (u = (unsigned)first; u < c->nlv; u++)
				if (!model_level_parted(ml) ||
				    model_entry_psz(ml, model_area_psz(r, 1 - a)) == model_entry_psz(ml, psz))
					break;
			if (u == c->nlv) {
				if (c->nlv == MODEL_LEVELS)
					return -EINVAL;	/* model_check() refuses this */
				if (level_init(&c->lv[c->nlv], m, k, psz, 1, cn, r->seed, NULL, 0, 0))
					return -ENOMEM;
				c->nlv++;
			}
			c->mu.u[a][c->mu.n[a]] = u;
			c->mu.shift[a][c->mu.n[a]++] = !a && r->words > 1 ? 0 : model_held_shift(ml, psz);
		}
	}
	return 0;
}

/* The next heap page of t: its number within the heap. */
static uint32_t next_heap_page(struct ftask *t)
{
	struct fheap *h = t->heap;

	if (h->bpos == h->blen) {
		h->blen = (unsigned)wl_fill(&h->s, h->buf, CHUNK);
		h->bpos = 0;
	}
	return h->buf[h->bpos++];
}

void access_multi(struct fcore *c, struct ftask *t)
{
	struct fheap *h = t->heap;
	const struct fmulti *mu = &c->mu;
	size_t set[MODEL_LEVELS];
	uint32_t page, setpage;
	uint64_t key;
	unsigned a = 0, hit, i;

	if (h->owed) {
		a = 1;
		h->owed--;
		setpage = next_heap_page(t);
		key = t->pkey | (MODEL_HEAP_PAGE0 + setpage);
	} else {
		page = next_page(t, c->r->startup);
		if (page < MODEL_STARTUP_PAGE0)
			h->owed = model_heap_after(c->r, ++h->area_done);
		key = (page < MODEL_STARTUP_PAGE0 ? t->ikey : t->pkey) | page;
		setpage = page;
	}
	h->acc[a]++;
	hit = mu->n[a];
	for (i = 0; i < mu->n[a]; i++) {
		struct flevel *l = &c->lv[mu->u[a][i]];
		long slot;

		set[i] = model_set_of((uint64_t)setpage << mu->shift[a][i], l->sets, l->hashed);
		slot = level_find(l, key);
		if (slot >= 0) {
			level_use(l, set[i], (unsigned)((size_t)slot - set[i] * l->ways));
			hit = i;
			break;
		}
	}
	h->hit[a][hit]++;
	for (i = 0; i < hit; i++)
		level_fill(&c->lv[mu->u[a][i]], set[i], key, 0);
}

int heap_init(struct ftask *t, const struct model_run *r, unsigned i)
{
	struct wl_params p = model_heap_params(r, i);

	t->heap = calloc(1, sizeof(*t->heap));
	if (!t->heap || !(t->heap->buf = malloc(CHUNK * sizeof(uint32_t))))
		return -ENOMEM;
	return wl_open(&t->heap->s, r->ops, &p);
}

void heap_free(struct ftask *t)
{
	if (!t->heap)
		return;
	wl_close(&t->heap->s);
	free(t->heap->buf);
	free(t->heap);
	t->heap = NULL;
}

void heap_counts(const struct model_machine *m, const struct model_run *r, const struct ftask *t,
		 struct model_task *mt)
{
	const struct fheap *h = t->heap;

	mt->accesses = 0;
	for (unsigned a = 0; a < MODEL_AREAS; a++) {
		unsigned psz = model_area_psz(r, a), u = 0;
		uint64_t reach = h->acc[a];

		mt->accesses += reach;
		mt->area_accesses[a] = reach;
		for (unsigned k = 0; k < m->nlevels; k++) {
			if (!(m->level[k].psz_mask & (1u << psz)))
				continue;
			mt->probes[k] += reach;
			reach -= h->hit[a][u++];
			mt->misses[k] += reach;
			mt->area_misses[a][k] = reach;
		}
		mt->walks += reach;
		mt->area_walks[a] = reach;
	}
}
