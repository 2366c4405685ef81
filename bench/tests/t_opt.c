/* t_opt.c - the declarative option table: values, ranges, errors, help. */
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
};

#define F(x) offsetof(struct cfg, x)
static const struct opt tab[] = {
	{ "n", OPT_UINT, F(n), 1, 1024, 0, 0, NULL, "N", "1", "count" },
	{ "size", OPT_SIZE, F(size), 4096, 1ULL << 40, 0, 0, NULL, "SIZE", NULL, "size" },
	{ "flag", OPT_FLAG, F(flag), 0, 0, 0, 0, NULL, NULL, NULL, "flag" },
	{ "mode", OPT_CHOICE, F(choice), 0, 0, 0, 0, "pud|pmd", NULL, "pud", "choice" },
	{ "name", OPT_STR, F(name), 0, 0, 0, 0, NULL, "TEXT", NULL, "text" },
	{ "x", OPT_DOUBLE, F(x), 0, 0, 0.5, 2, NULL, "X", NULL, "double" },
	{ NULL, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, NULL },
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
	ok(parse(&c, NULL, NULL, "--n", "0", NULL) == EX_USAGE, "below range is a usage error");
	ok(parse(&c, NULL, NULL, "--n", "1025", NULL) == EX_USAGE, "above range is a usage error");
	ok(parse(&c, NULL, NULL, "--n", "1k", NULL) == 0 && c.n == 1000, "count with k suffix");
	ok(parse(&c, NULL, NULL, "--size", "1k", NULL) == EX_USAGE, "size below minimum");
	ok(parse(&c, NULL, NULL, "--size", "lots", NULL) == EX_USAGE, "size syntax error");
	ok(parse(&c, NULL, NULL, "--mode", "pgd", NULL) == EX_USAGE, "unknown choice");
	ok(parse(&c, NULL, NULL, "--bogus", NULL) == EX_USAGE, "unknown option");
	ok(parse(&c, NULL, NULL, "-n", "3", NULL) == EX_USAGE, "short options are refused");
	ok(parse(&c, NULL, NULL, "--n", NULL) == EX_USAGE, "missing value");
	ok(parse(&c, NULL, NULL, "--flag=1", NULL) == EX_USAGE, "a flag takes no value");
	ok(parse(&c, NULL, NULL, "--name", "", NULL) == EX_USAGE, "empty string refused");
	ok(parse(&c, NULL, NULL, "--x", "nan", NULL) == EX_USAGE, "NaN refused");
	ok(parse(&c, NULL, NULL, "--x", "3", NULL) == EX_USAGE, "double out of range");
	ok(parse(&c, NULL, NULL, "stray", NULL) == EX_USAGE, "positional refused when none expected");
	ok(parse(&c, pos, &np, "a", "--flag", "--", "--b", NULL) == 0 && np == 2 &&
	   strcmp(pos[0], "a") == 0 && strcmp(pos[1], "--b") == 0 && c.flag,
	   "positionals collected, -- ends options");
	{
		FILE *f = fopen("/dev/null", "w");

		opt_usage(f, "test", "[OPTIONS]", tab);
		fclose(f);
	}
	ok(opt_choice_index("4k|2m|1g|thp", "thp") == 3, "choice index");
	ok(opt_choice_index("4k|2m|1g|thp", "2") == -1, "choice prefix does not match");
	return done_testing();
}
