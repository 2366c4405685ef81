/*
 * touch.c - the loops inside the measured window; keep them minimal.
 *
 * They live in their own section, "sga_window", so a task can map their
 * code before its window opens (touch_prefault_text): after fork a child
 * has no page-table entries for file-backed text, and the first execution
 * of a code page would otherwise be a page fault counted in the window.
 */
#include "native/touch.h"

#define WINDOW_CODE __attribute__((section("sga_window"), noinline))

extern const char __start_sga_window[], __stop_sga_window[];

WINDOW_CODE uint64_t touch_read(const char *base, unsigned shift, size_t off, const uint32_t *idx, size_t n)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += *(const volatile uint64_t *)(base + ((size_t)idx[i] << shift) + off);
	return sum;
}

/* Reads not yet paid for by the knob, across calls: a pass can be as short
 * as 8 reads, and the rate must not depend on it. Per thread: --threads
 * runs the tasks as threads of one process. */
static __thread uint64_t work_owed;
/* The knob's chain of multiply-adds, carried from call to call. */
static __thread uint64_t work_chain;

WINDOW_CODE uint64_t touch_read_work(const char *base, unsigned shift, size_t off, const uint32_t *idx,
				     size_t n, unsigned work)
{
	uint64_t sum = 0, owed = work_owed + n, chain = work_chain, zero = chain;

	/* zero is 0, but only at run time: the compiler cannot see through the
	 * asm, so this pass's loads wait for the last pass's chain to end and
	 * the chain's latency adds to the loop's time instead of hiding
	 * behind the next loads, which would make the cost of N units depend
	 * on N erratically (Documentation/validation/nightly.md) */
	__asm__("" : "+r"(zero));
	off += (size_t)(zero - chain);
	for (size_t i = 0; i < n; i++)
		sum += *(const volatile uint64_t *)(base + ((size_t)idx[i] << shift) + off);
	/* per 64 reads: a chain the compiler cannot drop or fold */
	for (; owed >= 64; owed -= 64)
		for (unsigned k = 0; k < work; k++) {
			chain = chain * 6364136223846793005ull + 1442695040888963407ull;
			__asm__ volatile("" : "+r"(chain));
		}
	work_owed = owed;
	work_chain = chain;
	return sum;
}

WINDOW_CODE void touch_write(char *base, unsigned shift, size_t off, const uint32_t *idx, size_t n)
{
	for (size_t i = 0; i < n; i++)
		(*(volatile uint64_t *)(base + ((size_t)idx[i] << shift) + off))++;
}

WINDOW_CODE uint64_t touch_chase(const char *base, uint64_t start, uint64_t n)
{
	uint64_t p = start;

	for (uint64_t i = 0; i < n; i++)
		p = *(const volatile uint64_t *)(base + p);
	return p;
}

WINDOW_CODE void touch_first(char *base, uint64_t pages, uint64_t page_size, size_t off)
{
	for (uint64_t i = 0; i < pages; i++)
		__atomic_fetch_add((uint64_t *)(base + i * page_size + off), 0, __ATOMIC_RELAXED);
}

void touch_prefault_text(void)
{
	uintptr_t lo = (uintptr_t)__start_sga_window, hi = (uintptr_t)__stop_sga_window;

	for (uintptr_t p = lo; p < hi; p += 64)
		(void)*(const volatile char *)p;
	if (hi > lo)
		(void)*(const volatile char *)(hi - 1);
}
