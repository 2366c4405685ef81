/*
 * tap.h - a minimal TAP producer for the C unit tests. Each test binary
 * prints "ok N - name" / "not ok N - name" lines and a closing plan, and
 * exits 1 if anything failed. scripts/t/run-tests counts the lines.
 */
#ifndef SGA_TAP_H
#define SGA_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_n, tap_failed;

/* Report one check: cond true is a pass. name is printf-style. */
static inline int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	fflush(stdout);
	return cond;
}

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

/* Compare two unsigned values, printing both on failure. */
static inline int tap_is_u64(unsigned long long got, unsigned long long want,
			     const char *file, int line, const char *name)
{
	int r = tap_ok(got == want, file, line, "%s", name);

	if (!r)
		printf("#   got %llu, want %llu\n", got, want);
	return r;
}

#define is_u64(got, want, name) tap_is_u64((got), (want), __FILE__, __LINE__, (name))

/* Record a skipped check with its reason. */
static inline void skip(const char *why)
{
	printf("ok %d # SKIP %s\n", ++tap_n, why);
}

/* Print the plan and return the exit status for main(). */
static inline int done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
