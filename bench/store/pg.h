/*
 * store/pg.h - the PostgreSQL engine behind struct store (libpq). Only
 * files of bench/store/ include this. Each function mirrors the SQLite
 * one of the same name without the pg_ prefix; the public entry points
 * (store.c, write.c, read.c, query.c) call these when s->pg is set.
 */
#ifndef SGA_STORE_PG_H
#define SGA_STORE_PG_H

#include <stdint.h>
#include "store/internal.h"
#include "store/query.h"
#include "store/read.h"

/*
 * Connect to the server at uri (a postgresql:// or postgres:// URI) and,
 * when migrate, apply pending migrations. Returns 0; EX_USAGE for a URI
 * libpq cannot parse; EX_RESOURCE for an unreachable server, refused
 * credentials, a missing database or role, or a schema newer than this
 * sgabench (or, read-only, no sgabench schema at all); each with the
 * message and the fix printed.
 */
int pg_open(const char *uri, int migrate, struct store **out);

/* Close the connection of s. */
void pg_close(struct store *s);

/* Run sql with no result rows; 0 or -1 with the error printed. */
int pg_exec(struct store *s, const char *sql);

/* First column of the first row of sql into *v; 0 or -1. */
int pg_scalar(struct store *s, const char *sql, int64_t *v);

/* The schema version recorded on the server (0 when none); 0 or -1. */
int pg_schema_version(struct store *s, int *v);

/* Apply pending migrations under an advisory lock; 0 or -1 (printed). */
int pg_migrate(struct store *s);

/* The machine row, the run and its rows in one transaction; 0 or -1. */
int pg_put_run(struct store *s, const struct sysinfo *si, const struct run_meta *m,
	       const struct run_result *r, int64_t *run_id);

/* store_list_runs on PostgreSQL. */
int pg_list_runs(struct store *s, const struct store_runs_filter *f,
		 int (*fn)(void *ctx, const struct store_run_row *r), void *ctx);

/* store_load_run on PostgreSQL; same return values. */
int pg_load_run(struct store *s, const char *key, struct stored_run *out);

/* store_check on PostgreSQL: counts, orphan rows; no page-level check. */
int pg_check(struct store *s, struct store_check *c);

#ifndef SGA_NO_PG
/*
 * Run sql with params (text, NULL for SQL NULL) and return the result when
 * its status is want, else NULL with the server's message kept in s.
 */
PGresult *pg_query(struct store *s, const char *sql, int n, const char *const *params, int want);
#endif

#endif
