/*
 * step.c - runs of accesses of the fast simulator (sim_int.h): one access
 * whatever the core (access_one), and whole issue periods of the busy
 * slots' tasks (run_periods), compiled for one and two levels with the
 * presets' kinds (narrow LRU, wide LRU, NRU) built in; other machines read
 * the kinds at run time (branches that go the same way on every access of
 * a run). Cores without a loc table use access_hashed(). The accesses
 * themselves are in access.h, the scheduler in sched.c.
 */
#include <errno.h>
#include <stdlib.h>
#include "model/access.h"
#include "model/vec.h"

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

/* One access of task t, whatever the core (a run with a heap has no
 * loc table: multi.c). */
void access_one(struct fcore *c, struct ftask *t)
{
	if (!c->loc && c->multi)
		access_multi(c, t);
	else if (!c->loc)
		access_hashed(c, t);
	else
		access_loc(c->lv, c->loc, c->r->startup, t, c->nlv, LK_ANY, LK_ANY, LK_ANY, SETS_ANY);
}

/* How periods_loc() makes an access. */
enum how { ACCESS_LOC, ACCESS_LRU2, ACCESS_NRU1 };

/* One access through access_loc(), access_lru2() or access_nru1(). */
INLINE void access_how(struct flevel *lv, uint32_t *loc, uint64_t startup, struct ftask *t,
		       const unsigned nlv, const unsigned k0, const unsigned k1, const unsigned sets,
		       const unsigned how, const unsigned geo)
{
	if (how == ACCESS_LRU2)
		access_lru2(lv, loc, startup, t, k0, k1, sets, geo);
	else if (how == ACCESS_NRU1)
		access_nru1(lv, loc, startup, t, sets, geo);
	else
		access_loc_page(lv, loc, t, next_page(t, startup), nlv, k0, k1, LK_ANY, sets, geo);
}

/*
 * `periods` issue periods of accesses by the busy slots' tasks, in order
 * (c->flat: c->nflat tasks, c->reps periods' worth); kinds and sets as
 * access_loc(); how: ACCESS_LOC, or the branch-free access_lru2() (two
 * LRU levels) or access_nru1() (one wide NRU level of at most 128 ways),
 * sets not SETS_ANY; geo (enum geo): access_lru2()'s geometry, when compiled in.
 */
INLINE void periods_loc_geo(struct fcore *c, uint64_t periods, const unsigned nlv, const unsigned k0,
			    const unsigned k1, const unsigned sets, const unsigned how, const unsigned geo)
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
	if (how == ACCESS_LRU2 && list_ends(k0, sets, geo)) {
		lv[0].mru = lv[0].next[lv[0].ways];
		lv[0].lru = lv[0].prev[lv[0].ways];
	}
	for (; p + c->reps <= periods; p += c->reps)
		for (unsigned s = 0; s < nflat; s++)
			access_how(lv, loc, startup, flat[s], nlv, k0, k1, sets, how, geo);
	for (; p < periods; p++)
		for (unsigned s = 0; s < per; s++)
			access_how(lv, loc, startup, flat[s], nlv, k0, k1, sets, how, geo);
	for (unsigned u = 0; u < nlv; u++)
		c->lv[u] = lv[u];
}

INLINE void periods_loc(struct fcore *c, uint64_t periods, const unsigned nlv, const unsigned k0,
			const unsigned k1, const unsigned sets, const unsigned how)
{
	periods_loc_geo(c, periods, nlv, k0, k1, sets, how, GEO_ANY);
}

