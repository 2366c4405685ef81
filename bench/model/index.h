/*
 * index.h - a hash index over a TLB level's keys, so the fast simulator
 * finds an entry of a wide set without scanning it. Open addressing with
 * linear probing and backward-shift deletion; each bucket holds the key
 * itself and its slot in the level, so a lookup touches one array.
 * Keys are never 0 (a key carries a context tag of at least 1), so 0
 * marks an empty bucket.
 */
#ifndef SGA_MODEL_INDEX_H
#define SGA_MODEL_INDEX_H

#include <stddef.h>
#include <stdint.h>

struct tlb_index {
	uint64_t *key;		/* bucket's key, 0 when empty */
	uint32_t *slot;		/* bucket's slot in the level */
	size_t mask;
	unsigned shift;
};

/* Size the index for `entries` keys (at most a quarter full). Returns 0 or -ENOMEM. */
int index_init(struct tlb_index *x, size_t entries);
void index_free(struct tlb_index *x);
/* Record that slot holds key (key must not be present yet). */
void index_add(struct tlb_index *x, uint64_t key, size_t slot);
/* Forget key, if present. */
void index_del(struct tlb_index *x, uint64_t key);

/* The home bucket of key. */
static inline size_t index_home(const struct tlb_index *x, uint64_t key)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> x->shift);
}

/* The slot holding key, or -1. */
static inline long index_find(const struct tlb_index *x, uint64_t key)
{
	for (size_t i = index_home(x, key);; i = (i + 1) & x->mask) {
		uint64_t k = x->key[i];

		if (k == key)
			return (long)x->slot[i];
		if (!k)
			return -1;
	}
}

#endif
