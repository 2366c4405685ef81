/*
 * access.h - one access of the fast simulator, always inlined (step.c
 * includes it; internal to bench/model): a task's next page, its key and
 * dense id, and the loc-table paths: access_loc() for any levels, the
 * branch-free access_lru2() for two LRU levels and access_nru1() for one
 * wide NRU level, with fills and hits per level kind (level.h).
 *
 * An access reads one row of the core's loc table to learn at once which
 * levels hold its key, updates the level that hits and fills the ones
 * before it. The callers compile these for the presets' level counts,
 * kinds and geometries (step.c, geo.h), so that the walk over the levels
 * is unrolled, each level's replacement code is fixed and its ways and
 * sets are constants.
 */
#ifndef SGA_MODEL_ACCESS_H
#define SGA_MODEL_ACCESS_H

#include "model/geo.h"
#include "model/sim_int.h"

/* The next page of t when its block is used up, or while start-up pages
 * remain (bpos == blen == 0 then, so every access comes here). With
 * several words per page, each page p of the stream becomes t->words
 * keys (model_words_shift()), expanded in place from the block's end. */
static __attribute__((noinline)) uint32_t next_page_slow(struct ftask *t, uint64_t startup)
{
	size_t n;

	if (t->startup_left)
		return MODEL_STARTUP_PAGE0 + (uint32_t)(startup - t->startup_left--);
	n = wl_fill(&t->s, t->buf, CHUNK / t->words);
	for (size_t j = n; t->words > 1 && j-- > 0;) {
		uint32_t base = t->buf[j] << t->wshift;

		for (unsigned i = t->words; i-- > 0;)
			t->buf[j * t->words + i] = base + (uint32_t)(((uint64_t)i << t->wshift) / t->words);
	}
	t->blen = (unsigned)(n * t->words);
	t->bpos = 1;
	return t->buf[0];
}

/* The next page task t touches: a start-up page (MODEL_STARTUP_PAGE0 + n) or an
 * area page. */
INLINE uint32_t next_page(struct ftask *t, uint64_t startup)
{
	if (__builtin_expect(t->bpos < t->blen, 1))
		return t->buf[t->bpos++];
	return next_page_slow(t, startup);
}

/* Task t's dense id for page. */
INLINE uint32_t page_id(const struct ftask *t, uint32_t page)
{
	if (__builtin_expect(page < MODEL_STARTUP_PAGE0, 1))
		return t->idbase + page;
	return t->pidbase + (page - MODEL_STARTUP_PAGE0);
}

/* Task t's key and dense id (page_id()) for page. */
INLINE uint64_t page_key(const struct ftask *t, uint32_t page, uint32_t *id)
{
	*id = page_id(t, page);
	return (page < MODEL_STARTUP_PAGE0 ? t->ikey : t->pkey) | page;
}

/*
 * Fill the key of dense id `id` into level l of kind `kind` (level_kind),
 * whose loc column is col (stride nlv), and point the key's row entry
 * *cell at it. An LRU set evicts its least recent way (an empty one when
 * there is one): a narrow one by rotating its recency word, a wide one
 * from its list's tail. The victim's row entry is cleared (noid's, a
 * scratch row, when the slot was empty). W: the level's ways as ways_of().
 */
INLINE void fill_loc(struct flevel *l, unsigned kind, uint32_t *col, unsigned nlv, size_t set,
		     uint32_t id, uint32_t *cell, const unsigned W)
{
	const size_t base = set * ways_of(l, W);
	uint32_t *const ids = l->id;
	unsigned w;

	kind = level_kind(l, kind);
	if (kind == LK_NARROW_LRU) {
		/* the least recent way, empty or not (an empty slot's id is noid) */
		w = (unsigned)(l->order[set] >> l->top) & 0xf;
		l->order[set] = level_nibble_rotate(l, l->order[set], w);
		col[(size_t)ids[base + w] * nlv] = 0;
	} else if (kind == LK_WIDE_LRU) {
		/* the least recent way, empty or not, goes first */
		w = level_list_tail(l, set);
		level_list_front(l, set, w);
		col[(size_t)ids[base + w] * nlv] = 0;
	} else if (kind == LK_NRU && l->wide && __builtin_expect(l->nvalid[set] == ways_of(l, W), 1)) {
		/* a full wide NRU set (the SPARC presets'): no invalid way to look for */
		w = victim_nru_w(l, set, W);
		set_used_w(l, set, w, W);
		col[(size_t)ids[base + w] * nlv] = 0;
	} else {
		w = level_victim_k(l, kind, set);
		col[(size_t)ids[base + w] * nlv] = 0;
		level_use_k(l, kind, set, w);
	}
	*cell = w + 1;
	ids[base + w] = id;
}

/* A hit in level l of kind `kind` on way + 1 = cell, in set `set`: record
 * the use. W: the level's ways as ways_of(). */
