/*
 * touch.h - the measured loops. In the window a task does nothing but
 * these: one load (or store) of one word per listed page.
 */
#ifndef SGA_TOUCH_H
#define SGA_TOUCH_H

#include <stddef.h>
#include <stdint.h>

/* Load the word at base + (idx[i] << shift) + off for each i; returns their sum. */
uint64_t touch_read(const char *base, unsigned shift, size_t off, const uint32_t *idx, size_t n);

/*
 * Test knob only (SGABENCH_TEST_WORK=N, off by default): touch_read, then
 * N dependent multiply-adds per 64 words loaded, counted across calls
 * (N/64 per access on average, whatever the pass length, so small
 * slowdowns can be dialled in), on a chain that the next call's loads
 * wait for (so its latency adds to the loop's), a calibrated amount of
 * extra work per access that stands for a slower build. The normal loop
 * never runs this code: the choice is made once per pass, outside it.
 */
uint64_t touch_read_work(const char *base, unsigned shift, size_t off, const uint32_t *idx,
			 size_t n, unsigned work);

/* Increment the word at base + (idx[i] << shift) + off for each i. */
void touch_write(char *base, unsigned shift, size_t off, const uint32_t *idx, size_t n);

/* Follow n links of a chain of byte offsets stored in the SGA, from start; returns the last. */
uint64_t touch_chase(const char *base, uint64_t start, uint64_t n);

/* First touch: an atomic add of 0 (a write access that changes nothing) to
 * the word at off in each of pages pages of page_size bytes. */
void touch_first(char *base, uint64_t pages, uint64_t page_size, size_t off);

/* Map the pages holding the code above (and run_window) before a window. */
void touch_prefault_text(void);

/* Put a function in the window-code section (see touch.c). */
#define TOUCH_WINDOW_CODE __attribute__((section("sga_window"), noinline))

#endif
