/*
 * zipf.c - OLTP-like skew: page ranks drawn from a Zipf distribution
 * (Gray et al., "Quickly generating billion-record synthetic databases",
 * as used by YCSB), then spread over the SGA by a seeded bijection so the
 * hot pages are not all adjacent.
 *
 * The stream is defined by zipf_rank_libm(): libm's pow() per sample. That
 * costs more than the TLB model's whole access, so zipf_fill() takes the
 * rank, in this order, from:
 *  - the table of rank thresholds (zipf_table.h), shared by the tasks,
 *    for working sets up to 2^20 pages and whenever the distribution's
 *    constants make it exact (zipf_open);
 *  - fastpow (tables and short polynomials), whose relative error is
 *    below a hundredth of ZIPF_MARGIN, kept only when the rank cannot
 *    change anywhere within that margin;
 *  - otherwise zipf_rank_libm() itself.
 * Most samples take the rank straight from their bucket of the table
 * (zipf_table_direct): one load. Either way the rank is the one libm
 * gives, so streams are bit-identical to the one-sample-at-a-time
 * generator (t_workload checks it).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include "workloads/fastpow.h"
#include "workloads/workload.h"
#include "workloads/zipf_table.h"

/* Relative distance from pages * pow(x, alpha) within which the fast rank
 * is not trusted: a hundred times fastpow's error bound (fastpow.h). */
#define ZIPF_MARGIN (100 * FASTPOW_REL_ERROR)

/* The parameters of zipf (struct wl_args). */
struct zipf_opts {
	double theta;	/* skew, 0.01..10 and not 1; 0.99 is YCSB's default */
};

/* In every cell, whatever the pattern: the cells of older runs have it. */
static const struct opt zipf_options[] = {
	{ .name = "zipf-theta", .type = OPT_DOUBLE, .off = offsetof(struct zipf_opts, theta),
	  .dmin = 0.01, .dmax = 10.0, .metavar = "X", .def = "0.99",
	  .help = "skew of --pattern zipf (not 1)", .cell = "zipf_theta", .conf = "zipf_theta" },
	{ NULL },
};

/* 1 is in the range but has no distribution (alpha = 1 / (1 - theta)). */
static int zipf_check(const void *opts, char *err, size_t errlen)
{
	const struct zipf_opts *o = opts;

	if (o->theta == 1.0) {
		snprintf(err, errlen, "--zipf-theta must not be 1");
		return -EINVAL;
	}
	return 0;
}

struct zipf {
	double theta, alpha, zetan, eta, half_pow;
	uint64_t mul, add;	/* page = (rank * mul + add) mod pages, gcd(mul, pages) = 1 */
	uint64_t mul_shoup;	/* floor(mul * 2^64 / pages), for the modulo without a division */
	uint64_t pages;
	uint64_t m_pow;		/* samples m >= m_pow (u = m / 2^53) take pow's branch */
	struct zipf_table *table;	/* or NULL */
};

static uint64_t zipf_rank_libm(const struct zipf *z, uint64_t pages, double u);

/* zipf_rank_fn for the table: the rank of random bits m. */
static uint64_t rank_of_bits(const void *ctx, uint64_t m)
{
	const struct zipf *z = ctx;

	return zipf_rank_libm(z, z->pages, (double)m * 0x1.0p-53);
}

/* zipf_guess_fn for the table: the first m of rank r by inverting the
 * rank's formula in doubles (a starting point for the exact search). */
static uint64_t guess_of_rank(const void *ctx, uint64_t r)
{
	const struct zipf *z = ctx;
	double x = pow((double)r / (double)z->pages, 1.0 / z->alpha), u = (x - 1) / z->eta + 1;

	if (!(u > 0 && u < 1))
		return 0;
	return (uint64_t)(u * 0x1p53);
}

/*
 * Whether a threshold table gives exactly libm's ranks: samples
 * ZIPF_TABLE_GUARD apart in m must have pow arguments x = eta*u - eta + 1
 * far enough apart that pow's error (under one unit in the last place)
 * cannot reorder them. Their x differ by |eta| 2^-29 less at most
 * 10 * 2^-52 * (1 + |eta|) of rounding, which is at least |eta| 2^-30 when
 * |eta| / (1 + |eta|) >= 2^-18; pow's results then differ by a factor of
 * at least 1 + |alpha eta| 2^-30 / (1 + |eta|) >= 1 + 2^-41 when
 * |alpha eta| / (1 + |eta|) >= 2^-11, far beyond 2^-51.
 */
static int table_is_exact(const struct zipf *z)
{
	double e = fabs(z->eta), d = 1 + e;

	return z->pages >= 2 && e / d >= 0x1p-18 && fabs(z->alpha) * e / d >= 0x1p-11;
}

