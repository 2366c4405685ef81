/*
 * store/stmt.h - one statement API over both engines, so that each query
 * of the store is written once. Only files of bench/store/ include this.
 *
 * SQL is written in the dialect both engines share, with ?N (or ?)
 * placeholders. On PostgreSQL the driver (pg_stmt.c) rewrites the few
 * SQLite words that differ: ?N becomes $N, GLOB becomes a regular
 * expression match (the pattern converted), LIKE becomes ILIKE (SQLite's
 * LIKE ignores ASCII case), INTEGER/REAL in a CAST become BIGINT/DOUBLE
 * PRECISION, group_concat and instr become string_agg and strpos, and
 * INSERT OR IGNORE becomes ON CONFLICT DO NOTHING. What cannot be
 * rewritten word by word is written twice, next to each other, and picked
 * with store_sql().
 *
 * Values come back as text on PostgreSQL and are converted on demand, as
 * SQLite does; a statement is executed at its first stmt_step.
 */
#ifndef SGA_STORE_STMT_H
#define SGA_STORE_STMT_H

#include <stdint.h>
#include "store/columns.h"

struct store;
struct stmt;

enum { STMT_DONE = 0, STMT_ROW = 1 };

/* The type of a result value, as SQLite reports it (PostgreSQL: by column type). */
enum stmt_type { ST_NULL, ST_INT, ST_REAL, ST_TEXT };

/* Whether s is on PostgreSQL. */
int store_is_pg(const struct store *s);

/* lite on SQLite, pg on PostgreSQL: for the statements written twice. */
const char *store_sql(const struct store *s, const char *lite, const char *pg);

/* Prepare sql on s. Returns the statement, or NULL with the error printed. */
struct stmt *stmt_prepare(struct store *s, const char *sql);

/*
 * Bind parameter i (from 1). Text is copied; NULL text binds SQL NULL.
 * On PostgreSQL text is sent untyped (the server infers its type from
 * the statement, as SQLite's affinity would), integers as bigint and
 * doubles as double precision. Return 0 or -1.
 */
int stmt_bind_text(struct stmt *st, int i, const char *v);
int stmt_bind_int64(struct stmt *st, int i, int64_t v);
int stmt_bind_double(struct stmt *st, int i, double v);
int stmt_bind_null(struct stmt *st, int i);
int stmt_bind_val(struct stmt *st, int i, const struct store_val *v);

/*
 * Run or advance st: STMT_ROW when a row is ready, STMT_DONE when there
 * are no more (or the statement returns none), -1 on an error, whose
 * message store_errmsg() gives.
 */
int stmt_step(struct stmt *st);

/* Number of result columns, and the name of column i. */
int stmt_ncols(struct stmt *st);
const char *stmt_col_name(struct stmt *st, int i);

/*
 * Column i of the current row. Text is NULL for SQL NULL and stays valid
 * until the next step or reset; numbers are 0 for NULL.
 */
enum stmt_type stmt_col_type(struct stmt *st, int i);
int stmt_col_is_null(struct stmt *st, int i);
const char *stmt_col_text(struct stmt *st, int i);
int64_t stmt_col_int64(struct stmt *st, int i);
double stmt_col_double(struct stmt *st, int i);

/* Column i as a store_val of its own type (text valid as for stmt_col_text). */
struct store_val stmt_col_val(struct stmt *st, int i);

/* Rows changed by the last step of an INSERT, UPDATE or DELETE. */
int64_t stmt_changes(struct stmt *st);

/*
 * The id of the row the last step inserted: SQLite's rowid, or on
 * PostgreSQL the first column of the row the INSERT's RETURNING gave
 * (store_insert_sql adds it). -1 when unknown.
 */
int64_t stmt_insert_id(struct stmt *st);

/* Make st ready to run again; the bindings are kept. */
void stmt_reset(struct stmt *st);

/* Free st (NULL is fine). */
void stmt_finish(struct stmt *st);

/* A write transaction on s: begin, commit, roll back. 0 or -1 (printed). */
int store_begin(struct store *s);
int store_commit(struct store *s);
void store_rollback(struct store *s);

#endif