/* Whether core c's two levels have the geometry geo (enum geo). */
static int has_geo(const struct fcore *c, unsigned geo)
{
	for (unsigned u = 0; u < 2; u++)
		if (c->lv[u].ways != geo_ways(geo, u) || c->lv[u].sets != geo_sets(geo, u) ||
		    c->lv[u].ishift || c->lv[u].hashed != (geo == GEO_ZEN2 && u == 1))
			return 0;
	return c->nlv == 2 && c->lv[0].repl == REPL_LRU && c->lv[1].repl == REPL_LRU;
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

	if (k0 == LK_NRU && l->sets == 1 && l->ways == 128 && level0_mixed(c))
		periods_loc_geo(c, periods, 1, k0, LK_ANY, SETS_ONE0, ACCESS_NRU1, GEO_NRU128);
	else if (k0 == LK_NRU && l->sets == 1 && l->wide && l->uwords <= 2 && level0_mixed(c))
		periods_loc(c, periods, 1, k0, LK_ANY, SETS_ONE0, ACCESS_NRU1);
	else if (k0 == LK_NRU && l->sets == 1 && l->ways == 128)
		periods_loc_geo(c, periods, 1, k0, LK_ANY, SETS_ONE0, ACCESS_LOC, GEO_NRU128);
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
		/* skylake's geometry compiled in here was no faster side by
		   side (Documentation/validation/model-speed.md): its
		   branch-free loop stays generic */
		if (mixed)
			periods_loc(c, periods, 2, LK_NARROW_LRU, LK_NARROW_LRU, SETS_POW2, ACCESS_LRU2);
		else if (has_geo(c, GEO_SKYLAKE))
			periods_loc_geo(c, periods, 2, LK_NARROW_LRU, LK_NARROW_LRU, SETS_POW2, ACCESS_LOC,
					GEO_SKYLAKE);
		else
			periods_loc(c, periods, 2, LK_NARROW_LRU, LK_NARROW_LRU, SETS_POW2, ACCESS_LOC);
		break;
	case KINDS2(LK_WIDE_LRU, LK_NARROW_LRU):
		if (one0 && mixed && has_geo(c, GEO_N1))
			periods_loc_geo(c, periods, 2, LK_WIDE_LRU, LK_NARROW_LRU, SETS_ONE0, ACCESS_LRU2, GEO_N1);
		else if (one0 && mixed)
			periods_loc(c, periods, 2, LK_WIDE_LRU, LK_NARROW_LRU, SETS_ONE0, ACCESS_LRU2);
		else if (one0 && has_geo(c, GEO_N1))
			periods_loc_geo(c, periods, 2, LK_WIDE_LRU, LK_NARROW_LRU, SETS_ONE0, ACCESS_LOC, GEO_N1);
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

/* vec_periods() (vec.c) when it takes the core (one or two narrow LRU
 * levels), else periods_loc() compiled for the usual level counts and
 * kinds (the presets': set counts powers of two, but for zen2's L2), else
 * with the kinds read at run time. */
void run_periods(struct fcore *c, uint64_t periods)
{
	int pow2 = 1;

	for (unsigned u = 0; u < c->nlv; u++)
		pow2 &= c->lv[u].pow2;
	if (vec_periods(c, periods))
		return;
	if (!c->loc) {
		for (uint64_t p = 0; p < periods; p++)
			for (unsigned s = 0; s < c->nflat / c->reps; s++)
				access_one(c, c->flat[s]);
	} else if (!pow2 && c->nlv == 2 && c->lv[0].sets == 1 && c->lv[0].kind == LK_WIDE_LRU &&
		   c->lv[1].kind == LK_NARROW_LRU) {
		/* zen2's: a fully associative L1, an L2 whose sets are not a power of two */
		if (level0_mixed(c) && has_geo(c, GEO_ZEN2))
			periods_loc_geo(c, periods, 2, LK_WIDE_LRU, LK_NARROW_LRU, SETS_ONE0_ANY, ACCESS_LRU2,
					GEO_ZEN2);
		else if (level0_mixed(c))
			periods_loc(c, periods, 2, LK_WIDE_LRU, LK_NARROW_LRU, SETS_ONE0_ANY, ACCESS_LRU2);
		else if (has_geo(c, GEO_ZEN2))
			periods_loc_geo(c, periods, 2, LK_WIDE_LRU, LK_NARROW_LRU, SETS_ONE0_ANY, ACCESS_LOC,
					GEO_ZEN2);
		else
			periods_loc(c, periods, 2, LK_WIDE_LRU, LK_NARROW_LRU, SETS_ONE0_ANY, ACCESS_LOC);
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
