/*
 * geo.h - level geometries compiled into the fast simulator's loops
 * (access.h, step.c): the presets' ways and sets as constants, so that
 * the loops need neither registers nor loads for them, and the helpers
 * that take a level's ways either compiled in or read at run time.
 * Internal to bench/model.
 */
#ifndef SGA_MODEL_GEO_H
#define SGA_MODEL_GEO_H

#include "model/level.h"

#define INLINE static inline __attribute__((always_inline))

/*
 * Level geometries compiled into the loops of step.c (the presets' at
 * their default page sizes), so that ways, set masks and used-bit words
 * are constants: GEO_ANY reads them from the levels at run time.
 * geo_ways() and geo_sets() give level u's ways and sets (0: read at run
 * time). step.c uses each where it measured faster side by side: skylake's
 * in the branchy loop only, the others in both.
 */
enum geo {
	GEO_ANY,
	GEO_SKYLAKE,	/* 8 sets of 4 ways, 128 sets of 12 ways (intel-skylake at 2m) */
	GEO_ZEN2,	/* 1 set of 64 ways, 170 hashed sets of 2 ways (amd-zen2 at 2M: its L2 partition) */
	GEO_N1,		/* 1 set of 48 ways, 256 sets of 5 ways (arm-neoverse-n1) */
	GEO_NRU128	/* access_nru1(): 1 set of 128 ways (the SPARC presets') */
};

INLINE unsigned geo_ways(const unsigned geo, const unsigned u)
{
	switch (geo) {
	case GEO_SKYLAKE:
		return u ? 12 : 4;
	case GEO_ZEN2:
		return u ? 2 : 64;
	case GEO_N1:
		return u ? 5 : 48;
	case GEO_NRU128:
		return u ? 0 : 128;
	default:
		return 0;
	}
}

INLINE unsigned geo_sets(const unsigned geo, const unsigned u)
{
	switch (geo) {
	case GEO_SKYLAKE:
		return u ? 128 : 8;
	case GEO_ZEN2:
		return u ? 170 : 1;
	case GEO_N1:
		return u ? 256 : 1;
	case GEO_NRU128:
		return u ? 0 : 1;
	default:
		return 0;
	}
}

/* level_set() of level u under geo: a hashed level whose sets geo compiles
 * in (amd-zen2's L2, ishift 0: has_geo()) takes the hash modulo a constant. */
INLINE size_t geo_set(const struct flevel *l, const unsigned geo, const unsigned u, uint32_t page)
{
	if (geo == GEO_ZEN2 && u == 1)
		return (size_t)((((uint64_t)page * 0x9e3779b97f4a7c15ull) >> 32) % geo_sets(geo, u));
	return level_set(l, page);
}

/* The ways of level l: W when the caller compiles them in (geo_ways()),
 * else l->ways, read at run time. */
INLINE unsigned ways_of(const struct flevel *l, const unsigned W)
{
	return W ? W : l->ways;
}

/* level_list_front() with the ways as ways_of(l, W). */
INLINE void list_front_w(struct flevel *l, size_t set, unsigned w, const unsigned W)
{
	const unsigned hd = ways_of(l, W);
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

/* The used-bit words of a set of level l: of W ways compiled in, or l->uwords. */
INLINE unsigned uwords_of(const struct flevel *l, const unsigned W)
{
	return W ? (W + 63) / 64 : l->uwords;
}

/* level_set_used() with the ways as ways_of(l, W). */
INLINE void set_used_w(struct flevel *l, size_t set, unsigned w, const unsigned W)
{
	l->used[set * uwords_of(l, W) + w / 64] |= 1ull << (w % 64);
}

/* level_victim_nru() with the ways as ways_of(l, W): the loops over the
 * used-bit words unrolled when W is compiled in. */
INLINE unsigned victim_nru_w(struct flevel *l, size_t set, const unsigned W)
{
	const unsigned nw = uwords_of(l, W), last = nw - 1;
	const uint64_t ulast = W ? (W % 64 ? (1ull << (W % 64)) - 1 : ~0ull) : l->ulast;
	uint64_t *u = l->used + set * nw;

	for (unsigned k = 0; k < last; k++)
		if (~u[k])
			return 64 * k + (unsigned)__builtin_ctzll(~u[k]);
	if (~u[last] & ulast)
		return 64 * last + (unsigned)__builtin_ctzll(~u[last] & ulast);
	for (unsigned k = 0; k <= last; k++)
		u[k] = 0;
	return 0;
}

#endif
