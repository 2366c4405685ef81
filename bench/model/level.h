/*
 * level.h - one TLB level of the fast simulator (sim.c): its sets, where
 * each translation sits, and the replacement state, laid out for speed.
 * Internal to bench/model.
 *
 * Every key (tag << 32 | page) of a core also has a dense id, numbered by
 * sim.c (the core's tags times the pages a task can touch). A level finds
 * a key without scanning: through `loc`, the core's table from id to the
 * slot in each level (the levels of one id side by side, so one access
 * touches one cache line), when the table fits in model_loc_limit, else
 * through a hash index on the key (index.h). Replacement state:
 *  - narrow sets (at most LEVEL_NARROW ways): a bit mask of valid ways per
 *    set, and for LRU the recency order as 4-bit way numbers in one 64-bit
 *    word (nibble 0 the most recent), moved to the front in a few
 *    instructions;
 *  - wide sets: a count of valid ways and the lowest possibly invalid way,
 *    and for LRU a doubly linked recency list.
 * The recency order is the one ref.c's timestamps give; level_order()
 * writes it in the canonical form the period detector compares
 * (period.c): ways most recent first, ways never filled last in index
 * order.
 */
#ifndef SGA_MODEL_LEVEL_H
#define SGA_MODEL_LEVEL_H

#include <stddef.h>
#include <stdint.h>
#include "model/index.h"
#include "model/model.h"

#define INVALID UINT64_MAX
#define LEVEL_NARROW 16
#define LEVEL_NONE 0xffffu

struct flevel {
	unsigned k;		/* index in the machine's levels */
	unsigned sets, ways, repl;
	int wide;		/* ways > LEVEL_NARROW */
	uint64_t set_mul;	/* page % sets as ((set_mul * page) * sets) >> 64 */
	uint64_t *key;		/* sets * ways: tag << 32 | page, INVALID when empty */
	uint32_t *id;		/* sets * ways: the dense id of each valid key */
	uint8_t *used;		/* NRU used bits, one byte per way */
	uint32_t *loc;		/* loc[id * stride]: slot + 1, 0 when absent; NULL: use ix */
	unsigned stride;	/* levels in the core's loc table */
	struct tlb_index ix;	/* key -> slot, when loc is NULL */
	uint64_t *order;	/* narrow LRU: per set, way numbers by recency, 4 bits each */
	uint32_t *vmask;	/* narrow: per set, bit w set when way w is valid */
	uint32_t full;		/* narrow: vmask of a full set */
	uint64_t nibbles;	/* narrow: the nibbles of an order word that hold ways */
	uint16_t *prev, *next;	/* wide LRU: recency list links, by way */
	uint16_t *head, *tail;	/* wide LRU: each set's most and least recent way */
	uint32_t *nvalid;	/* wide: valid ways per set */
	uint32_t *lowinv;	/* wide: no way below this one is invalid */
	struct rng rng;		/* random replacement */
};

/*
 * Set up l as level k of machine m, empty, for core cn of a run seeded
 * with seed (the random-replacement stream is the one ref.c uses). loc,
 * zeroed, is this level's column of the core's table (stride levels per
 * id), or NULL to use a hash index instead. Returns 0 or -ENOMEM;
 * level_free() cleans up either way (loc stays the caller's).
 */
int level_init(struct flevel *l, const struct model_machine *m, unsigned k, unsigned cn,
	       uint64_t seed, uint32_t *loc, unsigned stride);
void level_free(struct flevel *l);

/* The victim of a full narrow set under NRU or random replacement. */
unsigned level_victim_narrow(struct flevel *l, size_t set);
/* The way to fill in a wide set (the first invalid, else the policy's),
 * keeping its count of valid ways. */
unsigned level_victim_wide(struct flevel *l, size_t set);
/* Move the hash index from slot j's key to key (levels without loc). */
void level_fill_hashed(struct flevel *l, size_t j, uint64_t key);

