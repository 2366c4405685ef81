/*
 * store/pg.h - the PostgreSQL engine behind struct store (libpq). Only
 * files of bench/store/ include this. The queries themselves are shared
 * (stmt.h); what is here is the connection, the migrations, the check
 * and the statement driver.
 */
#ifndef SGA_STORE_PG_H
#define SGA_STORE_PG_H

#include <stddef.h>
#include <stdint.h>
#include "store/internal.h"
#include "store/query.h"
#include "store/read.h"

/*
 * Connect to the server at uri (a postgresql:// or postgres:// URI) and,
 * when migrate, apply pending migrations. Returns 0; -EINVAL for a URI
 * libpq cannot parse; -ECONNREFUSED for an unreachable server, refused
 * credentials, a missing database or role; -EPROTONOSUPPORT for a schema
 * newer than this sgabench (or, read-only, no sgabench schema at all);
 * -ENOMEM; each with the message and the fix printed.
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

/* store_check on PostgreSQL: counts, orphan rows; no page-level check. */
int pg_check(struct store *s, struct store_check *c);

/* Parameters a statement may have on PostgreSQL, and the types they are sent as. */
#define PG_MAXPARAM 1024
#define PG_OID_UNKNOWN 0u
#define PG_OID_INT8 20u
#define PG_OID_FLOAT8 701u
#define PG_OID_TEXT 25u
#define PG_PARAM_USED 2

/*
 * The PostgreSQL text of sql, written for both engines (see stmt.h):
 * malloc'd, or NULL when out of memory or a parameter number is over
 * PG_MAXPARAM. *nparams gets the highest parameter number; glob[i] has
 * 1 for parameter i used as a GLOB pattern (its value is converted with
 * pg_glob_regex when bound) and PG_PARAM_USED when the text uses it at
 * all. glob has PG_MAXPARAM + 1 entries.
 */
char *pg_translate(const char *sql, int *nparams, unsigned char *glob);

/* The anchored POSIX regular expression of a GLOB pattern of len bytes (malloc'd). */
char *pg_glob_regex(const char *glob, size_t len);

/* The statements of stmt.h on PostgreSQL; same contracts, see stmt.h. */
struct pg_stmt;
struct pg_stmt *pg_stmt_prepare(struct store *s, const char *sql);
int pg_stmt_bind(struct pg_stmt *p, int i, const char *text, unsigned oid);
int pg_stmt_step(struct pg_stmt *p);
int pg_stmt_ncols(struct pg_stmt *p);
const char *pg_stmt_col_name(struct pg_stmt *p, int i);
int pg_stmt_col_type(struct pg_stmt *p, int i);
const char *pg_stmt_col_text(struct pg_stmt *p, int i);
/* Column i as the server sent it (a double in full), NULL for SQL NULL. */
const char *pg_stmt_col_raw(struct pg_stmt *p, int i);
int64_t pg_stmt_changes(struct pg_stmt *p);
int64_t pg_stmt_insert_id(struct pg_stmt *p);
void pg_stmt_reset(struct pg_stmt *p);
void pg_stmt_finish(struct pg_stmt *p);

/* Run sql ignoring its result (ROLLBACK after a failure). */
void pg_exec_quiet(struct store *s, const char *sql);

#ifndef SGA_NO_PG
/*
 * Load libpq (pg_dl.c) unless loaded: pg_open calls it first, and every
 * libpq function runs only after it succeeded. 0, or -ENOENT with why in
 * err (the library or one of its functions is missing).
 */
int pg_dl_load(char *err, size_t errlen);

/* Keep the first line of msg in s->pgerr. */
void pg_keep_error(struct store *s, const char *msg);

/*
 * Run sql with params (text, NULL for SQL NULL) and return the result when
 * its status is want, else NULL with the server's message kept in s.
 */
PGresult *pg_query(struct store *s, const char *sql, int n, const char *const *params, int want);
#endif

#endif
