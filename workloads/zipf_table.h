/*
 * zipf_table.h - zipf's ranks by table lookup (used by zipf.c only).
 *
 * The rank of a sample is a function g(m) of its 53 random bits m,
 * defined with libm's pow (zipf.c). g is monotone except where pow's
 * error (below one unit in the last place) can reorder two arguments a few
 * units apart. The table holds, for each rank r, the first m at which g
 * reaches r, found by searching g itself; a sample more than
 * ZIPF_TABLE_GUARD away from the thresholds on both sides takes the rank
 * the table says, which is g(m) whenever g's arguments that far apart
 * are ordered by pow (zipf.c checks that from the distribution's
 * constants before asking for a table). Samples closer to a threshold, a
 * fraction of about 2^-28 per rank, are left to the caller.
 *
 * Tables depend on (pages, theta) only, so one table serves every task of
 * a process; they are shared, reference-counted and safe to get from
 * several threads.
 */
#ifndef SGA_ZIPF_TABLE_H
#define SGA_ZIPF_TABLE_H

#include <stdint.h>

#define ZIPF_TABLE_GUARD (1ull << 24)
#define ZIPF_TABLE_MAX_PAGES (1u << 20)
#define ZIPF_TABLE_DIRECT 0x80000000u

struct zipf_table {
	uint64_t pages;
	double theta;
	unsigned refs;
	uint64_t m_pow;		/* smallest m on pow's branch of g */
	uint64_t *t;		/* t[r], r = 0..pages: first m >= m_pow with g(m) >= r, 2^53 if none */
	uint32_t *guide;	/* per bucket of m: the largest r with t[r] <= the bucket's start,
				   or ZIPF_TABLE_DIRECT | r when every m of the bucket has rank r
				   (zipf_table_direct) */
	unsigned shift;		/* bucket = m >> shift */
	struct zipf_table *next;
};

/* g(m): the rank of the sample with random bits m (0 <= m < 2^53). */
typedef uint64_t zipf_rank_fn(const void *ctx, uint64_t m);
/* A guess of the first m with g(m) >= r, or 0 for none: only where the
 * search for the threshold starts, so a poor guess costs time, not
 * exactness. */
typedef uint64_t zipf_guess_fn(const void *ctx, uint64_t r);

/*
 * The table of g = rank(ctx, .) for (pages, theta), built on first use
 * (searching from guess(ctx, r) for each rank r; guess may be NULL);
 * m_pow is where g's pow branch starts. NULL when pages exceeds
 * ZIPF_TABLE_MAX_PAGES or memory runs out (the caller computes every rank).
 */
struct zipf_table *zipf_table_get(uint64_t pages, double theta, uint64_t m_pow,
				  zipf_rank_fn *rank, zipf_guess_fn *guess, const void *ctx);
/* Drop a reference; the last one frees the table. NULL is fine. */
void zipf_table_put(struct zipf_table *t);

/* g(m) for m >= t->m_pow into *rank, returning 1; 0 when m lies within
 * ZIPF_TABLE_GUARD of a threshold (the caller computes g(m) itself). */
static inline int zipf_table_rank(const struct zipf_table *t, uint64_t m, uint64_t *rank)
{
	uint64_t r = t->guide[m >> t->shift] & ~ZIPF_TABLE_DIRECT;

	while (t->t[r + 1] <= m)
		r++;
	if (m - t->t[r] < ZIPF_TABLE_GUARD || t->t[r + 1] - m <= ZIPF_TABLE_GUARD)
		return 0;
	*rank = r;
	return 1;
}

/*
 * g(m) for any m (also below m_pow) in one load, for most m: the bucket's
 * entry with ZIPF_TABLE_DIRECT set when g is r over the whole bucket and
 * every m of it is beyond ZIPF_TABLE_GUARD of the thresholds (the answer
 * zipf_table_rank would give), or when the bucket lies below m_pow and g
 * is the same at both ends (g is monotone there: no pow). Without the
 * flag, the caller goes the slow way. It takes the table's guide and
 * shift, not the table, so that a caller can keep them in locals.
 */
static inline uint32_t zipf_table_direct(const uint32_t *guide, unsigned shift, uint64_t m)
{
	return guide[m >> shift];
}

#endif
