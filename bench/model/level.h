/*
 * level.h - one TLB level of the fast simulator (sim.c, step.c): its sets, where
 * each translation sits, and the replacement state, laid out for speed.
 * Internal to bench/model.
 *
 * Every key (tag << 32 | page) of a core also has a dense id, numbered by
 * sim.c (the core's tags times the pages a task can touch). A level finds
 * a key without scanning: through `loc`, the core's table from id to the
 * way in each level (the levels of one id side by side, so one access
 * touches one cache line), when the table fits in model_loc_limit, else
 * through a hash index on the key (index.h). Replacement state:
 *  - narrow sets (at most LEVEL_NARROW ways): for LRU the recency order as
 *    4-bit way numbers in one 64-bit word (nibble 0 the most recent),
 *    moved to the front in a few instructions; for NRU and random a bit
 *    mask of valid ways per set;
 *  - wide sets: for LRU a circular doubly linked recency list with a
 *    head node, so that moving a way to the front takes no branch; for
 *    NRU and random a count of valid ways and the lowest possibly invalid
 *    way.
 * In an LRU set (narrow or wide) the empty ways are always the least
 * recent, the lowest-numbered last, so that the least recent way is the
 * victim whether the set is full or not.
 * The recency order is the one ref.c's timestamps give; level_order()
 * writes it in the canonical form the period detector compares
 * (period.c): valid ways most recent first, then the empty ways,
 * highest-numbered first.
 *
 * With a loc table a slot holds only the dense id of its key (the key
 * follows from it: level_tag), and an empty slot holds the id `noid`,
 * whose row of the table is scratch: evicting an empty slot clears an
 * entry nobody reads. Without one, a slot holds its key (INVALID when
 * empty) for the hash index.
 */
#ifndef SGA_MODEL_LEVEL_H
#define SGA_MODEL_LEVEL_H

#include <stddef.h>
#include <stdint.h>
#include "model/index.h"
#include "model/model.h"

#define INVALID UINT64_MAX
/* the hot path's helpers below are always inlined, also in large callers */
#define LEVEL_INLINE static inline __attribute__((always_inline))
#define LEVEL_NARROW 16

/* How a level keeps its replacement state (struct flevel.kind). */
enum level_kind { LK_NARROW_LRU, LK_WIDE_LRU, LK_NRU, LK_RANDOM,
		  LK_ANY /* for callers: the level's own kind, read at run time */ };

struct flevel {
	unsigned k;		/* index in the machine's levels */
	unsigned sets, ways, repl;
	int wide;		/* ways > LEVEL_NARROW */
	unsigned kind;		/* enum level_kind */
	int pow2;		/* sets is a power of two, ishift 0, not hashed: the set is page & set_mask */
	int hashed;		/* model_level's hashed: the set is model_set_of() */
	unsigned ishift;	/* pages held as smaller entries: the set is (page << ishift) % sets */
	uint32_t set_mask;	/* sets - 1 */
	unsigned top;		/* narrow: 4 * (ways - 1), the least recent way's nibble */
	uint64_t set_mul;	/* page % sets as ((set_mul * page) * sets) >> 64 */
	uint64_t *key;		/* without loc: sets * ways: tag << 32 | page, INVALID when empty */
	uint32_t *id;		/* sets * ways: the dense id of each valid key (noid when empty) */
	uint64_t *used;		/* NRU used bits: per set, uwords words, way w's bit w % 64 of
				   word w / 64 */
	unsigned uwords;	/* words of used bits per set: (ways + 63) / 64 */
	uint64_t ulast;		/* the bits of the last word that hold ways */
	uint32_t noid;		/* with loc: the id of an empty slot (a scratch row of loc) */
	const uint64_t *tags;	/* with loc: the tag of ids n * span .. n * span + span - 1 is tags[n] */
	uint64_t span;
	uint32_t *loc;		/* loc[id * stride]: way + 1 (the set follows from the page),
				   0 when absent; NULL: use ix */
	unsigned stride;	/* levels in the core's loc table */
	struct tlb_index ix;	/* key -> slot, when loc is NULL */
	uint64_t *order;	/* narrow LRU: per set, way numbers by recency, 4 bits each */
	uint32_t *vmask;	/* narrow NRU and random: per set, bit w set when way w is valid */
	uint32_t full;		/* narrow: vmask of a full set */
	uint64_t nibbles;	/* narrow: the nibbles of an order word that hold ways */
	uint16_t *prev, *next;	/* wide LRU: per set, ways + 1 links of a circular recency
				   list; link `ways` is the list's head node: next[ways] is
				   the most recent way, prev[ways] the least recent */
	unsigned mru, lru;	/* wide LRU of one set, in step.c's access_lru2() only: next[ways] and
				   prev[ways], the list's ends, kept here too */
	uint32_t *nvalid;	/* wide NRU and random: valid ways per set */
	uint32_t *lowinv;	/* wide NRU and random: no way below this one is invalid */
	struct rng rng;		/* random replacement */
};

