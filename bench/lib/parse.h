/* parse.h - parsers for sizes, counts and CPU lists, shared by options and configs. */
#ifndef SGA_PARSE_H
#define SGA_PARSE_H

#include <stdint.h>
#include <stddef.h>

/*
 * Parse a byte size: a hex number "0x..." (no unit), or a decimal number
 * with an optional unit k, m, g, t
 * (powers of 1024, case-insensitive, an optional trailing "b" or "ib").
 * Returns 0 and stores the value, or -EINVAL (syntax) / -ERANGE (overflow).
 */
int parse_size(const char *s, uint64_t *out);

/*
 * Parse an unsigned count: decimal, optional k/m suffix (powers of 1000),
 * e.g. "1000", "10k", "1m". Returns 0, -EINVAL or -ERANGE.
 */
int parse_count(const char *s, uint64_t *out);

/* Parse a finite double. Returns 0 or -EINVAL. */
int parse_double(const char *s, double *out);

/*
 * Parse a CPU list such as "0-3,8,10-11" into a bitmap of max_cpus bits
 * (set is an array of max_cpus/64 rounded-up words, cleared first).
 * Returns the number of CPUs set, or -EINVAL (syntax, reversed range)
 * or -ERANGE (a CPU >= max_cpus).
 */
int parse_cpulist(const char *s, uint64_t *set, unsigned max_cpus);

/* Format a byte count as "1 GiB", "2 MiB", "512 KiB" or "123 B" into buf. */
const char *fmt_size(uint64_t bytes, char *buf, size_t len);

#endif
