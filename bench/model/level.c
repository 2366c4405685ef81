/* level.c - set-up, fills, flushes and the canonical order of a fast TLB level (level.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/level.h"

/* Nibble p of order set to way w. */
static uint64_t with_nibble(uint64_t order, unsigned p, unsigned w)
{
	return (order & ~(0xfull << (4 * p))) | ((uint64_t)w << (4 * p));
}

int level_init(struct flevel *l, const struct model_machine *m, unsigned k, unsigned psz,
	       unsigned words, unsigned cn, uint64_t seed, uint32_t *loc, unsigned stride, uint32_t noid)
{
	const struct model_level *ml = &m->level[k];
	size_t e;

	memset(l, 0, sizeof(*l));
	l->k = k;
	l->repl = (unsigned)ml->repl;
	/* a partitioned level: the ways of psz's partition (model_level_ways()) */
	l->ways = model_level_ways(ml, psz);
	l->sets = model_level_sets(ml);
	l->wide = l->ways > LEVEL_NARROW;
	l->kind = l->repl == REPL_NRU ? LK_NRU : l->repl == REPL_RANDOM ? LK_RANDOM :
		  l->wide ? LK_WIDE_LRU : LK_NARROW_LRU;
	/* one set: no index; several words: the keys are the entries' own */
	l->ishift = l->sets > 1 && words <= 1 ? model_held_shift(ml, psz) : 0;
	l->hashed = l->sets > 1 && ml->hashed;
	l->pow2 = !(l->sets & (l->sets - 1)) && !l->ishift && !l->hashed;
	l->set_mask = l->sets - 1;
	l->top = l->wide ? 0 : 4 * (l->ways - 1);
	l->set_mul = UINT64_MAX / l->sets + 1;
	e = (size_t)l->sets * l->ways;
	l->key = loc ? NULL : malloc(e * sizeof(*l->key));
	l->id = malloc(e * sizeof(*l->id));
	l->uwords = (l->ways + 63) / 64;
	l->ulast = l->ways % 64 ? (1ull << (l->ways % 64)) - 1 : ~0ull;
	l->used = calloc((size_t)l->sets * l->uwords, sizeof(*l->used));
	if ((!loc && !l->key) || !l->id || !l->used)
		return -ENOMEM;
	l->loc = loc;
	l->stride = stride;
	l->noid = loc ? noid : 0;
	if (!loc && index_init(&l->ix, e))
		return -ENOMEM;
	for (size_t j = 0; j < e; j++) {
		if (l->key)
			l->key[j] = INVALID;
		l->id[j] = l->noid;
	}
	rng_seed(&l->rng, seed, 0x7100 + (uint64_t)cn * MODEL_LEVELS + k);
	if (!l->wide) {
		/* nibble p holds way ways - 1 - p (all empty: way 0 least recent);
		   nibbles beyond the ways hold 0xf, never a way */
		uint64_t init = ~0ull;

		for (unsigned p = 0; p < l->ways; p++)
			init = with_nibble(init, p, l->ways - 1 - p);
		l->full = (uint32_t)((1ull << l->ways) - 1);
		l->nibbles = l->ways < 16 ? (1ull << (4 * l->ways)) - 1 : ~0ull;
		l->order = malloc(l->sets * sizeof(*l->order));
		l->vmask = calloc(l->sets, sizeof(*l->vmask));
		if (!l->order || !l->vmask)
			return -ENOMEM;
		for (unsigned s = 0; s < l->sets; s++)
			l->order[s] = init;
		return 0;
	}
	l->prev = malloc((e + l->sets) * sizeof(*l->prev));
	l->next = malloc((e + l->sets) * sizeof(*l->next));
	l->nvalid = calloc(l->sets, sizeof(*l->nvalid));
	l->lowinv = calloc(l->sets, sizeof(*l->lowinv));
	if (!l->prev || !l->next || !l->nvalid || !l->lowinv)
		return -ENOMEM;
	/* each set's list: the head node, then ways ways - 1, ..., 1, 0 (all
	   empty: way 0 least recent) */
	for (size_t set = 0; set < l->sets; set++) {
		uint16_t *pv = l->prev + set * (l->ways + 1), *nx = l->next + set * (l->ways + 1);

		for (unsigned w = 0; w <= l->ways; w++) {
			nx[w] = (uint16_t)(w == l->ways ? w - 1 : w ? w - 1 : l->ways);
			pv[w] = (uint16_t)(w == l->ways ? 0 : w + 1);
		}
	}
	return 0;
}

