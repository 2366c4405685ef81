/* t_parse.c - sizes, counts and CPU lists. */
#include <errno.h>
#include <string.h>
#include "lib/parse.h"
#include "tap.h"

static void size_ok(const char *s, uint64_t want)
{
	uint64_t v = 0;
	int ret = parse_size(s, &v);

	ok(ret == 0 && v == want, "parse_size('%s') = %llu", s, (unsigned long long)want);
}

static void size_bad(const char *s, int want)
{
	uint64_t v = 0;

	ok(parse_size(s, &v) == want, "parse_size('%s') fails with %d", s, want);
}

int main(void)
{
	uint64_t set[2], v;
	char buf[32];

	size_ok("4096", 4096);
	size_ok("4k", 4096);
	size_ok("4K", 4096);
	size_ok("2m", 2ULL << 20);
	size_ok("2MiB", 2ULL << 20);
	size_ok("1g", 1ULL << 30);
	size_ok("1GB", 1ULL << 30);
	size_ok("3t", 3ULL << 40);
	size_ok("512b", 512);
	size_ok("0x555555554000", 0x555555554000ULL);
	size_bad("0x", -EINVAL);
	size_bad("0x12g", -EINVAL);
	size_bad("", -EINVAL);
	size_bad("k", -EINVAL);
	size_bad("1x", -EINVAL);
	size_bad("-1", -EINVAL);
	size_bad("1.5g", -EINVAL);
	size_bad("99999999999999999999", -ERANGE);
	size_bad("20000000t", -ERANGE);

	ok(parse_count("1000", &v) == 0 && v == 1000, "count 1000");
	ok(parse_count("10k", &v) == 0 && v == 10000, "count 10k is decimal");
	ok(parse_count("1m", &v) == 0 && v == 1000000, "count 1m");
	ok(parse_count("1e6", &v) == -EINVAL, "count rejects 1e6");
	ok(parse_count("", &v) == -EINVAL, "count rejects empty");

	ok(parse_cpulist("0-3,8", set, 128) == 5 && set[0] == 0x10f, "cpulist 0-3,8");
	ok(parse_cpulist("70", set, 128) == 1 && set[1] == (1ULL << 6) && set[0] == 0, "cpulist 70 lands in word 1");
	ok(parse_cpulist("1,1,1-2", set, 128) == 2, "cpulist counts duplicates once");
	ok(parse_cpulist("3-1", set, 128) == -EINVAL, "cpulist rejects reversed range");
	ok(parse_cpulist("0,", set, 128) == -EINVAL, "cpulist rejects trailing comma");
	ok(parse_cpulist("a", set, 128) == -EINVAL, "cpulist rejects letters");
	ok(parse_cpulist("", set, 128) == -EINVAL, "cpulist rejects empty");
	ok(parse_cpulist("128", set, 128) == -ERANGE, "cpulist rejects a CPU past the maximum");

	ok(strcmp(fmt_size(1ULL << 30, buf, sizeof(buf)), "1 GiB") == 0, "fmt 1 GiB");
	ok(strcmp(fmt_size(3ULL << 21, buf, sizeof(buf)), "6 MiB") == 0, "fmt 6 MiB");
	ok(strcmp(fmt_size(1000, buf, sizeof(buf)), "1000 B") == 0, "fmt 1000 B");
	return done_testing();
}
