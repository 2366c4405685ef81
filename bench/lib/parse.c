/* parse.c - size, count and CPU-list parsers. */
#include <errno.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "lib/parse.h"

/* Multiply *v by m, failing with -ERANGE on overflow. */
static int mul_check(uint64_t *v, uint64_t m)
{
	if (m && *v > UINT64_MAX / m)
		return -ERANGE;
	*v *= m;
	return 0;
}

/* Read the leading decimal digits of s into *v; set *end past them. */
static int read_digits(const char *s, uint64_t *v, const char **end)
{
	uint64_t x = 0;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	while (isdigit((unsigned char)*s)) {
		unsigned d = (unsigned)(*s - '0');

		if (x > (UINT64_MAX - d) / 10)
			return -ERANGE;
		x = x * 10 + d;
		s++;
	}
	*v = x;
	*end = s;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	const char *p;
	uint64_t v, mult = 1;
	int ret;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		char *end;

		if (!isxdigit((unsigned char)s[2]) || strlen(s + 2) > 16)
			return strlen(s + 2) > 16 ? -ERANGE : -EINVAL;
		errno = 0;
		v = strtoull(s + 2, &end, 16);
		if (*end || errno)
			return -EINVAL;
		*out = v;
		return 0;
	}
	ret = read_digits(s, &v, &p);
	if (ret)
		return ret;
	switch (tolower((unsigned char)*p)) {
	case 'k': mult = 1ULL << 10; p++; break;
	case 'm': mult = 1ULL << 20; p++; break;
	case 'g': mult = 1ULL << 30; p++; break;
	case 't': mult = 1ULL << 40; p++; break;
	default: break;
	}
	if (mult > 1 && (strcasecmp(p, "ib") == 0 || strcasecmp(p, "b") == 0))
		p += strlen(p);
	else if (mult == 1 && strcasecmp(p, "b") == 0)
		p++;
	if (*p)
		return -EINVAL;
	ret = mul_check(&v, mult);
	if (ret)
		return ret;
	*out = v;
	return 0;
}

int parse_count(const char *s, uint64_t *out)
{
	const char *p;
	uint64_t v, mult = 1;
	int ret;

	ret = read_digits(s, &v, &p);
	if (ret)
		return ret;
	if (*p == 'k' || *p == 'K') {
		mult = 1000;
		p++;
	} else if (*p == 'm' || *p == 'M') {
		mult = 1000000;
		p++;
	}
	if (*p)
		return -EINVAL;
	ret = mul_check(&v, mult);
	if (ret)
		return ret;
	*out = v;
	return 0;
}

int parse_double(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v))
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_cpulist(const char *s, uint64_t *set, unsigned max_cpus)
{
	unsigned words = (max_cpus + 63) / 64;
	const char *p = s;
	int count = 0;

	memset(set, 0, words * sizeof(*set));
	if (!*p)
		return -EINVAL;
	while (*p) {
		uint64_t lo, hi;
		int ret = read_digits(p, &lo, &p);

		if (ret)
			return -EINVAL;
		hi = lo;
		if (*p == '-') {
			ret = read_digits(p + 1, &hi, &p);
			if (ret)
				return -EINVAL;
		}
		if (hi < lo)
			return -EINVAL;
		if (hi >= max_cpus)
			return -ERANGE;
		for (uint64_t c = lo; c <= hi; c++) {
			if (!(set[c / 64] & (1ULL << (c % 64))))
				count++;
			set[c / 64] |= 1ULL << (c % 64);
		}
		if (*p == ',') {
			p++;
			if (!*p)
				return -EINVAL;
		} else if (*p) {
			return -EINVAL;
		}
	}
	return count;
}

const char *fmt_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned u = 0;

	while (u < 4 && bytes >= 1024 && bytes % 1024 == 0) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu %s", (unsigned long long)bytes, unit[u]);
	return buf;
}
