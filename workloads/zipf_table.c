/* zipf_table.c - shared tables of zipf's rank thresholds (zipf_table.h). */
#include <pthread.h>
#include <stdlib.h>
#include "workloads/zipf_table.h"

#define M_END (1ull << 53)

static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;
static struct zipf_table *tables;

/* First m in (lo, M_END) with rank(m) >= r, given rank(lo) < r <=
 * rank(M_END - 1). Starts from guess, gallops with steps from `step` up
 * to a bracket, then bisects. */
static uint64_t first_reaching(zipf_rank_fn *rank, const void *ctx, uint64_t r, uint64_t lo,
			       uint64_t guess, uint64_t step)
{
	uint64_t hi;

	if (guess <= lo || guess >= M_END)
		guess = lo + (M_END - 1 - lo) / 2;
	if (rank(ctx, guess) >= r) {
		hi = guess;
		while (hi - lo > step && rank(ctx, hi - step) >= r) {
			hi -= step;
			step *= 2;
		}
		if (hi - lo > step)
			lo = hi - step;
	} else {
		lo = guess;
		hi = M_END - 1;
		while (hi - lo > step && rank(ctx, lo + step) < r) {
			lo += step;
			step *= 2;
		}
		if (hi - lo > step)
			hi = lo + step;
	}
	/* rank(lo) < r <= rank(hi) */
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (rank(ctx, mid) >= r)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

/* Set ZIPF_TABLE_DIRECT on bucket b's guide entry when one rank holds
 * for the whole bucket (zipf_table_direct). */
static void mark_direct(struct zipf_table *t, zipf_rank_fn *rank, const void *ctx, uint64_t b)
{
	uint64_t start = b << t->shift, end = start + (1ull << t->shift) - 1, r = t->guide[b], g;

	if (end < t->m_pow) {
		/* below pow's branch g is 0 or 1, monotone in m */
		g = rank(ctx, start);
		if (g == rank(ctx, end))
			t->guide[b] = (uint32_t)g | ZIPF_TABLE_DIRECT;
		return;
	}
	if (start < t->m_pow || r >= t->pages)
		return;
	if (start - t->t[r] >= ZIPF_TABLE_GUARD && t->t[r + 1] > end &&
	    t->t[r + 1] - end > ZIPF_TABLE_GUARD)
		t->guide[b] = (uint32_t)r | ZIPF_TABLE_DIRECT;
}

/* Fill t->t and t->guide. Returns 0 or -1 (out of memory). */
static int build(struct zipf_table *t, zipf_rank_fn *rank, zipf_guess_fn *guess, const void *ctx)
{
	uint64_t pages = t->pages, r0 = rank(ctx, t->m_pow), top = rank(ctx, M_END - 1), nb;
	unsigned bits = 12;

	/* buckets narrow enough that most lie within one rank's interval */
	while (bits < 20 && (1ull << bits) < 32 * pages)
		bits++;
	t->shift = 53 - bits;
	nb = 1ull << bits;
	t->t = malloc((pages + 1) * sizeof(*t->t));
	t->guide = calloc(nb, sizeof(*t->guide));
	if (!t->t || !t->guide)
		return -1;
	for (uint64_t r = 0; r <= r0 && r < pages; r++)
		t->t[r] = t->m_pow;
	for (uint64_t r = r0 + 1; r < pages; r++) {
		/* neighbouring ranks are about as likely: guess the last gap again */
		uint64_t prev = t->t[r - 1], gap = r >= r0 + 2 ? prev - t->t[r - 2] : 0;

		uint64_t g = guess ? guess(ctx, r) : 0;

		if (prev == M_END || top < r) {
			t->t[r] = M_END;
			continue;
		}
		if (rank(ctx, prev) >= r) {
			t->t[r] = prev;
			continue;
		}
		if (g > prev && g < M_END)	/* a close guess: a short first step */
			t->t[r] = first_reaching(rank, ctx, r, prev, g, 16);
		else
			t->t[r] = first_reaching(rank, ctx, r, prev, gap < M_END - prev ? prev + gap : 0,
						 (gap >> 6) > 64 ? gap >> 6 : 64);
	}
	t->t[pages] = M_END;
	for (uint64_t b = 0, r = 0; b < nb; b++) {
		while (r < pages && t->t[r + 1] <= b << t->shift)
			r++;
		t->guide[b] = (uint32_t)r;
		mark_direct(t, rank, ctx, b);
	}
	return 0;
}

struct zipf_table *zipf_table_get(uint64_t pages, double theta, uint64_t m_pow,
				  zipf_rank_fn *rank, zipf_guess_fn *guess, const void *ctx)
{
	struct zipf_table *t;

	if (pages < 2 || pages > ZIPF_TABLE_MAX_PAGES)
		return NULL;
	pthread_mutex_lock(&tables_lock);
	for (t = tables; t; t = t->next)
		if (t->pages == pages && t->theta == theta)
			break;
	if (t) {
		t->refs++;
	} else if ((t = calloc(1, sizeof(*t)))) {
		t->pages = pages;
		t->theta = theta;
		t->m_pow = m_pow;
		t->refs = 1;
		if (build(t, rank, guess, ctx)) {
			free(t->t);
			free(t->guide);
			free(t);
			t = NULL;
		} else {
			t->next = tables;
			tables = t;
		}
	}
	pthread_mutex_unlock(&tables_lock);
	return t;
}

void zipf_table_put(struct zipf_table *t)
{
	struct zipf_table **p;

	if (!t)
		return;
	pthread_mutex_lock(&tables_lock);
	if (--t->refs == 0) {
		for (p = &tables; *p != t; p = &(*p)->next)
			;
		*p = t->next;
		free(t->t);
		free(t->guide);
		free(t);
	}
	pthread_mutex_unlock(&tables_lock);
}