INLINE void hit_loc(struct flevel *l, unsigned kind, size_t set, uint32_t cell, const unsigned W)
{
	if (level_kind(l, kind) == LK_NRU)
		set_used_w(l, set, cell - 1, W);
	else
		level_use_k(l, kind, set, cell - 1);
}

/*
 * a when c is not 0, else b, by a conditional move: GCC compiles the
 * ternary to a branch, which the hits and misses of a skewed or random
 * stream mispredict (elsewhere than on x86-64, the ternary).
 */
INLINE unsigned pick(unsigned c, unsigned a, unsigned b)
{
#if defined(__x86_64__)
	__asm__("test %1, %1\n\tcmovne %2, %0" : "+r"(b) : "r"(c), "r"(a) : "cc");
	return b;
#else
	return c ? a : b;
#endif
}

/* a when x equals y, else b, by a conditional move (pick()'s, without
 * the test of a flag made first). */
INLINE unsigned pick_eq(unsigned x, unsigned y, unsigned a, unsigned b)
{
#if defined(__x86_64__)
	__asm__("cmp %2, %1\n\tcmove %3, %0" : "+r"(b) : "r"(x), "r"(y), "r"(a) : "cc");
	return b;
#else
	return x == y ? a : b;
#endif
}

/*
 * level_list_front() on a wide LRU level of one set whose list's ends are
 * kept in l->mru and l->lru too (access_lru2()): the ends are read
 * from there, not from the head node, so that the next access's least
 * recent way is known without a load, and kept up to date. The list
 * itself is written as level_list_front() writes it.
 */
INLINE void list_front_ends(struct flevel *l, unsigned w, const unsigned W)
{
	const unsigned hd = ways_of(l, W);
	uint16_t *pv = l->prev, *nx = l->next;
	unsigned p = pv[w], n = nx[w], h = pick_eq(p, hd, n, l->mru);

	l->lru = pick_eq(n, hd, p, l->lru);
	l->mru = w;
	nx[p] = (uint16_t)n;
	pv[n] = (uint16_t)p;
	nx[w] = (uint16_t)h;
	pv[w] = (uint16_t)hd;
	pv[h] = (uint16_t)w;
	nx[hd] = (uint16_t)w;
}

/*
 * Level u of a full narrow or wide LRU set that the access changes (u <=
 * hit): a fill takes the least recent way, a hit its own (its row entry
 * *cell is way + 1, 0 when the level does not hold the key); either way
 * that way moves to the front and its slot gets the id, so the two
 * cases share one path. On a hit the way's old id is id itself: its row
 * entry is cleared and set again. Level 0's hit or miss is known from
 * the branch on whether the access goes on to level 1 (access_loc), so a
 * ternary costs nothing there; below, pick() chooses without a branch.
 * ends: l is a wide LRU level of one set whose list's ends are kept in
 * l->mru and l->lru (list_front_ends()). W: the level's ways as ways_of().
 */
INLINE void touch_lru(struct flevel *l, unsigned kind, uint32_t *col, unsigned nlv, size_t set,
		      uint32_t id, uint32_t *cell, unsigned u, const int ends, const unsigned W)
{
	const size_t base = set * ways_of(l, W);
	const unsigned c = *cell, mine = c - 1;
	unsigned w;

	if (kind == LK_NARROW_LRU) {
		uint64_t order = l->order[set];
		unsigned lru = (unsigned)(order >> (W ? 4 * (W - 1) : l->top)) & 0xf;

		w = u ? pick(c, mine, lru) : c ? mine : lru;
		l->order[set] = level_nibble_front(order, w);
	} else if (ends) {
		w = u ? pick(c, mine, l->lru) : c ? mine : l->lru;
		list_front_ends(l, w, W);
	} else {
		unsigned lru = l->prev[set * (ways_of(l, W) + 1) + ways_of(l, W)];

		w = u ? pick(c, mine, lru) : c ? mine : lru;
		list_front_w(l, set, w, W);
	}
	col[(size_t)l->id[base + w] * nlv] = 0;
	*cell = w + 1;
	l->id[base + w] = id;
}

/* How access_loc() finds the set of a page in each level. */
enum sets {
	SETS_ANY,	/* level_set() */
	SETS_POW2,	/* every level has a power of two of sets: a mask */
	SETS_ONE0,	/* the same, and level 0 has one set (fully associative) */
	SETS_ONE0_ANY	/* level 0 has one set, the others level_set() (zen2's hashed L2) */
};

/* Whether level 0 has one set under sets (enum sets). */
INLINE int one_set0(const unsigned sets)
{
	return sets == SETS_ONE0 || sets == SETS_ONE0_ANY;
}