void level_free(struct flevel *l)
{
	free(l->key);
	free(l->id);
	free(l->used);
	free(l->order);
	free(l->vmask);
	free(l->prev);
	free(l->next);
	free(l->nvalid);
	free(l->lowinv);
	index_free(&l->ix);
	memset(l, 0, sizeof(*l));
}

unsigned level_first_invalid(struct flevel *l, size_t set)
{
	size_t base = set * l->ways;
	unsigned w = l->lowinv[set];

	while (level_valid(l, base + w))
		w++;
	l->lowinv[set] = w + 1;
	l->nvalid[set]++;
	return w;
}

/* Forget where slot j's key is; the slot itself is left to the caller. */
static void unlocate(struct flevel *l, size_t j)
{
	if (l->loc)
		l->loc[(size_t)l->id[j] * l->stride] = 0;
	else
		index_del(&l->ix, l->key[j]);
}

void level_fill_hashed(struct flevel *l, size_t j, uint64_t key)
{
	if (l->key[j] != INVALID)
		index_del(&l->ix, l->key[j]);
	index_add(&l->ix, key, j);
}

/* A narrow LRU set's order with its empty ways moved behind the valid
 * ones, the lowest-numbered last; the valid ways keep their order. */
static uint64_t empty_last(const struct flevel *l, size_t set)
{
	const size_t base = set * l->ways;
	uint64_t order = l->order[set], out = order;
	unsigned p = 0;

	for (unsigned q = 0; q < l->ways; q++) {
		unsigned w = (unsigned)(order >> (4 * q)) & 0xf;

		if (level_valid(l, base + w))
			out = with_nibble(out, p++, w);
	}
	for (unsigned w = l->ways; w-- > 0;)
		if (!level_valid(l, base + w))
			out = with_nibble(out, p++, w);
	return out;
}

/* A wide LRU set's list relinked with its empty ways behind the valid
 * ones, the lowest-numbered last; the valid ways keep their order. */
static void list_empty_last(struct flevel *l, size_t set)
{
	const unsigned hd = l->ways;
	const size_t base = set * l->ways;
	uint16_t *pv = l->prev + set * (hd + 1), *nx = l->next + set * (hd + 1);

	for (unsigned w = nx[hd], n; w != hd; w = n) {
		n = nx[w];
		if (!level_valid(l, base + w)) {	/* unlink it */
			nx[pv[w]] = (uint16_t)n;
			pv[n] = pv[w];
		}
	}
	for (unsigned w = hd; w-- > 0;) {
		if (!level_valid(l, base + w)) {	/* append it at the tail */
			unsigned t = pv[hd];

			nx[t] = (uint16_t)w;
			pv[w] = (uint16_t)t;
			nx[w] = (uint16_t)hd;
			pv[hd] = (uint16_t)w;
		}
	}
}

void level_flush_tag(struct flevel *l, uint64_t tag)
{
	size_t n = (size_t)l->sets * l->ways;

	for (size_t j = 0; j < n; j++) {
		size_t set = j / l->ways;
		unsigned w = (unsigned)(j % l->ways);

		if (!level_valid(l, j) || level_tag(l, j) != tag)
			continue;
		unlocate(l, j);
		if (!l->wide) {
			l->vmask[set] &= ~(1u << w);
		} else if (l->kind != LK_WIDE_LRU) {
			l->nvalid[set]--;
			if (w < l->lowinv[set])
				l->lowinv[set] = w;
		}
		if (l->key)
			l->key[j] = INVALID;
		l->id[j] = l->noid;
		l->used[set * l->uwords + w / 64] &= ~(1ull << (w % 64));
	}
	if (l->kind == LK_NARROW_LRU)
		for (size_t set = 0; set < l->sets; set++)
			l->order[set] = empty_last(l, set);
	if (l->kind == LK_WIDE_LRU)
		for (size_t set = 0; set < l->sets; set++)
			list_empty_last(l, set);
}

void level_order(const struct flevel *l, size_t set, uint16_t *out)
{
	if (l->repl != REPL_LRU) {
		for (unsigned w = 0; w < l->ways; w++)
			out[w] = (uint16_t)w;
		return;
	}
	if (l->wide) {
		const uint16_t *nx = l->next + set * (l->ways + 1);
		unsigned n = 0;

		for (unsigned w = nx[l->ways]; w != l->ways; w = nx[w])
			out[n++] = (uint16_t)w;
		return;
	}
	for (unsigned p = 0; p < l->ways; p++)
		out[p] = (uint16_t)((l->order[set] >> (4 * p)) & 0xf);
}