/* Exact sum of i^-theta for i in 1..n up to 2^20 terms, then Euler-Maclaurin. */
static double zeta(uint64_t n, double theta)
{
	uint64_t m = n < (1u << 20) ? n : (1u << 20);
	double sum = 0, a, b;

	for (uint64_t i = 1; i <= m; i++)
		sum += pow((double)i, -theta);
	if (n == m)
		return sum;
	a = (double)m;
	b = (double)n;
	sum += (pow(b, 1 - theta) - pow(a, 1 - theta)) / (1 - theta);
	sum += (pow(b, -theta) - pow(a, -theta)) / 2;
	sum += (-theta * pow(b, -theta - 1) + theta * pow(a, -theta - 1)) / 12;
	return sum;
}

/* zeta(n, theta), remembered for the last (n, theta) asked: every task
 * of a run opens its stream with the same ones. */
static double zeta_cached(uint64_t n, double theta)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static uint64_t last_n;
	static double last_theta, last_zeta;
	double z;

	pthread_mutex_lock(&lock);
	if (n != last_n || theta != last_theta) {
		last_zeta = zeta(n, theta);
		last_n = n;
		last_theta = theta;
	}
	z = last_zeta;
	pthread_mutex_unlock(&lock);
	return z;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static int zipf_open(struct wl_stream *s)
{
	struct zipf *z;
	const struct zipf_opts *o = s->opts;
	double n = (double)s->p.pages, theta = o ? o->theta : 0;
	struct rng r;

	if (!o || zipf_check(o, NULL, 0) || theta < zipf_options[0].dmin || theta > zipf_options[0].dmax)
		return -EINVAL;
	z = malloc(sizeof(*z));
	if (!z)
		return -ENOMEM;
	z->theta = theta;
	z->alpha = 1.0 / (1.0 - theta);
	z->zetan = zeta_cached(s->p.pages, theta);
	z->eta = (1 - pow(2.0 / n, 1 - theta)) / (1 - zeta(2, theta) / z->zetan);
	z->half_pow = 1 + pow(0.5, theta);
	/* The layout of hot pages depends on the run seed only, not the task. */
	rng_seed(&r, s->p.seed, 0x21bf);
	z->mul = (rng_next(&r) | 1) % s->p.pages;
	if (s->p.pages == 1)
		z->mul = 1;	/* everything maps to page 0 */
	while (z->mul == 0 || gcd(z->mul, s->p.pages) != 1)
		z->mul = (z->mul + 1) % s->p.pages;
	z->add = rng_below(&r, s->p.pages);
	z->mul_shoup = (uint64_t)(((__uint128_t)z->mul << 64) / s->p.pages);
	z->pages = s->p.pages;
	fastpow_init();
	/* the first m with u * zetan >= half_pow: u * zetan only grows with m */
	{
		uint64_t lo = 0, hi = 1ull << 53;

		while (hi - lo > 1) {
			uint64_t mid = lo + (hi - lo) / 2;

			if ((double)mid * 0x1.0p-53 * z->zetan >= z->half_pow)
				hi = mid;
			else
				lo = mid;
		}
		z->m_pow = (double)lo * 0x1.0p-53 * z->zetan >= z->half_pow ? lo : hi;
	}
	z->table = NULL;
	if (table_is_exact(z))
		z->table = zipf_table_get(z->pages, theta, z->m_pow, rank_of_bits, guess_of_rank, z);
	s->priv = z;
	return 0;
}

/* The rank of uniform u: the definition of the stream, with libm's pow. */
static uint64_t zipf_rank_libm(const struct zipf *z, uint64_t pages, double u)
{
	double uz = u * z->zetan;
	uint64_t rank;

	if (pages == 1 || uz < 1.0)
		rank = 0;
	else if (uz < z->half_pow)
		rank = 1;
	else
		rank = (uint64_t)((double)pages * pow(z->eta * u - z->eta + 1, z->alpha));
	if (rank >= pages)
		rank = pages - 1;
	return rank;
}

/* The same rank as zipf_rank_libm(u), mostly without calling pow. */
static uint64_t zipf_rank(const struct zipf *z, uint64_t pages, double u)
{
	double uz = u * z->zetan, v, lo, hi;
	uint64_t rank;

	if (pages == 1 || uz < z->half_pow)
		return zipf_rank_libm(z, pages, u);
	v = (double)pages * fastpow(z->eta * u - z->eta + 1, z->alpha);
	lo = v * (1 - ZIPF_MARGIN);
	hi = v * (1 + ZIPF_MARGIN);
	/* also false for NaN; 2^52 keeps every floor exact */
	if (!(lo >= 0 && hi < 0x1p52) || (uint64_t)lo != (uint64_t)hi)
		return zipf_rank_libm(z, pages, u);
	rank = (uint64_t)lo;
	return rank >= pages ? pages - 1 : rank;
}