/* Whether level 0, of kind k0 (not LK_ANY), keeps its list's ends in
 * l->mru and l->lru in access_lru2(): a wide LRU level of one set
 * (periods_loc() sets them), but for amd-zen2's compiled-in geometry
 * (geo, enum geo). The ends take the head node's links off the chain
 * from one access to the next, which pays on arm-neoverse-n1; on
 * amd-zen2 they cost more in spills than that (side by side:
 * Documentation/validation/model-speed.md). */
INLINE int list_ends(const unsigned k0, const unsigned sets, const unsigned geo)
{
	return k0 == LK_WIDE_LRU && one_set0(sets) && geo != GEO_ZEN2;
}

/*
 * touch_lru() for a level that an access may leave alone: when keep is
 * not 0 (a level above hit), the same work is done on the most recent
 * way, whose move to the front changes nothing, and the row entries and
 * the slot get back what they held (the victim's entry cleared is noid's,
 * a scratch row), so that whether the level changes costs no branch.
 * W: the level's ways as ways_of().
 */
INLINE void touch_lru_or_keep(struct flevel *l, unsigned kind, uint32_t *col, unsigned nlv,
			      size_t set, uint32_t id, uint32_t *cell, unsigned keep, const unsigned W)
{
	const unsigned ways = ways_of(l, W);
	const size_t base = set * ways;
	const unsigned c = *cell;
	unsigned w, old;

	if (kind == LK_NARROW_LRU) {
		uint64_t order = l->order[set];
		unsigned lru = (unsigned)(order >> (W ? 4 * (W - 1) : l->top)) & 0xf;

		w = pick(keep, (unsigned)order & 0xf, pick(c, c - 1, lru));
		l->order[set] = level_nibble_front(order, w);
	} else {
		const uint16_t *pv = l->prev + set * (ways + 1), *nx = l->next + set * (ways + 1);

		w = pick(keep, nx[ways], pick(c, c - 1, pv[ways]));
		list_front_w(l, set, w, W);
	}
	old = l->id[base + w];
	col[(size_t)pick(keep, l->noid, old) * nlv] = 0;
	*cell = pick(keep, c, w + 1);
	l->id[base + w] = pick(keep, old, id);
}

/*
 * One access of task t on a core with two LRU levels of kinds k0 and k1
 * (narrow or wide), sets as access_loc(), without a branch on where the
 * access hits: a skewed stream hits level 0 at random, which a branch
 * mispredicts. Level 1 is worked on always, and kept as it was when
 * level 0 hits. geo (enum geo): the levels' geometry, when compiled in.
 */
INLINE void access_lru2(struct flevel *lv, uint32_t *loc, uint64_t startup, struct ftask *t,
			const unsigned k0, const unsigned k1, const unsigned sets, const unsigned geo)
{
	uint32_t page = next_page(t, startup), id = page_id(t, page), *row = loc + (size_t)id * 2;
	const unsigned c0 = row[0], c1 = row[1];
	const uint32_t mask0 = geo_sets(geo, 0) ? geo_sets(geo, 0) - 1 : lv[0].set_mask;
	const uint32_t mask1 = geo_sets(geo, 1) ? geo_sets(geo, 1) - 1 : lv[1].set_mask;
	const size_t s0 = one_set0(sets) ? 0 : page & mask0;
	const size_t s1 = sets == SETS_ONE0_ANY ? geo_set(&lv[1], geo, 1, page) : page & mask1;

	t->hit[(c0 == 0) + ((c0 | c1) == 0)]++;
	touch_lru(&lv[0], k0, loc, 2, s0, id, row, 1, list_ends(k0, sets, geo), geo_ways(geo, 0));
	touch_lru_or_keep(&lv[1], k1, loc + 1, 2, s1, id, row + 1, c0, geo_ways(geo, 1));
}

/* Level u of an access that first hits level `hit` (u <= hit), any kind,
 * in set `set`: u < hit fills, u == hit records the use. */
INLINE void level_loc(struct flevel *l, unsigned kind, uint32_t *col, unsigned nlv, size_t set,
		      uint32_t id, uint32_t *cell, unsigned u, unsigned hit, const unsigned W)
{
	kind = level_kind(l, kind);
	if (kind == LK_NARROW_LRU || kind == LK_WIDE_LRU) {
		touch_lru(l, kind, col, nlv, set, id, cell, u, 0, W);
		return;
	}
	if (u < hit)
		fill_loc(l, kind, col, nlv, set, id, cell, W);
	else
		hit_loc(l, kind, set, *cell, W);
}

/* The first level whose row entry is set (nlv when none): no branch. */
INLINE unsigned first_hit(const uint32_t *row, const unsigned nlv)
{
	unsigned hit = nlv;

	for (unsigned u = nlv; u-- > 0;)
		hit = row[u] ? u : hit;	/* a conditional move */
	return hit;
}

