/* lrurank.c - the rank tables of narrow LRU orders (lrurank.h). */
#include <pthread.h>
#include <string.h>
#include "model/lrurank.h"

struct lrurank_tab lrurank_tabs[LRURANK_WAYS + 1];
static pthread_once_t lrurank_once = PTHREAD_ONCE_INIT;

/* The base-n key of order o (o[0] the most recent, the lowest digit). */
static unsigned key_of(const uint8_t *o, unsigned n)
{
	unsigned key = 0;

	for (unsigned p = n; p-- > 0;)
		key = key * n + o[p];
	return key;
}

/* Every permutation of 0..n-1 in lexicographic order, ranked by that order. */
static void build(unsigned n)
{
	struct lrurank_tab *t = &lrurank_tabs[n];
	uint8_t o[LRURANK_WAYS], all[LRURANK_STATES][LRURANK_WAYS];
	unsigned count = 0;

	for (unsigned p = 0; p < n; p++)
		o[p] = (uint8_t)p;
	for (;;) {
		unsigned i, j;
		uint32_t word = 0;
		uint8_t x;

		memcpy(all[count], o, n);
		for (unsigned p = 0; p < n; p++)
			word |= (uint32_t)o[p] << (4 * p);
		t->order[count] = word;
		t->lru[count] = o[n - 1];
		t->mru[count] = o[0];
		t->rank_of[key_of(o, n)] = (uint8_t)count;
		count++;
		/* the next permutation in lexicographic order */
		for (i = n - 1; i > 0 && o[i - 1] > o[i]; i--)
			;
		if (i == 0)
			break;
		for (j = n - 1; o[j] < o[i - 1]; j--)
			;
		x = o[i - 1];
		o[i - 1] = o[j];
		o[j] = x;
		for (unsigned a = i, b = n - 1; a < b; a++, b--) {
			x = o[a];
			o[a] = o[b];
			o[b] = x;
		}
	}
	for (unsigned r = 0; r < count; r++)
		for (unsigned w = 0; w < n; w++) {
			uint8_t m[LRURANK_WAYS];
			unsigned k = 1;

			m[0] = (uint8_t)w;
			for (unsigned p = 0; p < n; p++)
				if (all[r][p] != w)
					m[k++] = all[r][p];
			t->next[r * n + w] = t->rank_of[key_of(m, n)];
		}
}

static void build_all(void)
{
	for (unsigned n = 2; n <= LRURANK_WAYS; n++)
		build(n);
}

void lrurank_init(void)
{
	pthread_once(&lrurank_once, build_all);
}
