/* t_opt.c - the declarative option table: values, ranges, errors, help. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "lib/log.h"
#include "lib/opt.h"
#include "tap.h"

struct cfg {
	uint64_t n;
	uint64_t size;
	int flag;
	int choice;
	const char *name;
	double x;
	struct opt_list list;
	int node;
	struct { const char *db; int json; } shared;
};

/* Shared rows, as builtin/backend_cmd.c shares --db and --json between commands. */
static const struct opt shared_rows[] = {
	{ .name = "db", .type = OPT_STR, .off = 0,
	  .metavar = "PATH", .def = "results/x.db",
	  .help = "database" },
	{ .name = "json", .type = OPT_FLAG, .off = sizeof(const char *),
	  .help = "json" },
	{ NULL },
};

#define F(x) offsetof(struct cfg, x)
static const struct opt tab[] = {
	{ .name = "n", .type = OPT_UINT, .off = F(n), .min = 1, .max = 1024,
	  .metavar = "N", .def = "1",
	  .help = "count" },
	{ .name = "size", .type = OPT_SIZE, .off = F(size), .min = 4096, .max = 1ULL << 40,
	  .metavar = "SIZE",
	  .help = "size" },
	{ .name = "flag", .type = OPT_FLAG, .off = F(flag),
	  .help = "flag" },
	{ .name = "mode", .type = OPT_CHOICE, .off = F(choice), .choices = "pud|pmd",
	  .def = "pud",
	  .help = "choice" },
	{ .name = "name", .type = OPT_STR, .off = F(name),
	  .metavar = "TEXT",
	  .help = "text" },
	{ .name = "x", .type = OPT_DOUBLE, .off = F(x), .dmin = 0.5, .dmax = 2,
	  .metavar = "X",
	  .help = "double" },
	{ .name = "list", .type = OPT_LIST, .off = F(list),
	  .metavar = "A,B",
	  .help = "list" },
	{ .name = "node", .type = OPT_NODE, .off = F(node), .max = 7,
	  .metavar = "N",
	  .help = "node" },
	{ .type = OPT_ROWS, .rows = shared_rows, .off = F(shared) },
	{ NULL },
};

