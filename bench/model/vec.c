/*
 * vec.c - run_periods() by vector compares, for cores whose levels are
 * all narrow LRU (one or two levels; x86-64 with SSE4.1; step.c calls
 * vec_periods() first). Internal to bench/model.
 *
 * Each set keeps the ids of its keys (id + 1; 0 when empty) in recency
 * order, most recent first, in vectors of 4 lanes; lanes past the ways
 * hold VEC_NONE, which no key matches. An access compares its key with
 * every lane of its set, takes the position p of the match (the last way,
 * the least recent, when none matches) and moves the lanes before p back
 * one, the key in front: each vector is blended, in its lanes at
 * positions up to p, with itself shifted by one lane (alignr, which
 * brings in the previous vector's last lane, or the key before the
 * first). A hit and a fill take one path; the second level is worked on
 * always and left as it was when the first level hits, so nothing
 * branches on where an access hits. No row of the loc table is read or
 * written: on this machine those rows' scattered loads and stores, more
 * than the instructions, set the pace of step.c's loops (build/micro/
 * tlbfloor: 106 instructions an access by rows, 95 by vectors, and 1.75
 * times the rate; Documentation/validation/model-speed.md). Two more
 * stores measured slower than the work itself and are avoided: a task's
 * position written after every access (and read by its next one), and an
 * increment of ftask.hit[where], whose address waits for `where`. When the
 * slots' tasks are distinct, their pages are read from their blocks
 * through local pointers, and each slot's counts are added to one word
 * of three packed fields, added to the tasks when the periods end.
 *
 * The levels' own state (level.h: recency words, ids, loc rows) is
 * written into this form when the periods start and back when they end,
 * so single accesses, flushes and the counts see the levels as always.
 * Which way of a set holds a key is not observable under LRU: on the way
 * back the key of recency position p takes way ways - 1 - p, so the
 * empty ways stay the least recent, lowest-numbered last (level.h). The
 * conversion costs a few operations per entry, so periods of fewer than
 * VEC_MIN_RATIO accesses per entry are left to step.c.
 */
#include <stdlib.h>
#include <string.h>
#include "model/access.h"
#include "model/vec.h"

int model_vec = 1;

#if defined(__x86_64__)
#include <immintrin.h>

#define VEC_NONE 0xffffffffu
#define VEC_MIN_RATIO 16
#define VEC_TARGET __attribute__((target("sse4.1")))

/* The lanes of the sets of level l: 4 per vector, `vectors` per set. */
static unsigned vectors(const struct flevel *l)
{
	return (l->ways + 3) / 4;
}

/* Level l's sets in vector form into v (sets * vectors(l) * 4 lanes); its
 * keys' loc entries cleared (none is read until vec_out()). */
static void vec_in(struct flevel *l, uint32_t *v)
{
	const unsigned nv = vectors(l);

	for (size_t s = 0; s < l->sets; s++) {
		uint64_t order = l->order[s];
		uint32_t *lane = v + s * nv * 4;

		for (unsigned p = 0; p < nv * 4; p++) {
			uint32_t id;

			if (p >= l->ways) {
				lane[p] = VEC_NONE;
				continue;
			}
			id = l->id[s * l->ways + ((order >> (4 * p)) & 0xf)];
			lane[p] = id == l->noid ? 0 : id + 1;
			if (id != l->noid)
				l->loc[(size_t)id * l->stride] = 0;
		}
	}
}

/* The vector form back into level l's own state (the key of recency
 * position p in way ways - 1 - p) and its keys' loc entries. */
static void vec_out(struct flevel *l, const uint32_t *v)
{
	const unsigned nv = vectors(l);

	for (size_t s = 0; s < l->sets; s++) {
		const uint32_t *lane = v + s * nv * 4;
		uint64_t order = ~0ull;

		for (unsigned p = 0; p < l->ways; p++) {
			unsigned w = l->ways - 1 - p;

			order = (order & ~(0xfull << (4 * p))) | ((uint64_t)w << (4 * p));
			l->id[s * l->ways + w] = lane[p] ? lane[p] - 1 : l->noid;
			if (lane[p])
				l->loc[(size_t)(lane[p] - 1) * l->stride] = w + 1;
		}
		l->order[s] = order;
	}
}

/*
 * The access of key to the set at v (NV vectors, the level's `ways`):
 * the key moves to the front unless keep is not 0 (a level above hit),
 * when nothing changes. Returns the lanes that matched (0: a miss).
 */
VEC_TARGET INLINE unsigned vec_touch(__m128i *v, __m128i key, const unsigned NV, unsigned ways,
				     unsigned keep)
{
	__m128i a[4], prev = key, upto;
	unsigned hit = 0, p;

#pragma GCC unroll 4
	for (unsigned k = 0; k < NV; k++) {
		a[k] = _mm_load_si128(v + k);
		hit |= (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(a[k], key))) << (4 * k);
	}
	p = hit ? (unsigned)__builtin_ctz(hit) : ways - 1;
	upto = _mm_set1_epi32((int)pick(keep, 0, p + 1));
