/* t_kver.c - Debian version order (dpkg's) and kernel variants. */
#include <string.h>
#include "lib/kver.h"
#include "tap.h"

static int sign(int x)
{
	return (x > 0) - (x < 0);
}

/* a < b, b > a, and each equal to itself. */
static void lt(const char *a, const char *b)
{
	ok(sign(debver_cmp(a, b)) == -1 && sign(debver_cmp(b, a)) == 1 && debver_cmp(a, a) == 0,
	   "%s < %s", a, b);
}

static void kv_lt(const char *a, const char *b)
{
	ok(sign(kvariant_cmp(a, b)) == -1 && sign(kvariant_cmp(b, a)) == 1 && kvariant_cmp(a, a) == 0,
	   "variant %s before %s", a, b);
}

static void parse_is(const char *v, const char *ver, const char *fl, const char *par)
{
	struct kvariant k;

	kvariant_parse(v, &k);
	ok(!strcmp(k.version, ver) && !strcmp(k.flavour, fl) && !strcmp(k.params, par),
	   "%s = version '%s' flavour '%s' params '%s' (got '%s' '%s' '%s')", v, ver, fl, par,
	   k.version, k.flavour, k.params);
}

static void derive_is(const char *pv, const char *rel, const char *want)
{
	char buf[128];

	kvariant_derive(pv, rel, buf, sizeof(buf));
	ok(!strcmp(buf, want), "derived '%s' from release %s (got '%s')", want, rel, buf);
}

int main(void)
{
	/* the Debian kernels of issue 27, in the archive's order */
	lt("6.1.170-3", "6.1.172-1");
	lt("6.1.172-1", "6.1.192-1");
	lt("6.1.192-1", "6.1.192-3");
	lt("6.1.192-3", "6.12.107-1");
	lt("6.12.107-1", "6.12.117-1");
	lt("6.1.9-1", "6.1.10-1");		/* numbers, not text: 9 < 10 */
	/* deb-version(7)'s rules, pairs checked against dpkg --compare-versions */
	lt("1.0~rc1", "1.0");			/* ~ sorts before the end */
	lt("1.0~~", "1.0~");
	lt("1.0", "1.0a");			/* the end before a letter */
	lt("1.0a", "1.0+");			/* letters before other characters */
	lt("1.0-1", "1.0-1+deb12u1");
	lt("6.1.192-3~bpo11+1", "6.1.192-3");	/* a backport before the release */
	lt("2.0", "1:1.0");			/* the epoch first */
	lt("1.0", "1.0-1");			/* no revision before revision 1 */
	lt("1.2-3", "1.10-1");
	ok(debver_cmp("1.00", "1.0") == 0 && debver_cmp("01:1.0", "1:1.0") == 0,
	   "leading zeros do not count (1.00 = 1.0, epoch 01 = 1)");
	ok(debver_cmp("1.0-0", "1.0") == 0, "revision 0 equals no revision, as dpkg says");

	parse_is("6.1.174-1", "6.1.174-1", "", "");
	parse_is("6.1.192-3-rt", "6.1.192-3", "rt", "");
	parse_is("6.12.117-1:transparent_hugepage=never", "6.12.117-1", "", "transparent_hugepage=never");
	parse_is("6.1.192-3-cloud:nokaslr mitigations=off", "6.1.192-3", "cloud", "nokaslr mitigations=off");
	parse_is("6.18.44-fc-v1252", "6.18.44-fc-v1252", "", "");

	/* the documented tie-break: version, then plain before flavours, then no parameters first */
	kv_lt("6.1.174-1", "6.1.176-1");
	kv_lt("6.1.192-3", "6.1.192-3-cloud");
	kv_lt("6.1.192-3-cloud", "6.1.192-3-rt");
	kv_lt("6.1.192-3-rt", "6.12.107-1");
	kv_lt("6.12.117-1", "6.12.117-1:transparent_hugepage=never");
	kv_lt("6.12.117-1:transparent_hugepage=never", "6.12.117-1-rt");
	kv_lt("6.1.9-1", "6.1.10-1-rt");
	ok(kvariant_cmp("1.00-1", "1.0-1") != 0, "versions dpkg calls equal still have one order");

	derive_is("Linux version 6.1.0-37-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0) "
		  "#1 SMP PREEMPT_DYNAMIC Debian 6.1.174-1 (2025-06-01)\n", "6.1.0-37-amd64", "6.1.174-1");
	derive_is("Linux version 6.1.0-40-rt-arm64 (...) #1 SMP PREEMPT_RT Debian 6.1.192-3 (2026-01-02)\n",
		  "6.1.0-40-rt-arm64", "6.1.192-3-rt");
	derive_is("Linux version 6.1.0-40-cloud-amd64 (...) #1 SMP Debian 6.1.192-3 (2026-01-02)\n",
		  "6.1.0-40-cloud-amd64", "6.1.192-3-cloud");
	derive_is("Linux version 6.18.44-fc-v1252 (builder@sandboxing) (gcc (GCC) 15.3.0) #1 SMP\n",
		  "6.18.44-fc-v1252", "6.18.44-fc-v1252");
	derive_is("", "", "unknown");
	ok(kvariant_ok("6.12.117-1:transparent_hugepage=never") && kvariant_ok("6.1.174-1:a=1 b=2") &&
	   !kvariant_ok("6.1\n") && !kvariant_ok("") && !kvariant_ok("6.1.174-1|6.1.176-1"),
	   "a variant is 1-127 printable characters but |");
	return done_testing();
}