/* Parse a NULL-terminated argument list into c; returns opt_parse's result. */
static int parse(struct cfg *c, char **pos, int *npos, const char *a0, ...)
{
	char *argv[32];
	int argc = 0;
	va_list ap;

	memset(c, 0, sizeof(*c));
	argv[argc++] = (char *)"test";
	va_start(ap, a0);
	for (const char *a = a0; a && argc < 31; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	return opt_parse(tab, c, argc, argv, "test", "[OPTIONS]", pos, npos);
}

/* What opt_render() names a run by: order, unset texts, IF_SET, IF_CHANGED, raw JSON. */
struct named {
	uint64_t size, extra, knob;
	int mode, node;
	const char *text, *raw;
};

#define N(x) offsetof(struct named, x)

static const struct opt named_rows[] = {
	{ .name = "size", .type = OPT_SIZE, .off = N(size), .def = "4k", .cell = "sz", .cell_at = 2,
	  .conf = "size_bytes" },
	{ .name = "mode", .type = OPT_CHOICE, .off = N(mode), .choices = "a|b", .def = "b", .cell = "mode",
	  .cell_at = 1, .conf = "mode" },
	{ .name = "node", .type = OPT_NODE, .off = N(node), .cell = "node", .cell_at = 3, .conf = "node",
	  .unset = "none" },
	{ .name = "text", .type = OPT_STR, .off = N(text), .conf = "text" },
	{ .name = "extra", .type = OPT_UINT, .off = N(extra), .cell = "extra", .cell_at = 4, .conf = "extra",
	  .flags = OPT_IF_SET },
	{ .name = "knob", .type = OPT_UINT, .off = N(knob), .def = "5", .cell = "knob", .cell_at = 3,
	  .flags = OPT_IF_CHANGED },
	{ .name = "raw", .type = OPT_STR, .off = N(raw), .conf = "raw", .flags = OPT_DERIVED | OPT_RAW_JSON },
	{ NULL },
};

static void check_render(void)
{
	struct named v = { 0 };
	char cell[256], json[256], *argv[] = { "t", "--extra", "2", "--knob", "6", "--node", "1" };

	opt_defaults(named_rows, &v, "t");
	v.raw = "{\"k\":[1]}";
	ok(opt_render(named_rows, &v, cell, sizeof(cell), json, sizeof(json)) == 0, "opt_render: 0");
	ok(strcmp(cell, "mode=b sz=4096 node=none") == 0, "cell in .cell_at order, node unset, extra and knob left out: %s", cell);
	ok(strcmp(json, "{\"size_bytes\":4096,\"mode\":\"b\",\"node\":null,\"text\":null,\"raw\":{\"k\":[1]}}") == 0,
	   "configuration in row order, null for unset, raw JSON as it is: %s", json);
	ok(opt_parse(named_rows, &v, 7, argv, "t", "", NULL, NULL) == 0, "parse --extra --knob --node");
	v.raw = NULL;
	opt_render(named_rows, &v, cell, sizeof(cell), json, sizeof(json));
	ok(strcmp(cell, "mode=b sz=4096 node=1 knob=6 extra=2") == 0, "set values join the cell, ties in row order: %s", cell);
	ok(strstr(json, "\"node\":\"1\",\"text\":null,\"extra\":2,\"raw\":null}"), "node as text, extra stored: %s", json);
	ok(opt_render(named_rows, &v, cell, 10, json, sizeof(json)) == -ENOSPC, "a cell too long for its buffer is -ENOSPC");
	ok(opt_render(named_rows, &v, cell, sizeof(cell), json, 20) == -ENOSPC && strlen(json) < 20,
	   "a configuration too long for its buffer is -ENOSPC, cut and terminated");
	argv[1] = "--raw";
	ok(opt_parse(named_rows, &v, 3, argv, "t", "", NULL, NULL) == -EINVAL, "a derived row is no option");
}

/* opt_is_default(): a row's value against its .def, or 0 / none without one. */
static void check_is_default(void)
{
	struct named v = { 0 };
	char *argv[] = { "t", "--size", "4096", "--knob", "6", "--mode", "a" };

	opt_defaults(named_rows, &v, "t");
	ok(opt_is_default(&named_rows[0], &v) && opt_is_default(&named_rows[1], &v) &&
	   opt_is_default(&named_rows[2], &v) && opt_is_default(&named_rows[4], &v) &&
	   opt_is_default(&named_rows[5], &v), "opt_is_default: every row at its default after opt_defaults");
	ok(opt_parse(named_rows, &v, 7, argv, "t", "", NULL, NULL) == 0, "parse --size 4096 --knob 6 --mode a");
	ok(opt_is_default(&named_rows[0], &v), "--size 4096 is the default 4k, written otherwise");
	ok(!opt_is_default(&named_rows[5], &v) && !opt_is_default(&named_rows[1], &v),
	   "--knob 6 and --mode a are not the defaults 5 and b");
	ok(opt_is_default(&named_rows[4], &v), "--extra not given is 0, its default without a .def");
}

/* opt_join_names(): "--a", "--a and --b", "--a, --b and --c"; cut to the buffer. */
static void check_join_names(void)
{
	const char *name[] = { "timing", "hz", "jitter" };
	char b[64], small[8];

	opt_join_names(name, 1, b, sizeof(b));
	ok(strcmp(b, "--timing") == 0, "one name: %s", b);
	opt_join_names(name, 2, b, sizeof(b));
	ok(strcmp(b, "--timing and --hz") == 0, "two: %s", b);
	opt_join_names(name, 3, b, sizeof(b));
	ok(strcmp(b, "--timing, --hz and --jitter") == 0, "three: %s", b);
	opt_join_names(name, 3, small, sizeof(small));
	ok(strcmp(small, "--timin") == 0, "cut to its buffer, terminated: %s", small);
	opt_join_names(name, 0, b, sizeof(b));
	ok(b[0] == '\0', "none: empty");
}

int main(void)
{
	struct cfg c;
	char *pos[4];
	int np = 4;

	log_verbosity = 0;
	ok(parse(&c, NULL, NULL, "--n", "8", "--size=2m", "--flag", "--mode", "pmd",
		 "--name", "x y", "--x", "1.5", NULL) == 0, "all option types parse");
	ok(c.n == 8 && c.size == (2u << 20) && c.flag == 1 && c.choice == 1 &&
	   strcmp(c.name, "x y") == 0 && c.x == 1.5, "values stored at their offsets");
	ok(parse(&c, NULL, NULL, "--n", "0", NULL) == -EINVAL, "below range is a usage error");
	ok(parse(&c, NULL, NULL, "--n", "1025", NULL) == -EINVAL, "above range is a usage error");
	ok(parse(&c, NULL, NULL, "--n", "1k", NULL) == 0 && c.n == 1000, "count with k suffix");
	ok(parse(&c, NULL, NULL, "--size", "1k", NULL) == -EINVAL, "size below minimum");
	ok(parse(&c, NULL, NULL, "--size", "lots", NULL) == -EINVAL, "size syntax error");
	ok(parse(&c, NULL, NULL, "--mode", "pgd", NULL) == -EINVAL, "unknown choice");
	ok(parse(&c, NULL, NULL, "--bogus", NULL) == -EINVAL, "unknown option");
	ok(parse(&c, NULL, NULL, "-n", "3", NULL) == -EINVAL, "short options are refused");
	ok(parse(&c, NULL, NULL, "--n", NULL) == -EINVAL, "missing value");
	ok(parse(&c, NULL, NULL, "--flag=1", NULL) == -EINVAL, "a flag takes no value");
	ok(parse(&c, NULL, NULL, "--name", "", NULL) == -EINVAL, "empty string refused");
	ok(parse(&c, NULL, NULL, "--x", "nan", NULL) == -EINVAL, "NaN refused");
	ok(parse(&c, NULL, NULL, "--x", "3", NULL) == -EINVAL, "double out of range");
	ok(parse(&c, NULL, NULL, "stray", NULL) == -EINVAL, "positional refused when none expected");
	ok(parse(&c, pos, &np, "a", "--flag", "--", "--b", NULL) == 0 && np == 2 &&
	   strcmp(pos[0], "a") == 0 && strcmp(pos[1], "--b") == 0 && c.flag,
	   "positionals collected, -- ends options");
	{
		FILE *f = fopen("/dev/null", "w");

		opt_usage(f, "test", "[OPTIONS]", tab);
		fclose(f);
	}
	/* the table is the one source of defaults */
	ok(parse(&c, NULL, NULL, NULL) == 0 && c.n == 1 && c.choice == 0 && c.size == 0 && !c.name,
	   "a row's .def is applied; a row without one keeps the caller's 0");
	ok(c.node == -1 && c.list.n == 0 && !c.list.text, "an absent node is -1, an absent list empty");
	ok(strcmp(c.shared.db, "results/x.db") == 0 && !c.shared.json, "shared rows get their defaults too");
	ok(parse(&c, NULL, NULL, "--db", "a.db", "--json", NULL) == 0 &&
	   strcmp(c.shared.db, "a.db") == 0 && c.shared.json == 1, "shared rows parse at their offset");
	ok(parse(&c, NULL, NULL, "--list", "a,bb,c", NULL) == 0 && c.list.n == 3 &&
	   strcmp(c.list.item[1], "bb") == 0 && strcmp(c.list.text, "a,bb,c") == 0 &&
	   opt_list_has(&c.list, "c") && !opt_list_has(&c.list, "b"), "a list is split at commas");
	ok(parse(&c, NULL, NULL, "--list", "a,,b", NULL) == -EINVAL, "an empty list name is refused");
	ok(parse(&c, NULL, NULL, "--list", "a,", NULL) == -EINVAL, "a trailing comma is refused");
	{
		char big[80];

		memset(big, 'e', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		ok(parse(&c, NULL, NULL, "--list", big, NULL) == -EINVAL,
		   "a name too long for the list is refused, not cut");
	}
	ok(parse(&c, NULL, NULL, "--list", "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,"
		 "a1,b1,c1,d1,e1,f1,g1", NULL) == -EINVAL, "more names than the list holds are refused");
	ok(parse(&c, NULL, NULL, "--node", "3", NULL) == 0 && c.node == 3, "a node number");
	ok(parse(&c, NULL, NULL, "--node", "8", NULL) == -EINVAL, "a node above the range");
	ok(parse(&c, NULL, NULL, "--node", "-1", NULL) == -EINVAL, "a negative node");
	ok(parse(&c, NULL, NULL, "--node", "1k", NULL) == -EINVAL, "a node with a suffix");
	ok(opt_choice_index("4k|2m|1g|thp", "thp") == 3, "choice index");
	ok(opt_choice_index("4k|2m|1g|thp", "2") == -1, "choice prefix does not match");
	check_render();
	check_is_default();
	check_join_names();
	return done_testing();
}
