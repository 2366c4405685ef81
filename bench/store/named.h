/*
 * store/named.h - the named statements the shell harness and the report
 * use through 'sgabench db query NAME' and 'sgabench db exec NAME', so
 * that no script speaks SQL. Every argument is passed as text; an empty
 * argument means "none" where a statement says so.
 */
#ifndef SGA_STORE_NAMED_H
#define SGA_STORE_NAMED_H

#include <stdio.h>

struct store;

struct named_stmt {
	const char *name;
	int nargs;		/* arguments it takes, in order */
	int write;		/* 1: changes the database (db exec), 0: a query (db query) */
	const char *args;	/* the arguments, for --help */
	const char *help;	/* what it returns or does */
	const char *sql;	/* for both engines (see store/stmt.h) */
	const char *pg_sql;	/* PostgreSQL's text where it cannot be the same, else NULL */
};

/* Every named statement; ends with a NULL name. */
extern const struct named_stmt store_named[];

/* The statement called name, or NULL. */
const struct named_stmt *store_named_find(const char *name);

/*
 * Run query q with args on s and print its rows to f: tab-separated
 * (tabs and newlines inside a value become spaces, NULL is empty), or as
 * a JSON array of objects keyed by column name when json is set. Returns
 * 0, or -EIO (printed).
 */
int store_named_query(struct store *s, const struct named_stmt *q, char **args, int json, FILE *f);

/*
 * Run write statement w with args on s; *changes (if not NULL) gets the
 * rows it changed. The caller holds the transaction. Returns 0 or -EIO (printed).
 */
int store_named_exec(struct store *s, const struct named_stmt *w, char **args, long *changes);

#endif
