/* index.c - the hash index of a TLB level (index.h). */
#include <errno.h>
#include <stdlib.h>
#include "model/index.h"

int index_init(struct tlb_index *x, size_t entries)
{
	unsigned bits = 2;

	while (((size_t)1 << bits) < 4 * entries)
		bits++;
	x->key = calloc((size_t)1 << bits, sizeof(*x->key));
	x->slot = calloc((size_t)1 << bits, sizeof(*x->slot));
	if (!x->key || !x->slot) {
		index_free(x);
		return -ENOMEM;
	}
	x->mask = ((size_t)1 << bits) - 1;
	x->shift = 64 - bits;
	return 0;
}

void index_free(struct tlb_index *x)
{
	free(x->key);
	free(x->slot);
	x->key = NULL;
	x->slot = NULL;
}

void index_add(struct tlb_index *x, uint64_t key, size_t slot)
{
	size_t i = index_home(x, key);

	while (x->key[i])
		i = (i + 1) & x->mask;
	x->key[i] = key;
	x->slot[i] = (uint32_t)slot;
}

void index_del(struct tlb_index *x, uint64_t key)
{
	size_t i = index_home(x, key), j, k;

	while (x->key[i] && x->key[i] != key)
		i = (i + 1) & x->mask;
	if (!x->key[i])
		return;
	/* backward shift: pull later members of the probe run into the hole */
	for (j = i;;) {
		j = (j + 1) & x->mask;
		if (!x->key[j])
			break;
		k = index_home(x, x->key[j]);
		/* an entry whose home lies cyclically in (i, j] must stay */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		x->key[i] = x->key[j];
		x->slot[i] = x->slot[j];
		i = j;
	}
	x->key[i] = 0;
}
