/*
 * step.c - the fast simulator's inner loop (sim_int.h): one access, the
 * scheduler's end-of-quantum step, and runs of quiet issue periods.
 *
 * The loop is built for cores with a loc table (most runs): an access
 * reads one row of the table to learn at once which levels hold its key,
 * updates the level that hits and fills the ones before it. The loop is
 * compiled for one and two levels with the presets' kinds (narrow LRU,
 * wide LRU, NRU) built in, so that the walk over the levels is unrolled
 * and each level's replacement code is fixed; other machines read the
 * kinds at run time (branches that go the same way on every access of a
 * run). Cores without a loc table use access_hashed().
 */
#include <errno.h>
#include <stdlib.h>
#include "model/sim_int.h"

#define INLINE static inline __attribute__((always_inline))

/* The next page of t when its block is used up, or while start-up pages
 * remain (bpos == blen == 0 then, so every access comes here). */
static __attribute__((noinline)) uint32_t next_page_slow(struct ftask *t, uint64_t startup)
{
	if (t->startup_left)
		return 0x80000000u + (uint32_t)(startup - t->startup_left--);
	t->blen = (unsigned)wl_fill(&t->s, t->buf, CHUNK);
	t->bpos = 1;
	return t->buf[0];
}

/* The next page task t touches: a start-up page (0x80000000 + n) or an
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
	if (__builtin_expect(page < 0x80000000u, 1))
		return t->idbase + page;
	return t->pidbase + (page - 0x80000000u);
}

/* Task t's key and dense id (page_id()) for page. */
INLINE uint64_t page_key(const struct ftask *t, uint32_t page, uint32_t *id)
{
	*id = page_id(t, page);
	return (page < 0x80000000u ? t->ikey : t->pkey) | page;
}

/*
 * One access without a loc table: probe the levels in order through their
 * hash indexes, fill those that missed. An entry is looked up by the one
 * key it would be filled with: with a shared context every area entry
 * carries the shared tag and every start-up entry the task's own, so
 * matching "context 0 or 1" finds nothing more.
 */
static void access_hashed(struct fcore *c, struct ftask *t)
{
	uint32_t page = next_page(t, c->r->startup), id;
	uint64_t key = page_key(t, page, &id);
	size_t set[MODEL_LEVELS];
	unsigned hit = c->nlv, u;

	for (u = 0; u < c->nlv; u++) {
		struct flevel *l = &c->lv[u];
		long slot;

		set[u] = level_set(l, page);
		slot = level_find(l, key);
		if (slot >= 0) {
			level_use(l, set[u], (unsigned)((size_t)slot - set[u] * l->ways));
			hit = u;
			break;
		}
	}
	t->hit[hit]++;
	for (u = 0; u < hit; u++)
		level_fill(&c->lv[u], set[u], key, id);
}

/*
 * Fill the key of dense id `id` into level l of kind `kind` (level_kind),
 * whose loc column is col (stride nlv), and point the key's row entry
 * *cell at it. An LRU set evicts its least recent way (an empty one when
 * there is one): a narrow one by rotating its recency word, a wide one
 * from its list's tail. The victim's row entry is cleared (noid's, a
 * scratch row, when the slot was empty).
 */
INLINE void fill_loc(struct flevel *l, unsigned kind, uint32_t *col, unsigned nlv, size_t set,
		     uint32_t id, uint32_t *cell)
{
	const size_t base = set * l->ways;
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
	} else if (kind == LK_NRU && l->wide && __builtin_expect(l->nvalid[set] == l->ways, 1)) {
		/* a full wide NRU set (the SPARC presets'): no invalid way to look for */
		w = level_victim_nru(l, set);
		level_set_used(l, set, w);
		col[(size_t)ids[base + w] * nlv] = 0;
	} else {
		w = level_victim_k(l, kind, set);
		col[(size_t)ids[base + w] * nlv] = 0;
		level_use_k(l, kind, set, w);
	}
	*cell = w + 1;
	ids[base + w] = id;
}