/* Tag none: invalidate every entry whose tag is `tag`. */
void level_flush_tag(struct flevel *l, uint64_t tag);

/* Write the recency order of set `set` into out (ways entries): LRU ways
 * most recent first; other policies keep the identity order. */
void level_order(const struct flevel *l, size_t set, uint16_t *out);

/* The set page maps to: page % sets, without a division. */
static inline size_t level_set(const struct flevel *l, uint32_t page)
{
	uint64_t low = l->set_mul * page;

	return (size_t)(((__uint128_t)low * l->sets) >> 64);
}

/* The slot holding key (dense id `id`), or -1. */
static inline long level_find(const struct flevel *l, uint64_t key, uint32_t id)
{
	if (l->loc)
		return (long)l->loc[(size_t)id * l->stride] - 1;
	return index_find(&l->ix, key);
}

/* Move way w to the front of a narrow set's recency word. */
static inline uint64_t level_nibble_front(uint64_t order, unsigned w)
{
	const uint64_t ones = 0x1111111111111111ull;
	uint64_t x = order ^ (ones * w), z = (x - ones) & ~x & (ones << 3);
	/* m: the nibbles from w's position up; (m << 4) drops w's own */
	uint64_t m = ~0ull << (__builtin_ctzll(z) & ~3u);

	return (order & (m << 4)) | ((order & ~m) << 4) | w;
}

/* Unlink way w of set `set` from its recency list and put it first. */
static inline void level_list_front(struct flevel *l, size_t set, unsigned w)
{
	size_t base = set * l->ways;
	uint16_t p = l->prev[base + w], n = l->next[base + w];

	if (p == LEVEL_NONE)
		return;
	l->next[base + p] = n;
	if (n == LEVEL_NONE)
		l->tail[set] = p;
	else
		l->prev[base + n] = p;
	l->prev[base + w] = LEVEL_NONE;
	l->next[base + w] = l->head[set];
	l->prev[base + l->head[set]] = (uint16_t)w;
	l->head[set] = (uint16_t)w;
}

/* Record a use of way w of set `set` (a hit or a fill). */
static inline void level_use(struct flevel *l, size_t set, unsigned w)
{
	if (l->repl != REPL_LRU)
		l->used[set * l->ways + w] = 1;
	else if (l->wide)
		level_list_front(l, set, w);
	else
		l->order[set] = level_nibble_front(l->order[set], w);
}

/* The way to fill in a narrow set: the first invalid one, else the policy's. */
static inline unsigned level_victim(struct flevel *l, size_t set)
{
	uint32_t inv;

	if (l->wide)
		return level_victim_wide(l, set);
	inv = ~l->vmask[set] & l->full;
	if (inv) {
		unsigned w = (unsigned)__builtin_ctz(inv);

		l->vmask[set] |= 1u << w;
		return w;
	}
	if (l->repl == REPL_LRU)
		return (unsigned)(l->order[set] >> (4 * (l->ways - 1))) & 0xf;
	return level_victim_narrow(l, set);
}

/* A narrow LRU set's recency word after its least recent way, w, moved to
 * the front: a rotation of the nibbles that hold ways. */
static inline uint64_t level_nibble_rotate(const struct flevel *l, uint64_t order, unsigned w)
{
	return ((order << 4) & l->nibbles) | (order & ~l->nibbles) | w;
}

/* Fill key (dense id `id`) into set `set`: an invalid way first (lowest
 * index), else the replacement policy's victim. */
static inline void level_fill(struct flevel *l, size_t set, uint64_t key, uint32_t id)
{
	unsigned w = level_victim(l, set);
	size_t j = set * l->ways + w;

	if (!l->loc) {
		level_fill_hashed(l, j, key);
	} else {
		if (l->key[j] != INVALID)
			l->loc[(size_t)l->id[j] * l->stride] = 0;
		l->loc[(size_t)id * l->stride] = (uint32_t)j + 1;
	}
	l->key[j] = key;
	l->id[j] = id;
	level_use(l, set, w);
}

#endif
