/* opt.h - one declarative option table feeds the parser and --help (fio style). */
#ifndef SGA_OPT_H
#define SGA_OPT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum opt_type {
	OPT_FLAG,	/* int, set to 1; takes no value */
	OPT_UINT,	/* uint64_t, parse_count(): 1000, 10k, 1m */
	OPT_SIZE,	/* uint64_t, parse_size(): 4k, 2m, 1g */
	OPT_DOUBLE,	/* double, range dmin..dmax */
	OPT_STR,	/* const char *, points into argv */
	OPT_CHOICE,	/* int, index of the value in "a|b|c" */
	OPT_LIST,	/* struct opt_list: a comma-separated list of names */
	OPT_NODE,	/* int, a NUMA node number 0..max; -1 when not given */
	OPT_ROWS,	/* no option: the rows of .rows, their fields at .off + their own */
};

#define OPT_LIST_MAX 32
#define OPT_NAME_MAX 64

/* A parsed comma list: the text as given, and each name (none empty, none cut). */
struct opt_list {
	const char *text;		/* NULL when not given */
	unsigned n;
	char item[OPT_LIST_MAX][OPT_NAME_MAX];
};

struct opt {
	const char *name;	/* long name without the leading "--" */
	enum opt_type type;
	size_t off;		/* offsetof() the field in the config struct */
	uint64_t min, max;	/* inclusive range for OPT_UINT/OPT_SIZE (max 0: none) */
	double dmin, dmax;	/* inclusive range for OPT_DOUBLE */
	const char *choices;	/* OPT_CHOICE: "a|b|c" */
	const char *metavar;	/* shown in --help, e.g. "N" or "SIZE" */
	const char *def;	/* the default, parsed like a given value before argv; NULL: none */
	const char *defhelp;	/* --help text for a default that is not a literal ("the SGA") */
	const char *help;	/* one line */
	const struct opt *rows;	/* OPT_ROWS: a shared table (e.g. --db, --json, --label) */
};

/* Returned by opt_parse() when --help was printed: the caller exits 0. */
#define OPT_HELP_SHOWN (-1)

/*
 * Parse argv[1..] against tab (terminated by an entry with name NULL and
 * type 0), storing values into cfg. First every row's .def is applied as if
 * given (so the table is the one source of defaults; fields without one keep
 * what cfg held, normally 0 and -1 for OPT_NODE), then argv. Accepts "--name value" and "--name=value";
 * "--" ends options. Positional arguments are collected in order into
 * pos (at most *npos, which is updated to the number found).
 * Returns 0, OPT_HELP_SHOWN after printing help for "-h"/"--help",
 * or EX_USAGE after printing a one-line error and a hint.
 */
int opt_parse(const struct opt *tab, void *cfg, int argc, char **argv,
	      const char *cmd, const char *synopsis, char **pos, int *npos);

/*
 * Apply the defaults of tab to cfg, as opt_parse does before argv: for a
 * caller that fills a configuration without a command line (e.g. `table`
 * building `sim` runs). Returns 0, or EX_USAGE if a .def does not parse.
 */
int opt_defaults(const struct opt *tab, void *cfg, const char *cmd);

/* Print "usage: sgabench CMD SYNOPSIS" and one line per option. */
void opt_usage(FILE *f, const char *cmd, const char *synopsis, const struct opt *tab);

/* Whether list l names word. */
int opt_list_has(const struct opt_list *l, const char *word);

/* Return the index of word in "a|b|c", or -1. */
int opt_choice_index(const char *choices, const char *word);

/* Copy the name of choice idx of "a|b|c" into buf; returns buf ("?" if out of range). */
const char *opt_choice_name(const char *choices, int idx, char *buf, size_t len);

#endif
