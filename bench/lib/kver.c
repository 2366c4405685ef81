/* lib/kver.c - Debian version order and kernel variants (kver.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/kver.h"
#include "lib/log.h"

/* The weight of a non-digit character in a version: '~' < end < letters < the rest. */
static int weight(int c)
{
	if (c == '\0')
		return 0;
	if (c == '~')
		return -1;
	if (isalpha(c))
		return c;
	return c + 256;
}

/* Compare one part (upstream or revision), a[0..al) against b[0..bl). */
static int part_cmp(const char *a, size_t al, const char *b, size_t bl)
{
	size_t i = 0, k = 0;

	while (i < al || k < bl) {
		/* the non-digit run */
		while ((i < al && !isdigit((unsigned char)a[i])) || (k < bl && !isdigit((unsigned char)b[k]))) {
			int wa = i < al && !isdigit((unsigned char)a[i]) ? weight((unsigned char)a[i]) : 0;
			int wb = k < bl && !isdigit((unsigned char)b[k]) ? weight((unsigned char)b[k]) : 0;

			if (wa != wb)
				return wa < wb ? -1 : 1;
			if (i < al && !isdigit((unsigned char)a[i]))
				i++;
			if (k < bl && !isdigit((unsigned char)b[k]))
				k++;
		}
		/* the digit run, as a number of any length */
		while (i < al && a[i] == '0')
			i++;
		while (k < bl && b[k] == '0')
			k++;
		size_t da = i, db = k;
		int first = 0;

		while (da < al && isdigit((unsigned char)a[da]))
			da++;
		while (db < bl && isdigit((unsigned char)b[db]))
			db++;
		if (da - i != db - k)
			return da - i < db - k ? -1 : 1;
		for (; i < da; i++, k++)
			if (!first && a[i] != b[k])
				first = a[i] < b[k] ? -1 : 1;
		if (first)
			return first;
	}
	return 0;
}

/* Split a Debian version into epoch, upstream [u, u + ul) and revision [r, r + rl). */
static void split(const char *v, unsigned long *epoch, const char **u, size_t *ul, const char **r,
		  size_t *rl)
{
	const char *colon = strchr(v, ':'), *dash;

	*epoch = 0;
	if (colon && colon > v && strspn(v, "0123456789") == (size_t)(colon - v)) {
		*epoch = strtoul(v, NULL, 10);
		v = colon + 1;
	}
	dash = strrchr(v, '-');
	*u = v;
	*ul = dash ? (size_t)(dash - v) : strlen(v);
	*r = dash ? dash + 1 : "";
	*rl = strlen(*r);
}

int debver_cmp(const char *a, const char *b)
{
	unsigned long ea, eb;
	const char *ua, *ra, *ub, *rb;
	size_t ual, ral, ubl, rbl;
	int c;

	split(a ? a : "", &ea, &ua, &ual, &ra, &ral);
	split(b ? b : "", &eb, &ub, &ubl, &rb, &rbl);
	if (ea != eb)
		return ea < eb ? -1 : 1;
	c = part_cmp(ua, ual, ub, ubl);
	return c ? c : part_cmp(ra, ral, rb, rbl);
}

void kvariant_parse(const char *v, struct kvariant *out)
{
	const char *colon = strchr(v, ':'), *rev, *fl = NULL;
	size_t vl = colon ? (size_t)(colon - v) : strlen(v);

	memset(out, 0, sizeof(*out));
	if (colon)
		snprintf(out->params, sizeof(out->params), "%s", colon + 1);
	rev = memchr(v, '-', vl);
	if (rev && isdigit((unsigned char)rev[1])) {
		/* the flavour: the first '-' after the revision that a letter follows */
		for (const char *p = rev + 1; p < v + vl; p++)
			if (*p == '-' && isalpha((unsigned char)p[1])) {
				fl = p;
				break;
			}
	}
	if (fl) {
		snprintf(out->flavour, sizeof(out->flavour), "%.*s", (int)(v + vl - fl - 1), fl + 1);
		vl = (size_t)(fl - v);
	}
	snprintf(out->version, sizeof(out->version), "%.*s", (int)vl, v);
}

int kvariant_cmp(const char *a, const char *b)
{
	struct kvariant x, y;
	int c;

	kvariant_parse(a, &x);
	kvariant_parse(b, &y);
	c = debver_cmp(x.version, y.version);
	if (!c)
		c = strcmp(x.flavour, y.flavour);	/* "" (the plain kernel) first */
	if (!c)
		c = strcmp(x.params, y.params);		/* "" (no parameters) first */
	return c ? c : strcmp(a, b);
}

/* Whether word is one of the '-'-separated words of s. */
static int has_word(const char *s, const char *word)
{
	size_t l = strlen(word);

	for (const char *p = s; p && (p = strstr(p, word)); p++)
		if ((p == s || p[-1] == '-') && (p[l] == '-' || p[l] == '\0'))
			return 1;
	return 0;
}

void kvariant_derive(const char *proc_version, const char *release, char *buf, size_t len)
{
	const char *d = proc_version ? strstr(proc_version, " Debian ") : NULL;
	const char *fl = "";

	if (release && has_word(release, "rt"))
		fl = "-rt";
	else if (release && has_word(release, "cloud"))
		fl = "-cloud";
	if (d) {
		size_t n;

		d += strlen(" Debian ");
		n = strcspn(d, " \t\n(");
		if (n && isdigit((unsigned char)*d)) {
			snprintf(buf, len, "%.*s%s", (int)n, d, fl);
			return;
		}
	}
	snprintf(buf, len, "%s", release && *release ? release : "unknown");
}

int kvariant_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (n < 1 || n > 127)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isprint((unsigned char)s[i]) || s[i] == '|')
			return 0;
	return 1;
}

void kvariant_current(const char *release, char *buf, size_t len)
{
	static int warned;
	const char *env = getenv("SGABENCH_KERNEL_VARIANT");
	char pv[512] = "";
	FILE *f;

	if (env && *env && kvariant_ok(env)) {
		snprintf(buf, len, "%s", env);
		return;
	}
	if (env && *env && !warned++)
		warning("SGABENCH_KERNEL_VARIANT is not a kernel variant (1-127 printable characters):"
			" deriving it from the running kernel");
	f = fopen("/proc/version", "r");
	if (f) {
		if (!fgets(pv, sizeof(pv), f))
			pv[0] = '\0';
		fclose(f);
	}
	kvariant_derive(pv, release, buf, len);
}
