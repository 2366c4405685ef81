/*
 * lib/kver.h - Debian version order and kernel variants.
 *
 * A kernel variant names one kernel as the lab boots it and as runs record
 * it (run.kernel_variant): VERSION[-FLAVOUR][:PARAMS], e.g. 6.1.174-1,
 * 6.1.192-3-rt, 6.12.117-1:transparent_hugepage=never. VERSION is a Debian
 * package version (upstream-revision, the revision starting with a digit);
 * FLAVOUR (rt, cloud) starts with a letter and follows the revision;
 * PARAMS, after the first ':', are the extra boot parameters. A string
 * that is not of this form (a plain 'uname -r' such as 6.18.44-fc-v1252)
 * is all VERSION.
 */
#ifndef SGA_KVER_H
#define SGA_KVER_H

#include <stddef.h>

/*
 * Compare two Debian versions ([EPOCH:]UPSTREAM[-REVISION]) as dpkg does
 * (deb-version(7)): the epoch as a number, then the upstream version and
 * the revision, each as alternating non-digit parts (compared character
 * by character: '~' before the end, the end before letters, letters
 * before other characters) and digit parts (compared as numbers).
 * Returns < 0, 0 or > 0.
 */
int debver_cmp(const char *a, const char *b);

/* The three parts of a kernel variant, as offsets into it. */
struct kvariant {
	char version[128];
	char flavour[32];	/* "" for the plain kernel */
	char params[256];	/* "" without extra boot parameters */
};

/* Split variant v into its parts (see above); each part is truncated to fit. */
void kvariant_parse(const char *v, struct kvariant *out);

/*
 * The order of kernel variants for 'history --by kernel': by VERSION in
 * Debian order, then the plain kernel before its flavours (flavours by
 * name), then no boot parameters before any (parameters by text), so
 * every variant has one place. Returns < 0, 0 or > 0; 0 only when a and b
 * are the same text (a version that dpkg calls equal, 1.0 and 1.00, is
 * ordered by its text last).
 */
int kvariant_cmp(const char *a, const char *b);

/*
 * The variant of the running kernel from what it reports: the Debian
 * package version in proc_version (/proc/version: "... Debian 6.1.174-1
 * (2025-...)"), with "-rt" or "-cloud" when the release (uname -r, e.g.
 * 6.1.0-37-rt-amd64) names that flavour; else the release itself. Into
 * buf; "unknown" when both are empty.
 */
void kvariant_derive(const char *proc_version, const char *release, char *buf, size_t len);

/*
 * The variant of this machine's kernel, as runs record it: SGABENCH_KERNEL_VARIANT
 * when set (the lab names the kernel it booted, boot parameters included),
 * else kvariant_derive from /proc/version and release (uname -r). A value
 * that kvariant_ok refuses is warned about (once) and derived instead.
 */
void kvariant_current(const char *release, char *buf, size_t len);

/* Whether s can be a kernel variant: 1-127 printable characters but '|' (which
 * separates variants in compare's kernel:V1|V2). */
int kvariant_ok(const char *s);

#endif