#pragma GCC unroll 4
	for (unsigned k = 0; k < NV; k++) {
		__m128i shifted = _mm_alignr_epi8(a[k], prev, 12);
		__m128i at = _mm_add_epi32(_mm_setr_epi32(0, 1, 2, 3), _mm_set1_epi32((int)(4 * k)));

		prev = a[k];
		_mm_store_si128(v + k, _mm_blendv_epi8(a[k], shifted, _mm_cmpgt_epi32(upto, at)));
	}
	return hit;
}

/* The set of page in level l; pow2: the level's sets are a power of two
 * in number (a constant in each caller). */
INLINE size_t vec_set(const struct flevel *l, uint32_t page, const int pow2)
{
	return pow2 ? page & l->set_mask : level_set(l, page);
}

/* Counts of where accesses first hit, three fields of VEC_BITS in one
 * word: one add per access at an address known early (an increment of
 * ftask.hit[where] waits for `where`, and the loads behind it with it). */
#define VEC_BITS 21
#define VEC_FIELD(w, k) (((w) >> (VEC_BITS * (k))) & ((1ull << VEC_BITS) - 1))

/* One access, of page with dense id `id`, to levels of NV0 and NV1 vectors
 * per set (NV1 0: one level) in vector form v0, v1; where it first hit is
 * added to *cnt. */
VEC_TARGET INLINE void vec_access(const struct flevel *lv, __m128i *v0, __m128i *v1, uint32_t page,
				  uint32_t id, uint64_t *cnt, const unsigned NV0, const unsigned NV1,
				  const int pow2)
{
	__m128i key = _mm_set1_epi32((int)(id + 1));
	unsigned h0, h1;

	h0 = vec_touch(v0 + vec_set(&lv[0], page, pow2) * NV0, key, NV0, lv[0].ways, 0);
	if (!NV1) {
		*cnt += 1ull << (VEC_BITS * (h0 == 0));
		return;
	}
	h1 = vec_touch(v1 + vec_set(&lv[1], page, pow2) * NV1, key, NV1, lv[1].ways, h0);
	*cnt += 1ull << (VEC_BITS * ((h0 == 0) + ((h0 | h1) == 0)));
}

/*
 * run_periods()'s accesses (step.c's periods_loc_geo(): period after
 * period, the `per` busy slots of c->flat in order), slot s's counts in
 * cnt[s]; periods < 2^VEC_BITS, so that no field overflows. When the
 * slots' tasks are distinct (each issues once a period) and each has k
 * pages left in its block, k periods read task s's pages straight from
 * its block at buf[s] (local pointers: no task's position is written
 * until the k periods end); otherwise one period through next_page().
 */
VEC_TARGET INLINE void vec_loop(struct fcore *c, uint64_t periods, __m128i *v0, __m128i *v1, uint64_t *cnt,
				const uint32_t **buf, uint32_t *idbase, uint32_t *pidbase, int distinct,
				const unsigned NV0,
				const unsigned NV1, const int pow2)
{
	struct ftask *const *flat = c->flat;
	const unsigned per = c->nflat / c->reps;
	const uint64_t startup = c->r->startup;
	struct flevel lv[2];
	uint64_t p = 0;

	lv[0] = c->lv[0];
	lv[1] = c->lv[NV1 ? 1 : 0];
	while (p < periods) {
		uint64_t k = distinct ? periods - p : 0;

		for (unsigned s = 0; s < per && k; s++)
			if (flat[s]->blen - flat[s]->bpos < k)
				k = flat[s]->blen - flat[s]->bpos;
		if (k) {
			for (unsigned s = 0; s < per; s++) {
				buf[s] = flat[s]->buf + flat[s]->bpos;
				idbase[s] = flat[s]->idbase;
				pidbase[s] = flat[s]->pidbase;
			}
			for (uint64_t i = 0; i < k; i++)
				for (unsigned s = 0; s < per; s++) {
					uint32_t page = buf[s][i];
					uint32_t id = page < MODEL_STARTUP_PAGE0 ? idbase[s] + page :
						      pidbase[s] + (page - MODEL_STARTUP_PAGE0);

					vec_access(lv, v0, v1, page, id, &cnt[s], NV0, NV1, pow2);
				}
			for (unsigned s = 0; s < per; s++)
				flat[s]->bpos += (unsigned)k;
			p += k;
			continue;
		}
		for (unsigned s = 0; s < per; s++) {
			struct ftask *t = flat[s];
			uint32_t page = next_page(t, startup);

			vec_access(lv, v0, v1, page, page_id(t, page), &cnt[s], NV0, NV1, pow2);
		}
		p++;
	}
}

