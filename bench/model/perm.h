/*
 * perm.h - the recency order of a narrow LRU set of at most PERM_WAYS ways
 * as the rank of its permutation, for step.c's loops: moving a way to the
 * front is then one load from a table (perm_next), the least and most
 * recent ways one load each, where the nibble word of level.h takes about
 * twenty instructions. A loop converts its levels' order words to ranks
 * (perm_rank) before it runs and back (perm_order) after, so the levels
 * keep level.h's representation everywhere else. Internal to bench/model.
 */
#ifndef SGA_MODEL_PERM_H
#define SGA_MODEL_PERM_H

#include <stdint.h>

/* The largest set a rank stands for: 5! = 120 orders. */
#define PERM_WAYS 5
#define PERM_STATES 120

/* The tables of sets of `ways` ways (2..PERM_WAYS): ways! ranks. */
struct perm_tab {
	uint8_t next[PERM_STATES * PERM_WAYS];	/* next[r * ways + w]: way w moved to the front */
	uint8_t lru[PERM_STATES];	/* the least recent way */
	uint8_t mru[PERM_STATES];	/* the most recent way */
	uint32_t order[PERM_STATES];	/* the order's nibbles (level.h), the most recent lowest */
	uint8_t rank_of[3125];	/* by the order's base-`ways` number, most recent lowest digit */
};

/* perm_tabs[ways], built by perm_init() (index 0 and 1 unused). */
extern struct perm_tab perm_tabs[PERM_WAYS + 1];

/* Build the tables once; safe from several threads. */
void perm_init(void);

/* The rank of a narrow set's order word (level.h) of `ways` ways. */
static inline uint8_t perm_rank(uint64_t order, unsigned ways)
{
	unsigned key = 0;

	for (unsigned p = ways; p-- > 0;)
		key = key * ways + (unsigned)((order >> (4 * p)) & 0xf);
	return perm_tabs[ways].rank_of[key];
}

/* The order word of rank r, its nibbles beyond the ways taken from old. */
static inline uint64_t perm_order(uint8_t r, unsigned ways, uint64_t old)
{
	uint64_t low = (1ull << (4 * ways)) - 1;

	return (old & ~low) | perm_tabs[ways].order[r];
}

#endif