/* A hit in level l of kind `kind` on way + 1 = cell, in set `set`: record the use. */
INLINE void hit_loc(struct flevel *l, unsigned kind, size_t set, uint32_t cell)
{
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
INLINE void list_front_ends(struct flevel *l, unsigned w)
{
	const unsigned hd = l->ways;
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
 * l->mru and l->lru (list_front_ends()).
 */
INLINE void touch_lru(struct flevel *l, unsigned kind, uint32_t *col, unsigned nlv, size_t set,
		      uint32_t id, uint32_t *cell, unsigned u, const int ends)
{
	const size_t base = set * l->ways;
	const unsigned c = *cell, mine = c - 1;
	unsigned w;

	if (kind == LK_NARROW_LRU) {
		uint64_t order = l->order[set];
		unsigned lru = (unsigned)(order >> l->top) & 0xf;

		w = u ? pick(c, mine, lru) : c ? mine : lru;
		l->order[set] = level_nibble_front(order, w);
	} else if (ends) {
		w = u ? pick(c, mine, l->lru) : c ? mine : l->lru;
		list_front_ends(l, w);
	} else {
		unsigned lru = level_list_tail(l, set);

		w = u ? pick(c, mine, lru) : c ? mine : lru;
		level_list_front(l, set, w);
	}
	col[(size_t)l->id[base + w] * nlv] = 0;
	*cell = w + 1;
	l->id[base + w] = id;
}

/* How access_loc() finds the set of a page in each level. */
enum sets {
	SETS_ANY,	/* level_set() */
	SETS_POW2,	/* every level has a power of two of sets: a mask */
	SETS_ONE0	/* the same, and level 0 has one set (fully associative) */
};

/* Whether level 0, of kind k0 (not LK_ANY), keeps its list's ends in
 * l->mru and l->lru in access_lru2(): a wide LRU level of one set
 * (periods_loc() sets them). */
INLINE int list_ends(const unsigned k0, const unsigned sets)
{
	return k0 == LK_WIDE_LRU && sets == SETS_ONE0;
}

/*
 * touch_lru() for a level that an access may leave alone: when keep is
 * not 0 (a level above hit), the same work is done on the most recent
 * way, whose move to the front changes nothing, and the row entries and
 * the slot get back what they held (the victim's entry cleared is noid's,
 * a scratch row), so that whether the level changes costs no branch.
 */
INLINE void touch_lru_or_keep(struct flevel *l, unsigned kind, uint32_t *col, unsigned nlv,
			      size_t set, uint32_t id, uint32_t *cell, unsigned keep)
{
	const size_t base = set * l->ways;
	const unsigned c = *cell;
	unsigned w, old;

	if (kind == LK_NARROW_LRU) {
		uint64_t order = l->order[set];
		unsigned lru = (unsigned)(order >> l->top) & 0xf;

		w = pick(keep, (unsigned)order & 0xf, pick(c, c - 1, lru));
		l->order[set] = level_nibble_front(order, w);
	} else {
		w = pick(keep, l->next[set * (l->ways + 1) + l->ways], pick(c, c - 1, level_list_tail(l, set)));
		level_list_front(l, set, w);
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
 * level 0 hits.
 */
INLINE void access_lru2(struct flevel *lv, uint32_t *loc, uint64_t startup, struct ftask *t,
			const unsigned k0, const unsigned k1, const unsigned sets)
{
	uint32_t page = next_page(t, startup), id = page_id(t, page), *row = loc + (size_t)id * 2;
	const unsigned c0 = row[0], c1 = row[1];
	const size_t s0 = sets == SETS_ONE0 ? 0 : page & lv[0].set_mask, s1 = page & lv[1].set_mask;

	t->hit[pick(c0, 0, pick(c1, 1, 2))]++;
	touch_lru(&lv[0], k0, loc, 2, s0, id, row, 1, list_ends(k0, sets));
	touch_lru_or_keep(&lv[1], k1, loc + 1, 2, s1, id, row + 1, c0);
}

/* Level u of an access that first hits level `hit` (u <= hit), any kind,
 * in set `set`: u < hit fills, u == hit records the use. */
INLINE void level_loc(struct flevel *l, unsigned kind, uint32_t *col, unsigned nlv, size_t set,
		      uint32_t id, uint32_t *cell, unsigned u, unsigned hit)
{
	kind = level_kind(l, kind);
	if (kind == LK_NARROW_LRU || kind == LK_WIDE_LRU) {
		touch_lru(l, kind, col, nlv, set, id, cell, u, 0);
		return;
	}
	if (u < hit)
		fill_loc(l, kind, col, nlv, set, id, cell);
	else
		hit_loc(l, kind, set, *cell);
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
 * caller. This one takes the page, read by the caller.
 */
INLINE void access_loc_page(struct flevel *lv, uint32_t *loc, struct ftask *t, uint32_t page,
			    const unsigned nlv, const unsigned k0, const unsigned k1, const unsigned k2,
			    const unsigned sets)
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
		if (sets == SETS_ONE0 && u == 0)
			set = 0;
		else if (sets != SETS_ANY)
			set = page & lv[u].set_mask;
		else
			set = level_set(&lv[u], page);
		level_loc(&lv[u], kind, loc + u, nlv, set, id, row + u, u, hit);
	}
}

/* access_loc_page() on task t's next page. */
INLINE void access_loc(struct flevel *lv, uint32_t *loc, uint64_t startup, struct ftask *t,
		       const unsigned nlv, const unsigned k0, const unsigned k1, const unsigned k2,
		       const unsigned sets)
{
	access_loc_page(lv, loc, t, next_page(t, startup), nlv, k0, k1, k2, sets);
}

/*
 * One access of task t on a core with one wide NRU level of at most 128
 * ways (the SPARC presets'), sets as access_loc(), without a branch on
 * hit or miss once the set is full: the victim is found whether it is
 * needed or not, the way is picked by a conditional move, and a hit
 * rewrites its own slot and row entry (as touch_lru()). A set not yet
 * full goes through access_loc().
 */
INLINE void access_nru1(struct flevel *lv, uint32_t *loc, uint64_t startup, struct ftask *t,
			const unsigned sets)
{
	struct flevel *l = &lv[0];
	uint32_t page = next_page(t, startup), id = page_id(t, page), *cell = loc + id;
	const size_t set = sets == SETS_ONE0 ? 0 : page & l->set_mask, base = set * l->ways;
	const unsigned c = *cell;
	uint64_t *u = l->used + set * l->uwords, u0, u1, c0, c1, m, none;
	unsigned w, v, old;

	if (__builtin_expect(l->nvalid[set] != l->ways, 0)) {
		access_loc_page(lv, loc, t, page, 1, LK_NRU, LK_ANY, LK_ANY, sets);
		return;
	}
	u0 = u[0];
	u1 = l->uwords > 1 ? u[1] : 0;
	/* the first way with its used bit clear (level_victim_nru), or 0 when
	   none is, which resets all the used bits below on a miss */
	c0 = ~u0 & (l->uwords > 1 ? ~0ull : l->ulast);
	c1 = l->uwords > 1 ? ~u1 & l->ulast : 0;
	m = 0 - (uint64_t)(c0 == 0);
	none = 0 - (uint64_t)((c0 | c1) == 0);
	v = (unsigned)(~none & ((m & 64) + (unsigned)__builtin_ctzll(c0 | (c1 & m) | (none & 1))));
	w = pick(c, c - 1, v);
	m = none & (0 - (uint64_t)(c == 0));	/* a miss with every bit set: reset */
	u0 &= ~m;
	u1 &= ~m;
	u0 |= (uint64_t)(w < 64) << (w & 63);
	u1 |= (uint64_t)(w >= 64) << (w & 63);
	u[0] = u0;
	if (l->uwords > 1)
		u[1] = u1;
	t->hit[pick(c, 0, 1)]++;
	old = l->id[base + w];
	loc[old] = 0;
	*cell = w + 1;
	l->id[base + w] = id;
}

/* One access of task t, whatever the core. */
static void access_one(struct fcore *c, struct ftask *t)
{
	if (!c->loc)
		access_hashed(c, t);
	else
		access_loc(c->lv, c->loc, c->r->startup, t, c->nlv, LK_ANY, LK_ANY, LK_ANY, SETS_ANY);
}

/* How periods_loc() makes an access. */
enum how { ACCESS_LOC, ACCESS_LRU2, ACCESS_NRU1 };

/* One access through access_loc(), access_lru2() or access_nru1(). */
INLINE void access_how(struct flevel *lv, uint32_t *loc, uint64_t startup, struct ftask *t,
		       const unsigned nlv, const unsigned k0, const unsigned k1, const unsigned sets,
		       const unsigned how)
{
	if (how == ACCESS_LRU2)
		access_lru2(lv, loc, startup, t, k0, k1, sets);
	else if (how == ACCESS_NRU1)
		access_nru1(lv, loc, startup, t, sets);
	else
		access_loc(lv, loc, startup, t, nlv, k0, k1, LK_ANY, sets);
}

/*
 * `periods` issue periods of accesses by the busy slots' tasks, in order
 * (c->flat: c->nflat tasks, c->reps periods' worth); kinds and sets as
 * access_loc(); how: ACCESS_LOC, or the branch-free access_lru2() (two
 * LRU levels) or access_nru1() (one wide NRU level of at most 128 ways),
 * sets not SETS_ANY.
 */
INLINE void periods_loc(struct fcore *c, uint64_t periods, const unsigned nlv, const unsigned k0,
			const unsigned k1, const unsigned sets, const unsigned how)
{
	struct ftask *const *flat = c->flat;
	const unsigned nflat = c->nflat, per = nflat / c->reps;
	uint32_t *const loc = c->loc;
	const uint64_t startup = c->r->startup;
	struct flevel lv[MODEL_LEVELS];
	uint64_t p = 0;

	/* a copy on the stack, which the loop's stores through the levels'
	   arrays cannot alias: its fields need not be read again after each */
	for (unsigned u = 0; u < nlv; u++)
		lv[u] = c->lv[u];
	if (how == ACCESS_LRU2 && list_ends(k0, sets)) {
		lv[0].mru = lv[0].next[lv[0].ways];
		lv[0].lru = lv[0].prev[lv[0].ways];
	}
	for (; p + c->reps <= periods; p += c->reps)
		for (unsigned s = 0; s < nflat; s++)
			access_how(lv, loc, startup, flat[s], nlv, k0, k1, sets, how);
	for (; p < periods; p++)
		for (unsigned s = 0; s < per; s++)
			access_how(lv, loc, startup, flat[s], nlv, k0, k1, sets, how);
	for (unsigned u = 0; u < nlv; u++)
		c->lv[u] = lv[u];
}

/*
 * Whether core c's accesses so far hit level 0 at a rate between 1/8 and
 * 7/8 (or none has been made yet): then a branch on it is mispredicted
 * often enough that the branch-free access_lru2() is faster. Either way
 * gives the same result.
 */
static int level0_mixed(const struct fcore *c)
{
	uint64_t hits = 0, all = 0;

	for (unsigned j = 0; j < c->ntasks; j++) {
		const struct ftask *t = &c->t[c->tasks[j]];

		hits += t->hit[0];
		all += t->init_left - t->left;
	}
	return all == 0 || (hits * 8 >= all && hits * 8 <= all * 7);
}

/* periods_loc() for one level of kind k0, its sets a power of two in
 * number; an NRU or wide LRU level with one set is compiled apart. */
INLINE void periods_1(struct fcore *c, uint64_t periods, const unsigned k0)
{
	const struct flevel *l = &c->lv[0];

	if (k0 == LK_NRU && l->sets == 1 && l->wide && l->uwords <= 2 && level0_mixed(c))
		periods_loc(c, periods, 1, k0, LK_ANY, SETS_ONE0, ACCESS_NRU1);
	else if ((k0 == LK_NRU || k0 == LK_WIDE_LRU) && l->sets == 1)
		periods_loc(c, periods, 1, k0, LK_ANY, SETS_ONE0, ACCESS_LOC);
	else
		periods_loc(c, periods, 1, k0, LK_ANY, SETS_POW2, ACCESS_LOC);
}

/* periods_loc() for two levels of kinds k0 and k1, their sets powers of
 * two in number; a fully associative wide LRU level 0 (the presets')
 * is compiled apart. */
#define KINDS2(a, b) ((a) * 8 + (b))
static void periods_2(struct fcore *c, uint64_t periods)
{
	int one0 = c->lv[0].sets == 1, mixed = level0_mixed(c);

	switch (KINDS2(c->lv[0].kind, c->lv[1].kind)) {
	case KINDS2(LK_NARROW_LRU, LK_NARROW_LRU):
		if (mixed)
			periods_loc(c, periods, 2, LK_NARROW_LRU, LK_NARROW_LRU, SETS_POW2, ACCESS_LRU2);
		else
			periods_loc(c, periods, 2, LK_NARROW_LRU, LK_NARROW_LRU, SETS_POW2, ACCESS_LOC);
		break;
	case KINDS2(LK_WIDE_LRU, LK_NARROW_LRU):
		if (one0 && mixed)
			periods_loc(c, periods, 2, LK_WIDE_LRU, LK_NARROW_LRU, SETS_ONE0, ACCESS_LRU2);
		else if (one0)
			periods_loc(c, periods, 2, LK_WIDE_LRU, LK_NARROW_LRU, SETS_ONE0, ACCESS_LOC);
		else if (mixed)
			periods_loc(c, periods, 2, LK_WIDE_LRU, LK_NARROW_LRU, SETS_POW2, ACCESS_LRU2);
		else
			periods_loc(c, periods, 2, LK_WIDE_LRU, LK_NARROW_LRU, SETS_POW2, ACCESS_LOC);
		break;
	case KINDS2(LK_WIDE_LRU, LK_WIDE_LRU):
		periods_loc(c, periods, 2, LK_WIDE_LRU, LK_WIDE_LRU, SETS_POW2, ACCESS_LOC);
		break;
	default:
		periods_loc(c, periods, 2, LK_ANY, LK_ANY, SETS_POW2, ACCESS_LOC);
		break;
	}
}

/* periods_loc() compiled for the usual level counts and kinds (the
 * presets', whose set counts are powers of two), else with the kinds
 * read at run time. */
static void run_periods(struct fcore *c, uint64_t periods)
{
	int pow2 = 1;

	for (unsigned u = 0; u < c->nlv; u++)
		pow2 &= c->lv[u].pow2;
	if (!c->loc) {
		for (uint64_t p = 0; p < periods; p++)
			for (unsigned s = 0; s < c->nflat / c->reps; s++)
				access_hashed(c, c->flat[s]);
	} else if (!pow2 || c->nlv > 2) {
		periods_loc(c, periods, c->nlv, LK_ANY, LK_ANY, SETS_ANY, ACCESS_LOC);
	} else if (c->nlv == 1) {
		switch (c->lv[0].kind) {
		case LK_NRU:
			periods_1(c, periods, LK_NRU);
			break;
		case LK_WIDE_LRU:
			periods_1(c, periods, LK_WIDE_LRU);
			break;
		case LK_NARROW_LRU:
			periods_1(c, periods, LK_NARROW_LRU);
			break;
		default:
			periods_1(c, periods, LK_ANY);
			break;
		}
	} else {
		periods_2(c, periods);
	}
}

/* Tag none: drop strand s's entries from every level. */
static void flush_strand(struct fcore *c, unsigned s)
{
	for (unsigned u = 0; u < c->nlv; u++)
		level_flush_tag(&c->lv[u], 1 + (uint64_t)s);
}

/* After an access on strand d: end of the quantum or of the task. */
static void after(struct fcore *c, struct fstrand *d)
{
	unsigned i = d->q[d->cur], j, nc = d->cur;

	if (c->t[i].left && d->qleft)
		return;
	d->qleft = c->r->quantum;
	for (j = 1; j <= d->n; j++) {
		nc = (d->cur + j) % d->n;
		if (c->t[d->q[nc]].left)
			break;
	}
	if (j > d->n) {
		d->idle = 1;
		c->nbusy--;
		return;
	}
	if (nc == d->cur)
		return;
	d->cur = nc;
	c->st->task[d->q[nc]].switches++;
	if (c->m->tag == TAG_NONE && c->t[d->q[nc]].proc != c->t[i].proc)
		flush_strand(c, d->s);
}

/*
 * Slots that can be issued without any strand ending its quantum or its
 * task: whole issue periods, in each of which a busy strand issues at most
 * `per` accesses, while every busy strand has more than that left.
 */
static uint64_t quiet_slots(const struct fcore *c)
{
	uint64_t least = UINT64_MAX, per = c->r->jitter ? c->r->jitter : 1;

	for (unsigned s = 0; s < c->nsd; s++) {
		const struct fstrand *d = &c->sd[s];
		uint64_t left = c->t[d->q[d->cur]].left;

		if (d->idle)
			continue;
		if (d->qleft < least)
			least = d->qleft;
		if (left < least)
			least = left;
	}
	return least == UINT64_MAX ? 0 : (least - 1) / per * c->slen;
}

/*
 * Issue n slots (whole issue periods) in which no strand's quantum or task
 * ends (quiet_slots): every slot runs the same task as in the first
 * period, so the slots' tasks are looked up once, and each strand's
 * counters drop by its share at the end.
 */
static void run_quiet(struct fcore *c, uint64_t n)
{
	uint64_t periods = n / c->slen, per = c->r->jitter ? c->r->jitter : 1;

	if (!periods)
		return;
	c->nflat = 0;
	for (unsigned s = 0; s < c->slen; s++) {
		const struct fstrand *sd = &c->sd[c->sched[(c->spos + s) % c->slen]];

		if (!sd->idle)
			c->flat[c->nflat++] = &c->t[sd->q[sd->cur]];
	}
	for (unsigned k = 1; k < c->reps; k++)
		for (unsigned s = 0; s < c->nflat; s++)
			c->flat[k * c->nflat + s] = c->flat[s];
	c->nflat *= c->reps;
	run_periods(c, periods);
	for (unsigned s = 0; s < c->nsd; s++) {
		struct fstrand *sd = &c->sd[s];

		if (sd->idle)
			continue;
		sd->qleft -= periods * per;
		c->t[sd->q[sd->cur]].left -= periods * per;
	}
	c->pos += periods * c->slen;
}

#define PROGRESS_SLOTS (1u << 20)
/* the first quiet run is shorter: a sample for level0_mixed() */
#define FIRST_SLOTS (1u << 14)
/* run_quiet's list of tasks holds at least this many issue slots */
#define FLAT_MIN 64

/* Tell the progress callback how many accesses are accounted so far. */
static void report(const struct fcore *c)
{
	uint64_t done = c->done_before;

	if (!c->progress)
		return;
	for (unsigned j = 0; j < c->ntasks; j++)
		done += c->t[c->tasks[j]].init_left - c->t[c->tasks[j]].left;
	c->progress(c->progress_arg, done, c->total);
}

/*
 * Simulate core c to the end: one access per slot of the issue order.
 * With period detection on, every slot is checked; otherwise runs of
 * quiet slots go through run_quiet() without the end-of-quantum checks.
 */
int run_core(struct fcore *c, unsigned cn, int periodic)
{
	struct detect d = { .on = periodic };
	uint64_t next_report = PROGRESS_SLOTS;
	int ret = -ENOMEM;

	c->sched = model_schedule(c->r, cn, c->nsd, &c->slen);
	c->reps = c->slen < FLAT_MIN ? (FLAT_MIN + c->slen - 1) / c->slen : 1;
	c->flat = malloc((c->slen ? c->slen : 1) * c->reps * sizeof(*c->flat));
	if (!c->sched || !c->flat)
		goto out;
	if (d.on && period_init(&d, c))
		goto out;
	c->nbusy = c->nsd;
	while (c->nbusy) {
		struct fstrand *sd;
		unsigned i;

		if (c->pos >= next_report) {
			report(c);
			next_report = c->pos + PROGRESS_SLOTS;
		}
		if (d.on) {
			period_check(c, &d);
		} else {
			uint64_t n = quiet_slots(c), cap = c->pos < FIRST_SLOTS ? FIRST_SLOTS : PROGRESS_SLOTS;

			/* at most cap slots at a time, so progress is reported
			   (and level0_mixed() has seen some before it matters) */
			if (cap < c->slen)
				cap = c->slen;
			run_quiet(c, n < cap ? n : cap);
			if (n > cap)
				continue;
		}
		sd = &c->sd[c->sched[c->spos]];
		if (++c->spos == c->slen)
			c->spos = 0;
		c->pos++;
		if (sd->idle)
			continue;
		i = sd->q[sd->cur];
		access_one(c, &c->t[i]);
		c->t[i].left--;
		sd->qleft--;
		after(c, sd);
	}
	ret = 0;
out:
	free(c->sched);
	free(c->flat);
	period_free(&d);
	return ret;
}