/* vec_loop() compiled for the vectors per set of the levels (1 to 4 each). */
#define NV_CASE(a, b) case (a) * 8 + (b): \
	if (pow2) vec_loop(c, periods, v0, v1, cnt, buf, idbase, pidbase, distinct, a, b, 1); \
	else vec_loop(c, periods, v0, v1, cnt, buf, idbase, pidbase, distinct, a, b, 0); \
	break
VEC_TARGET static void vec_run(struct fcore *c, uint64_t periods, __m128i *v0, __m128i *v1, uint64_t *cnt,
			       const uint32_t **buf, uint32_t *idbase, uint32_t *pidbase, int distinct, unsigned nv0,
			       unsigned nv1,
			       int pow2)
{
	switch (nv0 * 8 + nv1) {
	NV_CASE(1, 0); NV_CASE(2, 0); NV_CASE(3, 0); NV_CASE(4, 0);
	NV_CASE(1, 1); NV_CASE(1, 2); NV_CASE(1, 3); NV_CASE(1, 4);
	NV_CASE(2, 1); NV_CASE(2, 2); NV_CASE(2, 3); NV_CASE(2, 4);
	NV_CASE(3, 1); NV_CASE(3, 2); NV_CASE(3, 3); NV_CASE(3, 4);
	NV_CASE(4, 1); NV_CASE(4, 2); NV_CASE(4, 3); NV_CASE(4, 4);
	}
}
#undef NV_CASE

int model_vec_available(void)
{
	/* -1 until first asked; --jobs threads may ask at once and all
	   store the same answer */
	static int have = -1;
	int h = __atomic_load_n(&have, __ATOMIC_RELAXED);

	if (h < 0) {
		__builtin_cpu_init();
		h = __builtin_cpu_supports("sse4.1") ? 1 : 0;
		__atomic_store_n(&have, h, __ATOMIC_RELAXED);
	}
	return h;
}

int vec_periods(struct fcore *c, uint64_t periods)
{
	size_t lanes = 0, off[2] = { 0, 0 };
	uint64_t entries = 0;
	unsigned nv[2] = { 0, 0 };
	int pow2 = 1;
	uint32_t *v, *idbase, *pidbase;
	uint64_t *cnt, step = (1ull << VEC_BITS) - 1;
	const uint32_t **buf;
	unsigned per;
	int distinct = 1;

	if (!model_vec || !model_vec_available() || !c->loc || c->multi || c->nlv < 1 || c->nlv > 2)
		return 0;
	for (unsigned u = 0; u < c->nlv; u++) {
		const struct flevel *l = &c->lv[u];

		if (l->kind != LK_NARROW_LRU || l->ways > LEVEL_NARROW || !l->loc)
			return 0;
		nv[u] = vectors(l);
		off[u] = lanes;
		lanes += l->sets * nv[u] * 4;
		entries += (uint64_t)l->sets * l->ways;
		pow2 &= l->pow2;
	}
	if (periods * (c->nflat / c->reps) < VEC_MIN_RATIO * entries)
		return 0;
	per = c->nflat / c->reps;
	v = aligned_alloc(16, lanes * sizeof(*v));
	cnt = malloc(per * sizeof(*cnt));
	buf = malloc(per * sizeof(*buf));
	idbase = malloc(per * sizeof(*idbase));
	pidbase = malloc(per * sizeof(*pidbase));
	if (!v || !cnt || !buf || !idbase || !pidbase) {
		free(v);
		free(cnt);
		free(buf);
		free(idbase);
		free(pidbase);
		return 0;
	}
	for (unsigned s = 0; s < per && distinct; s++)
		for (unsigned r = 0; r < s; r++)
			distinct &= c->flat[r] != c->flat[s];
	for (unsigned u = 0; u < c->nlv; u++)
		vec_in(&c->lv[u], v + off[u]);
	/* chunks of periods in which no slot counts 2^VEC_BITS accesses */
	for (uint64_t done = 0; done < periods; done += step) {
		uint64_t n = periods - done < step ? periods - done : step;

		memset(cnt, 0, per * sizeof(*cnt));
		vec_run(c, n, (__m128i *)(v + off[0]), (__m128i *)(v + off[c->nlv - 1]), cnt, buf, idbase, pidbase,
			distinct, nv[0], c->nlv > 1 ? nv[1] : 0, pow2);
		for (unsigned s = 0; s < per; s++)
			for (unsigned k = 0; k <= c->nlv; k++)
				c->flat[s]->hit[k] += VEC_FIELD(cnt[s], k);
	}
	for (unsigned u = 0; u < c->nlv; u++)
		vec_out(&c->lv[u], v + off[u]);
	free(v);
	free(cnt);
	free(buf);
	free(idbase);
	free(pidbase);
	__atomic_add_fetch(&model_vec_runs, 1, __ATOMIC_RELAXED);
	return 1;
}
#else
int model_vec_available(void)
{
	return 0;
}

int vec_periods(struct fcore *c, uint64_t periods)
{
	(void)c;
	(void)periods;
	return 0;
}
#endif

uint64_t model_vec_runs;