/* (rank * mul + add) mod pages for rank < pages, by Shoup's multiplication. */
static uint32_t zipf_page(const struct zipf *z, uint64_t pages, uint64_t rank)
{
	uint64_t q = (uint64_t)(((__uint128_t)rank * z->mul_shoup) >> 64);
	uint64_t r = rank * z->mul - q * pages;

	if (r >= pages)
		r -= pages;
	r += z->add;
	if (r >= pages)
		r -= pages;
	return (uint32_t)r;
}

/* The rank of random bits m when the table's bucket does not say it at once. */
static uint64_t zipf_rank_slow(const struct zipf *z, uint64_t pages, uint64_t m)
{
	double u = (double)m * 0x1.0p-53;
	uint64_t rank;

	if (m < z->m_pow)
		return zipf_rank_libm(z, pages, u);	/* rank 0 or 1: no pow */
	if (!z->table || !zipf_table_rank(z->table, m, &rank))
		rank = zipf_rank(z, pages, u);
	return rank;
}

/* Samples per block of zipf_block(): the ones whose rank the table does
 * not give at once are set aside and ranked after the block. */
#define ZIPF_BLOCK 128

/* The page of rank (< pages); pow2 as zipf_block(). */
static inline __attribute__((always_inline)) uint32_t
zipf_page_of(const struct zipf *z, uint64_t pages, uint64_t rank, int pow2)
{
	if (pow2)
		return (uint32_t)((rank * z->mul + z->add) & (pages - 1));
	return zipf_page(z, pages, rank);
}

/*
 * Pages of the next n samples into out, the random values made on the
 * way from the generator state st (rng_step). pow2: pages is a power of
 * two, so the modulo of zipf_page() is a mask (the same page: 2^64 is a
 * multiple of pages); a constant in each caller, so that the loop has no
 * test for it. A sample's rank depends on its own random bits only, so
 * the samples the table does not rank at once are ranked after their
 * block: the loop that makes the random values calls nothing, and keeps
 * its values in registers.
 */
static inline __attribute__((always_inline)) void
zipf_block(const struct zipf *z, uint64_t pages, uint64_t st[4], uint32_t *out, size_t n,
	   int pow2)
{
	/* the guide and shift in locals: stores to out could alias the
	   table's fields, which would be read again each sample. Without a
	   table, a guide of one entry that ranks nothing (bits is below 2^53,
	   so bits >> 63 is 0): no test in the loop */
	static const uint32_t no_guide[1] = { 0 };
	const uint32_t *const guide = z->table ? z->table->guide : no_guide;
	const unsigned shift = z->table ? z->table->shift : 63;

	for (size_t j0 = 0; j0 < n; j0 += ZIPF_BLOCK) {
		const size_t end = n - j0 < ZIPF_BLOCK ? n : j0 + ZIPF_BLOCK;
		uint64_t slow_bits[ZIPF_BLOCK];
		uint32_t slow_at[ZIPF_BLOCK];
		unsigned nslow = 0;

		for (size_t j = j0; j < end; j++) {
			uint64_t bits = rng_step(st) >> 11;
			uint32_t e = zipf_table_direct(guide, shift, bits);

			if (e & ZIPF_TABLE_DIRECT) {
				out[j] = zipf_page_of(z, pages, e & ~ZIPF_TABLE_DIRECT, pow2);
			} else {
				slow_at[nslow] = (uint32_t)(j - j0);
				slow_bits[nslow++] = bits;
			}
		}
		for (unsigned k = 0; k < nslow; k++)
			out[j0 + slow_at[k]] = zipf_page_of(z, pages, zipf_rank_slow(z, pages, slow_bits[k]),
							    pow2);
	}
}

static size_t zipf_fill(struct wl_stream *s, uint32_t *out, size_t n)
{
	struct zipf *z = s->priv;
	uint64_t pages = s->p.pages, st[4];

	for (unsigned k = 0; k < 4; k++)
		st[k] = s->rng.s[k];
	if (!(pages & (pages - 1)))
		zipf_block(z, pages, st, out, n, 1);
	else
		zipf_block(z, pages, st, out, n, 0);
	for (unsigned k = 0; k < 4; k++)
		s->rng.s[k] = st[k];
	return n;
}

static void zipf_close(struct wl_stream *s)
{
	struct zipf *z = s->priv;

	if (z)
		zipf_table_put(z->table);
	free(z);
}

const struct workload_ops wl_zipf = {
	.name = "zipf",
	.help = "Zipf-skewed pages (OLTP-like; --zipf-theta, default 0.99), seeded",
	.options = zipf_options,
	.check = zipf_check,
	.open = zipf_open,
	.fill = zipf_fill,
	.close = zipf_close,
};
