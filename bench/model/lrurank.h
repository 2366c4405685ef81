/*
 * lrurank.h - the recency order of a narrow LRU set of at most
 * LRURANK_WAYS ways as the rank of its permutation, for step.c's loops:
 * moving a way to the front is then one load from a table (next[]), the
 * least and most recent ways one load each, where the nibble word of
 * level.h takes about twenty instructions. A loop converts its levels'
 * order words to ranks (lrurank_of) before it runs and back
 * (lrurank_order) after, so the levels keep level.h's representation
 * everywhere else. Internal to bench/model.
 */
#ifndef SGA_MODEL_LRURANK_H
#define SGA_MODEL_LRURANK_H

#include <stdint.h>

/* The largest set a rank stands for: 5! = 120 orders. */
#define LRURANK_WAYS 5
#define LRURANK_STATES 120

/* The tables of sets of `ways` ways (2..LRURANK_WAYS): ways! ranks. */
struct lrurank_tab {
	uint8_t next[LRURANK_STATES * LRURANK_WAYS];	/* next[r * ways + w]: way w moved to the front */
	uint8_t lru[LRURANK_STATES];	/* the least recent way */
	uint8_t mru[LRURANK_STATES];	/* the most recent way */
	uint32_t order[LRURANK_STATES];	/* the order's nibbles (level.h), the most recent lowest */
	uint8_t rank_of[3125];	/* by the order's base-`ways` number, most recent lowest digit */
};

/* lrurank_tabs[ways], built by lrurank_init() (index 0 and 1 unused). */
extern struct lrurank_tab lrurank_tabs[LRURANK_WAYS + 1];

/* Build the tables once; safe from several threads. */
void lrurank_init(void);

/* The rank of a narrow set's order word (level.h) of `ways` ways. */
static inline uint8_t lrurank_of(uint64_t order, unsigned ways)
{
	unsigned key = 0;

	for (unsigned p = ways; p-- > 0;)
		key = key * ways + (unsigned)((order >> (4 * p)) & 0xf);
	return lrurank_tabs[ways].rank_of[key];
}

/* The order word of rank r, its nibbles beyond the ways taken from old. */
static inline uint64_t lrurank_order(uint8_t r, unsigned ways, uint64_t old)
{
	uint64_t low = (1ull << (4 * ways)) - 1;

	return (old & ~low) | lrurank_tabs[ways].order[r];
}

#endif
