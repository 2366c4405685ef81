/* opt.c - table-driven option parsing and help. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/log.h"
#include "lib/opt.h"
#include "lib/parse.h"

int opt_choice_index(const char *choices, const char *word)
{
	size_t wl = strlen(word);
	const char *p = choices;
	int idx = 0;

	while (p && *p) {
		const char *bar = strchr(p, '|');
		size_t l = bar ? (size_t)(bar - p) : strlen(p);

		if (l == wl && strncmp(p, word, l) == 0)
			return idx;
		idx++;
		p = bar ? bar + 1 : NULL;
	}
	return -1;
}

const char *opt_choice_name(const char *choices, int idx, char *buf, size_t len)
{
	const char *p = choices;

	for (int i = 0; p && *p; i++) {
		const char *bar = strchr(p, '|');
		size_t l = bar ? (size_t)(bar - p) : strlen(p);

		if (i == idx) {
			snprintf(buf, len, "%.*s", (int)l, p);
			return buf;
		}
		p = bar ? bar + 1 : NULL;
	}
	snprintf(buf, len, "?");
	return buf;
}

void opt_usage(FILE *f, const char *cmd, const char *synopsis, const struct opt *tab)
{
	fprintf(f, "usage: sgabench %s %s\n\n", cmd, synopsis);
	for (const struct opt *o = tab; o->name; o++) {
		char left[64];

		if (o->type == OPT_FLAG)
			snprintf(left, sizeof(left), "--%s", o->name);
		else if (o->type == OPT_CHOICE)
			snprintf(left, sizeof(left), "--%s %s", o->name, o->choices);
		else
			snprintf(left, sizeof(left), "--%s %s", o->name,
				 o->metavar ? o->metavar : "VALUE");
		fprintf(f, "  %-30s %s", left, o->help);
		if (o->def)
			fprintf(f, " [%s]", o->def);
		fputc('\n', f);
	}
	fprintf(f, "  %-30s %s\n", "-h, --help", "show this help");
}

/* Report a bad value for option o and return EX_USAGE. */
static int bad_value(const char *cmd, const struct opt *o, const char *val, const char *why)
{
	error("%s: --%s '%s': %s", cmd, o->name, val, why);
	hint("see 'sgabench %s --help'", cmd);
	return EX_USAGE;
}

/* Check an unsigned value against the option's range. */
static int check_range(const char *cmd, const struct opt *o, const char *val, uint64_t v)
{
	char why[128];

	if (v < o->min || (o->max && v > o->max)) {
		if (o->max)
			snprintf(why, sizeof(why), "out of range %llu..%llu",
				 (unsigned long long)o->min, (unsigned long long)o->max);
		else
			snprintf(why, sizeof(why), "must be at least %llu",
				 (unsigned long long)o->min);
		return bad_value(cmd, o, val, why);
	}
	return 0;
}

/* Store the value val for option o into cfg. */
static int set_value(const char *cmd, const struct opt *o, void *cfg, const char *val)
{
	char *field = (char *)cfg + o->off;
	uint64_t u;
	double d;
	int ret, idx;

	switch (o->type) {
	case OPT_FLAG:
		*(int *)field = 1;
		return 0;
	case OPT_UINT:
	case OPT_SIZE:
		ret = o->type == OPT_UINT ? parse_count(val, &u) : parse_size(val, &u);
		if (ret == -ERANGE)
			return bad_value(cmd, o, val, "too large");
		if (ret)
			return bad_value(cmd, o, val, o->type == OPT_UINT ?
					 "not a count (e.g. 1000, 10k, 1m)" :
					 "not a size (e.g. 4k, 2m, 1g)");
		ret = check_range(cmd, o, val, u);
		if (ret)
			return ret;
		*(uint64_t *)field = u;
		return 0;
	case OPT_DOUBLE:
		if (parse_double(val, &d))
			return bad_value(cmd, o, val, "not a number");
		if (d < o->dmin || d > o->dmax) {
			char why[96];

			snprintf(why, sizeof(why), "out of range %g..%g", o->dmin, o->dmax);
			return bad_value(cmd, o, val, why);
		}
		*(double *)field = d;
		return 0;
	case OPT_STR:
		if (!*val)
			return bad_value(cmd, o, val, "must not be empty");
		*(const char **)field = val;
		return 0;
	case OPT_CHOICE:
		idx = opt_choice_index(o->choices, val);
		if (idx < 0) {
			char why[160];

			snprintf(why, sizeof(why), "must be one of %s", o->choices);
			return bad_value(cmd, o, val, why);
		}
		*(int *)field = idx;
		return 0;
	}
	return EX_USAGE;
}

/* Find the option named by arg (which starts after "--", up to '=' if any). */
static const struct opt *find_opt(const struct opt *tab, const char *name, size_t len)
{
	for (const struct opt *o = tab; o->name; o++)
		if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
			return o;
	return NULL;
}

int opt_parse(const struct opt *tab, void *cfg, int argc, char **argv,
	      const char *cmd, const char *synopsis, char **pos, int *npos)
{
	int maxpos = npos ? *npos : 0, np = 0;
	int only_pos = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *eq, *val;
		const struct opt *o;
		int ret;

		if (only_pos || a[0] != '-' || a[1] == '\0') {
			if (np >= maxpos) {
				error("%s: unexpected argument '%s'", cmd, a);
				hint("see 'sgabench %s --help'", cmd);
				return EX_USAGE;
			}
			pos[np++] = argv[i];
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_pos = 1;
			continue;
		}
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			opt_usage(stdout, cmd, synopsis, tab);
			return OPT_HELP_SHOWN;
		}
		if (a[1] != '-') {
			error("%s: unknown option '%s'", cmd, a);
			hint("options are long, e.g. --tasks; see 'sgabench %s --help'", cmd);
			return EX_USAGE;
		}
		eq = strchr(a + 2, '=');
		o = find_opt(tab, a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
		if (!o) {
			error("%s: unknown option '%s'", cmd, a);
			hint("see 'sgabench %s --help'", cmd);
			return EX_USAGE;
		}
		if (o->type == OPT_FLAG) {
			if (eq) {
				error("%s: option '--%s' takes no value", cmd, o->name);
				return EX_USAGE;
			}
			val = "1";
		} else if (eq) {
			val = eq + 1;
		} else if (i + 1 < argc) {
			val = argv[++i];
		} else {
			error("%s: option '--%s' needs a value", cmd, o->name);
			hint("see 'sgabench %s --help'", cmd);
			return EX_USAGE;
		}
		ret = set_value(cmd, o, cfg, val);
		if (ret)
			return ret;
	}
	if (npos)
		*npos = np;
	return 0;
}
