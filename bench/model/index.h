/*
 * index.h - a hash index over a TLB level's key array, so the fast
 * simulator finds an entry of a large set without scanning it. Open
 * addressing with linear probing and backward-shift deletion; it stores
 * slot numbers, the keys stay in the level's own array.
 */
#ifndef SGA_MODEL_INDEX_H
#define SGA_MODEL_INDEX_H

#include <stddef.h>
#include <stdint.h>

struct tlb_index {
	uint32_t *tab;		/* slot + 1, or 0 when empty */
	size_t mask;
	unsigned shift;
};

/* Size the index for `entries` keys. Returns 0 or -ENOMEM. */
int index_init(struct tlb_index *x, size_t entries);
void index_free(struct tlb_index *x);
/* The slot holding key in keys[], or -1. */
long index_find(const struct tlb_index *x, const uint64_t *keys, uint64_t key);
/* Record that keys[slot] == key (key must not be present yet). */
void index_add(struct tlb_index *x, const uint64_t *keys, uint64_t key, size_t slot);
/* Forget key; keys[] must still hold it. */
void index_del(struct tlb_index *x, const uint64_t *keys, uint64_t key);

#endif
