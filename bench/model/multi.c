/*
 * multi.c - runs with a private heap per task beside the shared area
 * (model_run.heap_pages): two page sizes in one run, for the fast
 * simulator. Such a core keeps one fast level (level.h) for each machine
 * level and each partition of its ways (model_level_ways()) that an area
 * takes, finds keys through its own loc table (one row per dense id, of
 * which an access reads the columns of its area's levels: a key probes
 * only the levels that hold its size) or, beyond model_loc_limit, the
 * levels' hash indexes, and never skips periods.
 * The single-size path (access.h, step.c) is not involved: it reaches
 * access_multi() only where it already takes the hash-index path.
 * Semantics as ref.c's: after the area's access j come
 * model_heap_after(r, j) heap accesses (kept here by a remainder); heap
 * page h of task i has the key of page MODEL_HEAP_PAGE0 + b + h in the
 * task's own context and the set of page b + h, b = model_heap_base().
 */
#include <errno.h>
#include <stdlib.h>
#include "model/access.h"

/*
 * Dense ids for core c's keys, as core.c numbers them, with the heap's:
 * for each distinct tag (in order of first use) span ids, the area's key
 * pages first, then the start-up pages, then the heap's. Sets the tasks'
 * id bases and c->tags and c->span; returns the number of ids, or
 * UINT64_MAX when out of memory (the hash indexes are used then).
 */
static uint64_t number_ids_multi(struct fcore *c)
{
	/* the threads' heaps are one after another in one address space */
	uint64_t heaps = c->r->threads ? model_heap_base(c->r, c->r->ntasks) : c->r->heap_pages;
	uint64_t nids = core_number_ids(c, heaps);

	if (nids == UINT64_MAX)
		return nids;
	for (unsigned j = 0; j < c->ntasks; j++) {
		struct ftask *t = &c->t[c->tasks[j]];

		t->heap->hidbase = t->pidbase + (uint32_t)c->r->startup + (uint32_t)t->heap->base;
	}
	return nids;
}

int core_init_multi(struct fcore *c, unsigned cn)
{
	const struct model_machine *m = c->m;
	const struct model_run *r = c->r;
	struct fmulti *mu = &c->mu;
	uint64_t nids;

	c->multi = 1;
	/* the levels: one per machine level and partition an area takes */
	for (unsigned k = 0; k < m->nlevels; k++) {
		const struct model_level *ml = &m->level[k];
		unsigned first = c->nlv;

		for (unsigned a = 0; a < MODEL_AREAS; a++) {
			unsigned psz = model_area_psz(r, a), u;

			if (!(ml->psz_mask & (1u << psz)))
				continue;
			/* the other area's level, when it is the same partition */
			for (u = first; u < c->nlv; u++)
				if (!model_level_parted(ml) ||
				    model_entry_psz(ml, model_area_psz(r, 1 - a)) == model_entry_psz(ml, psz))
					break;
			if (u == c->nlv) {
				if (c->nlv == MODEL_LEVELS)
					return -EINVAL;	/* model_check() refuses this */
				mu->k[c->nlv] = k;
				mu->psz[c->nlv++] = psz;
			}
			mu->u[a][mu->n[a]] = u;
			mu->shift[a][mu->n[a]++] = !a && r->words > 1 ? 0 : model_held_shift(ml, psz);
		}
	}
	nids = number_ids_multi(c);
	if (nids <= model_loc_limit / c->nlv) {
		mu->loc = calloc((nids + 1) * c->nlv, sizeof(*mu->loc));	/* row nids: empty slots' */
		if (!mu->loc)
			return -ENOMEM;
	}
	for (unsigned u = 0; u < c->nlv; u++) {
		if (level_init(&c->lv[u], m, mu->k[u], mu->psz[u], 1, cn, r->seed, mu->loc ? mu->loc + u : NULL,
			       c->nlv, (uint32_t)nids))
			return -ENOMEM;
		c->lv[u].tags = c->tags;
		c->lv[u].span = c->span;
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

/* The set of page (its number in its area) in level l, shifted by shift. */
static inline size_t multi_set(const struct flevel *l, uint32_t page, unsigned shift)
{
	uint64_t key = (uint64_t)page << shift;

	if (l->sets == 1)
		return 0;
	if (l->hashed)	/* model_set_of(): the hash is below 2^32 */
		key = (key * 0x9e3779b97f4a7c15ull) >> 32;
	else if (!(l->sets & (l->sets - 1)))
		return (size_t)(key & (l->sets - 1));
	if (key >> 32)
		return (size_t)(key % l->sets);
	/* key % sets for a key below 2^32, without a division (level_set()) */
	return (size_t)(((__uint128_t)(l->set_mul * key) * l->sets) >> 64);
}

void access_multi(struct fcore *c, struct ftask *t)
{
	struct fheap *h = t->heap;
	const struct fmulti *mu = &c->mu;
	const unsigned *lvs;
	size_t set[MODEL_LEVELS];
	uint32_t page, setpage, id;
	uint64_t key;
	unsigned a = 0, hit, i, n;

	if (h->owed) {
		a = 1;
		h->owed--;
		setpage = next_heap_page(t);
		id = h->hidbase + setpage;
		setpage += h->base;
		key = t->pkey | (MODEL_HEAP_PAGE0 + setpage);
	} else {
		page = next_page(t, c->r->startup);
		if (page < MODEL_STARTUP_PAGE0) {
			/* model_heap_after() of the area's access j, from floor(j
			   s / d) - floor((j - 1) s / d) = ((j - 1) s mod d + s) / d */
			h->rem += c->r->heap_share;
			h->owed = h->rem / (100 - c->r->heap_share);
			h->rem %= 100 - c->r->heap_share;
		}
		key = page_key(t, page, &id);
		setpage = page;
	}
	h->acc[a]++;
	lvs = mu->u[a];
	n = mu->n[a];
	hit = n;
	if (mu->loc) {
		/* the key's row says at once which levels hold it */
		const uint32_t *row = mu->loc + (size_t)id * c->nlv;

		for (i = 0; i < n; i++)
			if (row[lvs[i]]) {
				hit = i;
				break;
			}
		for (i = 0; i <= hit && i < n; i++)
			set[i] = multi_set(&c->lv[lvs[i]], setpage, mu->shift[a][i]);
		if (hit < n)
			level_use(&c->lv[lvs[hit]], set[hit], row[lvs[hit]] - 1);
	} else {
		for (i = 0; i < n; i++) {
			struct flevel *l = &c->lv[lvs[i]];
			long slot;

			set[i] = multi_set(l, setpage, mu->shift[a][i]);
			slot = level_find(l, key);
			if (slot >= 0) {
				level_use(l, set[i], (unsigned)((size_t)slot - set[i] * l->ways));
				hit = i;
				break;
			}
		}
	}
	h->hit[a][hit]++;
	for (i = 0; i < hit; i++)
		level_fill(&c->lv[lvs[i]], set[i], key, id);
}

int heap_init(struct ftask *t, const struct model_run *r, unsigned i)
{
	struct wl_params p = model_heap_params(r, i);

	t->heap = calloc(1, sizeof(*t->heap));
	if (!t->heap || !(t->heap->buf = malloc(CHUNK * sizeof(uint32_t))))
		return -ENOMEM;
	t->heap->base = (uint32_t)model_heap_base(r, i);
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
