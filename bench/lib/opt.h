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
	OPT_CPUS,	/* struct opt_cpus: a CPU list such as 0-3,8 */
	OPT_CHOICE_N,	/* struct opt_choice_n: one of .choices, where "name:N" takes a number */
	OPT_ROWS,	/* no option: the rows of .rows (or .rows_fn()), their fields at .off + their own */
};

/* .flags of a row */
#define OPT_DERIVED	0x1	/* no option: a value the backend fills before naming a run (not parsed, not in --help) */
#define OPT_IF_SET	0x2	/* left out of the cell and the configuration while 0 or not given */
#define OPT_IF_CHANGED	0x4	/* left out of the cell while it is the default: a new row keeps older cells */
#define OPT_RAW_JSON	0x8	/* OPT_STR holding JSON text, stored in the configuration as it is */

#define OPT_LIST_MAX 32
#define OPT_NAME_MAX 64

/* A parsed comma list: the text as given, and each name (none empty, none cut). */
struct opt_list {
	const char *text;		/* NULL when not given */
	unsigned n;
	char item[OPT_LIST_MAX][OPT_NAME_MAX];
};

#define OPT_CPUS_MAX 4096

/* A parsed CPU list: the text as given (NULL when not given) and its CPUs. */
struct opt_cpus {
	const char *text;
	unsigned n;				/* CPUs in set */
	uint64_t set[OPT_CPUS_MAX / 64];	/* bit c: CPU c */
};

/*
 * A parsed choice of "a|b|name:N": the text as given, the index of the
 * choice, and its number when the choice is written "name:N" (else 0).
 */
struct opt_choice_n {
	const char *text;
	int idx;
	uint64_t n;
};

struct opt {
	const char *name;	/* long name without the leading "--" */
	enum opt_type type;
	size_t off;		/* offsetof() the field in the config struct */
	uint64_t min, max;	/* inclusive range for OPT_UINT/OPT_SIZE (max 0: none) */
	double dmin, dmax;	/* inclusive range for OPT_DOUBLE */
	const char *choices;	/* OPT_CHOICE: "a|b|c"; OPT_CHOICE_N: "a|b|name:N" */
	const char *metavar;	/* shown in --help, e.g. "N" or "SIZE" */
	const char *def;	/* the default, parsed like a given value before argv; NULL: none */
	const char *defhelp;	/* --help text for a default that is not a literal ("the SGA") */
	const char *help;	/* one line */
	const struct opt *rows;	/* OPT_ROWS: a shared table (e.g. --db, --json, --label) */
	const struct opt *(*rows_fn)(void);	/* OPT_ROWS: a table known only at run time */
	/* How a run is named (opt_render): */
	const char *cell;	/* key in the cell "k=v k=v"; NULL: the value does not change the result */
	int cell_at;		/* place of the key in the cell (ties keep the rows' order); rows
				   of an OPT_ROWS row that have none take that row's */
	const char *conf;	/* key in the stored configuration JSON; NULL: not stored */
	const char *unset;	/* cell text of a value not given (a NULL text, node -1) */
	unsigned flags;		/* OPT_DERIVED, OPT_IF_SET, OPT_IF_CHANGED, OPT_RAW_JSON */
};

/* Returned by opt_parse() when --help was printed: the caller exits 0. */
#define OPT_HELP_SHOWN 1001

/*
 * Parse argv[1..] against tab (terminated by an entry with name NULL and
 * type 0), storing values into cfg. First every row's .def is applied as if
 * given (so the table is the one source of defaults; fields without one keep
 * what cfg held, normally 0 and -1 for OPT_NODE), then argv. Accepts "--name value" and "--name=value";
 * "--" ends options. Positional arguments are collected in order into
 * pos (at most *npos, which is updated to the number found).
 * Returns 0, OPT_HELP_SHOWN after printing help for "-h"/"--help",
 * or -EINVAL after printing a one-line error and a hint.
 */
int opt_parse(const struct opt *tab, void *cfg, int argc, char **argv,
	      const char *cmd, const char *synopsis, char **pos, int *npos);

/*
 * Apply the defaults of tab to cfg, as opt_parse does before argv: for a
 * caller that fills a configuration without a command line (e.g. `table`
 * building `sim` runs). Returns 0, or -EINVAL if a .def does not parse.
 */
int opt_defaults(const struct opt *tab, void *cfg, const char *cmd);

/*
 * Store the text val as the value of row o into the configuration at
 * base, as if given on the command line of cmd (errors are printed).
 * Returns 0 or -EINVAL.
 */
int opt_set(const struct opt *o, void *base, const char *val, const char *cmd);

/*
 * Name a run from the rows of tab over its configuration cfg: the cell
 * key, every row with a .cell as "key=value" joined by spaces in .cell_at
 * order, into cell; and the configuration, every row with a .conf in the
 * rows' order, as one JSON object into json. Returns 0, or -ENOSPC when
 * a buffer is too small (the texts are then cut).
 */
int opt_render(const struct opt *tab, const void *cfg, char *cell, size_t cell_len,
	       char *json, size_t json_len);

/* Whether row o's value in the configuration cfg is its default (.def,
 * or 0 / none without one), compared as the cell writes values. */
int opt_is_default(const struct opt *o, const void *cfg);

/* The k option names (without "--") as "--a", "--a and --b" or "--a, --b
 * and --c" into buf, for a message that names what it refuses. */
void opt_join_names(const char *const *name, unsigned k, char *buf, size_t n);

/* Print "NAME<TAB>KEY" for every row of tab with a .cell: which word of
 * the cell each option (or derived value) writes. */
void opt_cell_keys(FILE *f, const struct opt *tab);

/* The rows of an OPT_ROWS row: .rows, or what .rows_fn gives. */
const struct opt *opt_rows(const struct opt *o);

/* Whether o ends a table: no name and no shared rows. */
int opt_end(const struct opt *o);

/* Print "usage: sgabench CMD SYNOPSIS" and one line per option. */
void opt_usage(FILE *f, const char *cmd, const char *synopsis, const struct opt *tab);

/* Whether list l names word. */
int opt_list_has(const struct opt_list *l, const char *word);

/* Return the index of word in "a|b|c", or -1. */
int opt_choice_index(const char *choices, const char *word);

/* Copy the name of choice idx of "a|b|c" into buf; returns buf ("?" if out of range). */
const char *opt_choice_name(const char *choices, int idx, char *buf, size_t len);

#endif