/*
 * One access of task t on a core with a loc table of nlv levels, the
 * first three of kinds k0, k1, k2 (LK_ANY: read at run time): the row of
 * the key's id tells at once which levels hold it (the first nonzero entry
 * is the hit), so only the level that hits and those filled are changed.
 * sets (enum sets): how the set of a page is found, a constant in each
 * caller. This one takes the page, read by the caller. geo: as access_lru2().
 */
INLINE void access_loc_page(struct flevel *lv, uint32_t *loc, struct ftask *t, uint32_t page,
			    const unsigned nlv, const unsigned k0, const unsigned k1, const unsigned k2,
			    const unsigned sets, const unsigned geo)
{
	uint32_t id = page_id(t, page), *row = loc + (size_t)id * nlv;
	unsigned hit = first_hit(row, nlv);

	t->hit[hit]++;
#pragma GCC unroll 6
	for (unsigned u = 0; u < nlv; u++) {
		unsigned kind = u == 0 ? k0 : u == 1 ? k1 : u == 2 ? k2 : LK_ANY;
		size_t set;

		if (u > hit)
			break;
		if (one_set0(sets) && u == 0)
			set = 0;
		else if (sets != SETS_ANY && sets != SETS_ONE0_ANY)
			set = page & (geo_sets(geo, u) ? geo_sets(geo, u) - 1 : lv[u].set_mask);
		else
			set = geo_set(&lv[u], geo, u, page);
		level_loc(&lv[u], kind, loc + u, nlv, set, id, row + u, u, hit, u < 2 ? geo_ways(geo, u) : 0);
	}
}

/* access_loc_page() on task t's next page. */
INLINE void access_loc(struct flevel *lv, uint32_t *loc, uint64_t startup, struct ftask *t,
		       const unsigned nlv, const unsigned k0, const unsigned k1, const unsigned k2,
		       const unsigned sets)
{
	access_loc_page(lv, loc, t, next_page(t, startup), nlv, k0, k1, k2, sets, GEO_ANY);
}

/*
 * One access of task t on a core with one wide NRU level of at most 128
 * ways (the SPARC presets'; geo GEO_NRU128 compiles their 128 in, else
 * GEO_ANY), sets as access_loc(), without a branch on
 * hit or miss once the set is full: the victim is found whether it is
 * needed or not, the way is picked by a conditional move, and a hit
 * rewrites its own slot and row entry (as touch_lru()). A set not yet
 * full goes through access_loc().
 */
INLINE void access_nru1(struct flevel *lv, uint32_t *loc, uint64_t startup, struct ftask *t,
			const unsigned sets, const unsigned geo)
{
	struct flevel *l = &lv[0];
	uint32_t page = next_page(t, startup), id = page_id(t, page), *cell = loc + id;
	const unsigned ways = ways_of(l, geo_ways(geo, 0)), two = geo_ways(geo, 0) ? ways > 64 : l->uwords > 1;
	const uint64_t ulast = geo_ways(geo, 0) ? (ways % 64 ? (1ull << (ways % 64)) - 1 : ~0ull) : l->ulast;
	const size_t set = one_set0(sets) ? 0 : page & l->set_mask, base = set * ways;
	const unsigned c = *cell;
	uint64_t *u = l->used + set * (two ? 2 : 1), u0, u1, c0, c1, m, none;
	unsigned w, v, old;

	if (__builtin_expect(l->nvalid[set] != ways, 0)) {
		access_loc_page(lv, loc, t, page, 1, LK_NRU, LK_ANY, LK_ANY, sets, GEO_ANY);
		return;
	}
	u0 = u[0];
	u1 = two ? u[1] : 0;
	/* the first way with its used bit clear (level_victim_nru), or 0 when
	   none is, which resets all the used bits below on a miss */
	c0 = ~u0 & (two ? ~0ull : ulast);
	c1 = two ? ~u1 & ulast : 0;
	m = 0 - (uint64_t)(c0 == 0);
	none = 0 - (uint64_t)((c0 | c1) == 0);
	v = (unsigned)(~none & ((m & 64) + (unsigned)__builtin_ctzll(c0 | (c1 & m) | (none & 1))));
	w = pick(c, c - 1, v);
	m = none & (0 - (uint64_t)(c == 0));	/* a miss with every bit set: reset */
	u0 &= ~m;
	u1 &= ~m;
	u0 |= (uint64_t)(w < 64) << (w & 63);
	u1 |= (uint64_t)(w >= 64) << (w & 63);
	/* two 64-bit stores, not one vector store: the next access loads the
	   words one by one, which a vector store cannot forward to at once */
	__asm__("" : "+r"(u0), "+r"(u1));
	u[0] = u0;
	if (two)
		u[1] = u1;
	t->hit[c == 0]++;
	old = l->id[base + w];
	loc[old] = 0;
	*cell = w + 1;
	l->id[base + w] = id;
}

#endif
