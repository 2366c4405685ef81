/* touch.c - the loops inside the measured window; keep them minimal. */
#include "touch.h"

uint64_t touch_read(const char *base, unsigned shift, size_t off, const uint32_t *idx, size_t n)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += *(const volatile uint64_t *)(base + ((size_t)idx[i] << shift) + off);
	return sum;
}

void touch_write(char *base, unsigned shift, size_t off, const uint32_t *idx, size_t n)
{
	for (size_t i = 0; i < n; i++)
		(*(volatile uint64_t *)(base + ((size_t)idx[i] << shift) + off))++;
}

uint64_t touch_chase(const char *base, uint64_t start, uint64_t n)
{
	uint64_t p = start;

	for (uint64_t i = 0; i < n; i++)
		p = *(const volatile uint64_t *)(base + p);
	return p;
}

void touch_first(char *base, uint64_t pages, uint64_t page_size, size_t off)
{
	for (uint64_t i = 0; i < pages; i++)
		__atomic_fetch_add((uint64_t *)(base + i * page_size + off), 0, __ATOMIC_RELAXED);
}
