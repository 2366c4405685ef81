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

int opt_list_has(const struct opt_list *l, const char *word)
{
	for (unsigned i = 0; i < l->n; i++)
		if (strcmp(l->item[i], word) == 0)
			return 1;
	return 0;
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

int opt_end(const struct opt *o)
{
	return !o->name && !o->rows && !o->rows_fn;
}

const struct opt *opt_rows(const struct opt *o)
{
	return o->rows ? o->rows : o->rows_fn();
}

/* One --help line per option of tab, shared rows in place. */
static void usage_rows(FILE *f, const struct opt *tab)
{
	for (const struct opt *o = tab; !opt_end(o); o++) {
		char left[64];

		if (o->type == OPT_ROWS) {
			usage_rows(f, opt_rows(o));
			continue;
		}
		if (o->flags & OPT_DERIVED)
			continue;
		if (o->type == OPT_FLAG)
			snprintf(left, sizeof(left), "--%s", o->name);
		else if (o->type == OPT_CHOICE || o->type == OPT_CHOICE_N)
			snprintf(left, sizeof(left), "--%s %s", o->name, o->choices);
		else
			snprintf(left, sizeof(left), "--%s %s", o->name,
				 o->metavar ? o->metavar : "VALUE");
		fprintf(f, "  %-30s %s", left, o->help);
		if (o->defhelp)
			fprintf(f, " [%s]", o->defhelp);
		else if (o->def)
			fprintf(f, " [%s]", o->def);
		fputc('\n', f);
	}
}

void opt_usage(FILE *f, const char *cmd, const char *synopsis, const struct opt *tab)
{
	fprintf(f, "usage: sgabench %s %s\n\n", cmd, synopsis);
	usage_rows(f, tab);
	fprintf(f, "  %-30s %s\n", "-h, --help", "show this help");
}

/* Report a bad value for option o and return -EINVAL. */
static int bad_value(const char *cmd, const struct opt *o, const char *val, const char *why)
{
	error("%s: --%s '%s': %s", cmd, o->name, val, why);
	hint("see 'sgabench %s --help'", cmd);
	return -EINVAL;
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

/* Split val at commas into l; an empty, over-long or extra name is an error. */
static int set_list(const char *cmd, const struct opt *o, struct opt_list *l, const char *val)
{
	const char *p = val;
	char why[96];

	l->n = 0;
	while (1) {
		size_t len = strcspn(p, ",");

		if (len == 0)
			return bad_value(cmd, o, val, "has an empty name (two commas, or one at an end)");
		if (len >= OPT_NAME_MAX) {
			snprintf(why, sizeof(why), "a name is longer than %d characters", OPT_NAME_MAX - 1);
			return bad_value(cmd, o, val, why);
		}
		if (l->n == OPT_LIST_MAX) {
			snprintf(why, sizeof(why), "more than %d names", OPT_LIST_MAX);
			return bad_value(cmd, o, val, why);
		}
		snprintf(l->item[l->n++], OPT_NAME_MAX, "%.*s", (int)len, p);
		if (!p[len])
			break;
		p += len + 1;
	}
	l->text = val;
	return 0;
}

/* Parse a CPU list into c; an empty list, bad syntax or a CPU too high is an error. */
static int set_cpus(const char *cmd, const struct opt *o, struct opt_cpus *c, const char *val)
{
	int n = parse_cpulist(val, c->set, OPT_CPUS_MAX);
	char why[96];

	if (n == -ERANGE) {
		snprintf(why, sizeof(why), "CPU numbers go up to %d", OPT_CPUS_MAX - 1);
		return bad_value(cmd, o, val, why);
	}
	if (n <= 0)
		return bad_value(cmd, o, val, "not a CPU list (e.g. 0-3,8)");
	c->text = val;
	c->n = (unsigned)n;
	return 0;
}

/*
 * Parse val against o->choices into c: a plain choice, or "name:N" for a
 * choice written "name:N" in the list, N a decimal number within o->max
 * (when set).
 */
static int set_choice_n(const char *cmd, const struct opt *o, struct opt_choice_n *c, const char *val)
{
	size_t nl = strcspn(val, ":");
	char name[OPT_NAME_MAX + 2], why[160];
	uint64_t n = 0;
	int idx;

	if (nl >= OPT_NAME_MAX)
		goto bad;
	if (val[nl]) {
		/* "node:3" matches the choice written "node:N" */
		snprintf(name, sizeof(name), "%.*s:N", (int)nl, val);
		if (!val[nl + 1] || strspn(val + nl + 1, "0123456789") != strlen(val + nl + 1) ||
		    parse_count(val + nl + 1, &n) || (o->max && n > o->max))
			goto bad;
	} else {
		snprintf(name, sizeof(name), "%s", val);
	}
	idx = opt_choice_index(o->choices, name);
	if (idx < 0)
		goto bad;
	c->text = val;
	c->idx = idx;
	c->n = n;
	return 0;
bad:
	snprintf(why, sizeof(why), "must be one of %s", o->choices);
	return bad_value(cmd, o, val, why);
}

/* Store the value val for option o into the config at base. */
static int set_value(const char *cmd, const struct opt *o, char *base, const char *val)
{
	char *field = base + o->off;
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
	case OPT_LIST:
		return set_list(cmd, o, (struct opt_list *)field, val);
	case OPT_NODE:
		ret = parse_count(val, &u);
		if (ret || strspn(val, "0123456789") != strlen(val))
			return bad_value(cmd, o, val, "not a node number (e.g. 0, 1)");
		ret = check_range(cmd, o, val, u);
		if (ret)
			return ret;
		*(int *)field = (int)u;
		return 0;
	case OPT_CPUS:
		return set_cpus(cmd, o, (struct opt_cpus *)field, val);
	case OPT_CHOICE_N:
		return set_choice_n(cmd, o, (struct opt_choice_n *)field, val);
	case OPT_ROWS:
		break;
	}
	return -EINVAL;
}

int opt_set(const struct opt *o, void *base, const char *val, const char *cmd)
{
	return set_value(cmd, o, base, val);
}

/*
 * Find the option called name (len bytes) in tab and its shared rows; sets
 * *base to where its fields start (cfg, or cfg plus the rows' offset).
 */
static const struct opt *find_opt(const struct opt *tab, char *cfg, const char *name, size_t len,
				  char **base)
{
	for (const struct opt *o = tab; !opt_end(o); o++) {
		if (o->type == OPT_ROWS) {
			const struct opt *r = find_opt(opt_rows(o), cfg + o->off, name, len, base);

			if (r)
				return r;
			continue;
		}
		if (o->flags & OPT_DERIVED)
			continue;
		if (strlen(o->name) == len && strncmp(o->name, name, len) == 0) {
			*base = cfg;
			return o;
		}
	}
	return NULL;
}

/*
 * Apply every default of tab (and its shared rows) to the config at cfg.
 * A .def that does not parse is a bug in the table: it is reported like a
 * bad value, so a test of --help or of any run catches it.
 */
static int apply_defaults(const struct opt *tab, char *cfg, const char *cmd)
{
	for (const struct opt *o = tab; !opt_end(o); o++) {
		int ret = 0;

		if (o->type == OPT_ROWS)
			ret = apply_defaults(opt_rows(o), cfg + o->off, cmd);
		else if (o->def)
			ret = set_value(cmd, o, cfg, o->def);
		else if (o->type == OPT_NODE)
			*(int *)(cfg + o->off) = -1;
		if (ret)
			return ret;
	}
	return 0;
}

int opt_defaults(const struct opt *tab, void *cfg, const char *cmd)
{
	return apply_defaults(tab, cfg, cmd);
}

int opt_parse(const struct opt *tab, void *cfg, int argc, char **argv,
	      const char *cmd, const char *synopsis, char **pos, int *npos)
{
	int maxpos = npos ? *npos : 0, np = 0;
	int only_pos = 0;

	if (cfg) {
		int ret = apply_defaults(tab, cfg, cmd);

		if (ret)
			return ret;
	}

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *eq, *val;
		const struct opt *o;
		char *base = NULL;
		int ret;

		if (only_pos || a[0] != '-' || a[1] == '\0') {
			if (np >= maxpos) {
				error("%s: unexpected argument '%s'", cmd, a);
				hint("see 'sgabench %s --help'", cmd);
				return -EINVAL;
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
			return -EINVAL;
		}
		eq = strchr(a + 2, '=');
		o = find_opt(tab, cfg, a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2), &base);
		if (!o) {
			error("%s: unknown option '%s'", cmd, a);
			hint("see 'sgabench %s --help'", cmd);
			return -EINVAL;
		}
		if (o->type == OPT_FLAG) {
			if (eq) {
				error("%s: option '--%s' takes no value", cmd, o->name);
				return -EINVAL;
			}
			val = "1";
		} else if (eq) {
			val = eq + 1;
		} else if (i + 1 < argc) {
			val = argv[++i];
		} else {
			error("%s: option '--%s' needs a value", cmd, o->name);
			hint("see 'sgabench %s --help'", cmd);
			return -EINVAL;
		}
		ret = set_value(cmd, o, base, val);
		if (ret)
			return ret;
	}
	if (npos)
		*npos = np;
	return 0;
}
