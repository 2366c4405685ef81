/* index.c - the hash index of a TLB level (index.h). */
#include <errno.h>
#include <stdlib.h>
#include "model/index.h"

static size_t home(const struct tlb_index *x, uint64_t key)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> x->shift);
}

int index_init(struct tlb_index *x, size_t entries)
{
	unsigned bits = 1;

	while (((size_t)1 << bits) < 2 * entries)
		bits++;
	x->tab = calloc((size_t)1 << bits, sizeof(*x->tab));
	if (!x->tab)
		return -ENOMEM;
	x->mask = ((size_t)1 << bits) - 1;
	x->shift = 64 - bits;
	return 0;
}

void index_free(struct tlb_index *x)
{
	free(x->tab);
	x->tab = NULL;
}

long index_find(const struct tlb_index *x, const uint64_t *keys, uint64_t key)
{
	for (size_t i = home(x, key);; i = (i + 1) & x->mask) {
		uint32_t s = x->tab[i];

		if (!s)
			return -1;
		if (keys[s - 1] == key)
			return (long)s - 1;
	}
}

void index_add(struct tlb_index *x, const uint64_t *keys, uint64_t key, size_t slot)
{
	size_t i = home(x, key);

	(void)keys;
	while (x->tab[i])
		i = (i + 1) & x->mask;
	x->tab[i] = (uint32_t)slot + 1;
}

void index_del(struct tlb_index *x, const uint64_t *keys, uint64_t key)
{
	size_t i = home(x, key), j, k;

	while (x->tab[i] && keys[x->tab[i] - 1] != key)
		i = (i + 1) & x->mask;
	if (!x->tab[i])
		return;
	/* backward shift: pull later members of the probe run into the hole */
	for (j = i;;) {
		j = (j + 1) & x->mask;
		if (!x->tab[j])
			break;
		k = home(x, keys[x->tab[j] - 1]);
		/* an entry whose home lies cyclically in (i, j] must stay */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		x->tab[i] = x->tab[j];
		i = j;
	}
	x->tab[i] = 0;
}