/*
 * Set up l as level k of machine m, empty, for core cn of a run seeded
 * with seed (the random-replacement stream is the one ref.c uses). loc,
 * zeroed, is this level's column of the core's table (stride levels per
 * id, row noid scratch), or NULL to use a hash index instead. Returns 0
 * or -ENOMEM; level_free() cleans up either way (loc stays the caller's).
 */
int level_init(struct flevel *l, const struct model_machine *m, unsigned k, unsigned psz,
	       unsigned words, unsigned cn, uint64_t seed, uint32_t *loc, unsigned stride, uint32_t noid);
void level_free(struct flevel *l);

/* A wide set that is not full: its lowest invalid way, counted as valid
 * from now on. */
unsigned level_first_invalid(struct flevel *l, size_t set);
/* Move the hash index from slot j's key to key (levels without loc). */
void level_fill_hashed(struct flevel *l, size_t j, uint64_t key);

/* Tag none: invalidate every entry whose tag is `tag`. */
void level_flush_tag(struct flevel *l, uint64_t tag);

/* Write the recency order of set `set` into out (ways entries): LRU ways
 * most recent first; other policies keep the identity order. */
void level_order(const struct flevel *l, size_t set, uint16_t *out);

/* The set page maps to: page % sets, without a division (with (page <<
 * ishift) % sets for pages held as smaller entries). */
LEVEL_INLINE size_t level_set(const struct flevel *l, uint32_t page)
{
	if (l->hashed) {
		/* model_set_of(): the hash is below 2^32, for which set_mul's
		   multiply-shift modulo is exact */
		uint64_t h = (((uint64_t)page << l->ishift) * 0x9e3779b97f4a7c15ull) >> 32;

		return (size_t)(((__uint128_t)(l->set_mul * h) * l->sets) >> 64);
	}
	if (l->ishift)
		return (size_t)(((uint64_t)page << l->ishift) % l->sets);
	if (l->pow2)
		return page & l->set_mask;
	return (size_t)(((__uint128_t)(l->set_mul * page) * l->sets) >> 64);
}

/* Whether slot j holds a key. */
LEVEL_INLINE int level_valid(const struct flevel *l, size_t j)
{
	return l->loc ? l->id[j] != l->noid : l->key[j] != INVALID;
}

/* The tag of the key in slot j (a valid one). */
LEVEL_INLINE uint64_t level_tag(const struct flevel *l, size_t j)
{
	return l->loc ? l->tags[l->id[j] / l->span] : l->key[j] >> 32;
}

/* The slot holding key, or -1, in a level without loc (its hash index). */
LEVEL_INLINE long level_find(const struct flevel *l, uint64_t key)
{
	return index_find(&l->ix, key);
}

/*
 * Move way w to the front of a narrow set's recency word: the nibbles
 * below w's move up one, those above stay. z's lowest set bit is the top
 * bit of the lowest nibble of order equal to w (bits above it may be set
 * too: a borrow); z ^ (z - 1) is the mask of the nibbles up to that one,
 * which take the order shifted up by a nibble.
 */
LEVEL_INLINE uint64_t level_nibble_front(uint64_t order, unsigned w)
{
	const uint64_t ones = 0x1111111111111111ull;
	uint64_t x = order ^ (ones * w), z = (x - ones) & ~x & (ones << 3);
	uint64_t upto = z ^ (z - 1);

	return (order ^ ((order ^ (order << 4)) & upto)) | w;
}

/* A narrow LRU set's recency word after its least recent way, w, moved to
 * the front: a rotation of the nibbles that hold ways. */
LEVEL_INLINE uint64_t level_nibble_rotate(const struct flevel *l, uint64_t order, unsigned w)
{
	return ((order << 4) & l->nibbles) | (order & ~l->nibbles) | w;
}

