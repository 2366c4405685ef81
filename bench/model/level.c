/* level.c - set-up, fills, flushes and the canonical order of a fast TLB level (level.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/level.h"

int level_init(struct flevel *l, const struct model_machine *m, unsigned k, unsigned cn,
	       uint64_t seed, uint32_t *loc, unsigned stride)
{
	const struct model_level *ml = &m->level[k];
	size_t e;

	memset(l, 0, sizeof(*l));
	l->k = k;
	l->repl = (unsigned)ml->repl;
	l->ways = ml->ways ? ml->ways : ml->entries;
	l->sets = ml->entries / l->ways;
	l->wide = l->ways > LEVEL_NARROW;
	l->set_mul = UINT64_MAX / l->sets + 1;
	e = (size_t)l->sets * l->ways;
	l->key = malloc(e * sizeof(*l->key));
	l->id = calloc(e, sizeof(*l->id));
	l->used = calloc(e, 1);
	if (!l->key || !l->id || !l->used)
		return -ENOMEM;
	l->loc = loc;
	l->stride = stride;
	if (!loc && index_init(&l->ix, e))
		return -ENOMEM;
	for (size_t j = 0; j < e; j++)
		l->key[j] = INVALID;
	rng_seed(&l->rng, seed, 0x7100 + (uint64_t)cn * MODEL_LEVELS + k);
	if (!l->wide) {
		/* nibble p holds way p; nibbles beyond the ways hold 0xf, never a way */
		uint64_t init = ~0ull;

		for (unsigned w = 0; w < l->ways; w++)
			init = (init & ~(0xfull << (4 * w))) | ((uint64_t)w << (4 * w));
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
	l->prev = malloc(e * sizeof(*l->prev));
	l->next = malloc(e * sizeof(*l->next));
	l->head = calloc(l->sets, sizeof(*l->head));
	l->tail = malloc(l->sets * sizeof(*l->tail));
	l->nvalid = calloc(l->sets, sizeof(*l->nvalid));
	l->lowinv = calloc(l->sets, sizeof(*l->lowinv));
	if (!l->prev || !l->next || !l->head || !l->tail || !l->nvalid || !l->lowinv)
		return -ENOMEM;
	for (size_t j = 0; j < e; j++) {
		unsigned w = (unsigned)(j % l->ways);

		l->prev[j] = w ? (uint16_t)(w - 1) : LEVEL_NONE;
		l->next[j] = w + 1 < l->ways ? (uint16_t)(w + 1) : LEVEL_NONE;
	}
	for (unsigned s = 0; s < l->sets; s++)
		l->tail[s] = (uint16_t)(l->ways - 1);
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
	free(l->head);
	free(l->tail);
	free(l->nvalid);
	free(l->lowinv);
	index_free(&l->ix);
	memset(l, 0, sizeof(*l));
}

unsigned level_victim_narrow(struct flevel *l, size_t set)
{
	size_t base = set * l->ways;

	if (l->repl == REPL_RANDOM)
		return (unsigned)rng_below(&l->rng, l->ways);
	for (unsigned w = 0; w < l->ways; w++)
		if (!l->used[base + w])
			return w;
	memset(l->used + base, 0, l->ways);
	return 0;
}

unsigned level_victim_wide(struct flevel *l, size_t set)
{
	size_t base = set * l->ways;
	const uint8_t *u;

	if (l->nvalid[set] < l->ways) {
		unsigned w = l->lowinv[set];

		while (l->key[base + w] != INVALID)
			w++;
		l->lowinv[set] = w + 1;
		l->nvalid[set]++;
		return w;
	}
	if (l->repl == REPL_LRU)
		return l->tail[set];
	if (l->repl == REPL_RANDOM)
		return (unsigned)rng_below(&l->rng, l->ways);
	u = memchr(l->used + base, 0, l->ways);
	if (u)
		return (unsigned)(u - (l->used + base));
	memset(l->used + base, 0, l->ways);
	return 0;
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

void level_flush_tag(struct flevel *l, uint64_t tag)
{
	size_t n = (size_t)l->sets * l->ways;

	for (size_t j = 0; j < n; j++) {
		size_t set = j / l->ways;
		unsigned w = (unsigned)(j % l->ways);

		if (l->key[j] == INVALID || (l->key[j] >> 32) != tag)
			continue;
		unlocate(l, j);
		if (!l->wide) {
			l->vmask[set] &= ~(1u << w);
		} else {
			l->nvalid[set]--;
			if (w < l->lowinv[set])
				l->lowinv[set] = w;
		}
		l->key[j] = INVALID;
		l->used[j] = 0;
	}
}

void level_order(const struct flevel *l, size_t set, uint16_t *out)
{
	size_t base = set * l->ways;


	if (l->repl != REPL_LRU) {
		for (unsigned w = 0; w < l->ways; w++)
			out[w] = (uint16_t)w;
		return;
	}
	if (l->wide) {
		unsigned n = 0;

		for (unsigned w = l->head[set]; w != LEVEL_NONE; w = l->next[base + w])
			out[n++] = (uint16_t)w;
		return;
	}
	for (unsigned p = 0; p < l->ways; p++)
		out[p] = (uint16_t)((l->order[set] >> (4 * p)) & 0xf);
}