/* Unlink way w of set `set` from its recency list and put it first. */
LEVEL_INLINE void level_list_front(struct flevel *l, size_t set, unsigned w)
{
	const unsigned hd = l->ways;
	uint16_t *pv = l->prev + set * (hd + 1), *nx = l->next + set * (hd + 1);
	unsigned p = pv[w], n = nx[w], h;

	nx[p] = (uint16_t)n;
	pv[n] = (uint16_t)p;
	h = nx[hd];
	nx[w] = (uint16_t)h;
	pv[w] = (uint16_t)hd;
	pv[h] = (uint16_t)w;
	nx[hd] = (uint16_t)w;
}

/* The least recent way of a wide LRU set. */
LEVEL_INLINE unsigned level_list_tail(const struct flevel *l, size_t set)
{
	return l->prev[set * (l->ways + 1) + l->ways];
}

/* kind, or the level's own when kind is LK_ANY: the inline functions
 * below take a kind so that a caller can compile one in. */
LEVEL_INLINE unsigned level_kind(const struct flevel *l, unsigned kind)
{
	return kind == LK_ANY ? l->kind : kind;
}

/* Set the NRU used bit of way w of set `set`. */
LEVEL_INLINE void level_set_used(struct flevel *l, size_t set, unsigned w)
{
	l->used[set * l->uwords + w / 64] |= 1ull << (w % 64);
}

/* Record a use of way w of set `set` (a hit or a fill); kind as level_kind. */
LEVEL_INLINE void level_use_k(struct flevel *l, unsigned kind, size_t set, unsigned w)
{
	kind = level_kind(l, kind);
	if (kind == LK_NARROW_LRU)
		l->order[set] = level_nibble_front(l->order[set], w);
	else if (kind == LK_WIDE_LRU)
		level_list_front(l, set, w);
	else
		level_set_used(l, set, w);
}

LEVEL_INLINE void level_use(struct flevel *l, size_t set, unsigned w)
{
	level_use_k(l, LK_ANY, set, w);
}

/* NRU's victim in a full set: the first way with its used bit clear; when
 * none is clear, all are reset and way 0 is taken. */
LEVEL_INLINE unsigned level_victim_nru(struct flevel *l, size_t set)
{
	uint64_t *u = l->used + set * l->uwords;
	unsigned last = l->uwords - 1;

	for (unsigned k = 0; k < last; k++)
		if (~u[k])
			return 64 * k + (unsigned)__builtin_ctzll(~u[k]);
	if (~u[last] & l->ulast)
		return 64 * last + (unsigned)__builtin_ctzll(~u[last] & l->ulast);
	for (unsigned k = 0; k <= last; k++)
		u[k] = 0;
	return 0;
}

/* The way to fill in set `set`: the first invalid one (lowest index), else
 * the policy's; kind as level_kind. The way counts as valid from now on. */
LEVEL_INLINE unsigned level_victim_k(struct flevel *l, unsigned kind, size_t set)
{
	int wide;

	kind = level_kind(l, kind);
	/* LRU: an empty way, lowest first, else the least recent (level.h) */
	if (kind == LK_NARROW_LRU)
		return (unsigned)(l->order[set] >> l->top) & 0xf;
	if (kind == LK_WIDE_LRU)
		return level_list_tail(l, set);
	wide = l->wide;
	if (!wide) {
		uint32_t inv = ~l->vmask[set] & l->full;

		if (inv) {
			unsigned w = (unsigned)__builtin_ctz(inv);

			l->vmask[set] |= 1u << w;
			return w;
		}
	} else if (l->nvalid[set] < l->ways) {
		return level_first_invalid(l, set);
	}
	if (kind == LK_NRU)
		return level_victim_nru(l, set);
	return (unsigned)rng_below(&l->rng, l->ways);
}

/* Fill key (dense id `id`) into set `set`: an invalid way first (lowest
 * index), else the replacement policy's victim. */
static inline void level_fill(struct flevel *l, size_t set, uint64_t key, uint32_t id)
{
	unsigned w = level_victim_k(l, LK_ANY, set);
	size_t j = set * l->ways + w;

	if (!l->loc) {
		level_fill_hashed(l, j, key);
		l->key[j] = key;
	} else {
		l->loc[(size_t)l->id[j] * l->stride] = 0;	/* noid's row when empty */
		l->loc[(size_t)id * l->stride] = w + 1;
	}
	l->id[j] = id;
	level_use(l, set, w);
}

#endif
