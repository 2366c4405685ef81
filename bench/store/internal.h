/*
 * store/internal.h - what the files of bench/store/ share and nobody else
 * sees: the engine handle behind the opaque struct store. Only files in
 * bench/store/ include this (and so <sqlite3.h> and <libpq-fe.h>).
 */
#ifndef SGA_STORE_INTERNAL_H
#define SGA_STORE_INTERNAL_H

#ifndef SGA_NO_PG
#include <libpq-fe.h>
#endif
#include <sqlite3.h>
#include <stdint.h>
#include "store/store.h"
#include "store/columns.h"

struct store {
	sqlite3 *db;		/* the SQLite engine, or NULL */
	struct pg_conn *pg;	/* the PostgreSQL engine (libpq's PGconn), or NULL */
	char *path;		/* as given to store_open (or SGABENCH_DB) */
	int readonly;
	char pgerr[512];	/* the server's last error message */
};

/*
 * Fail a call the PostgreSQL engine does not have yet: prints "WHAT is not
 * supported on PostgreSQL yet" and returns 1 when s is on PostgreSQL, else
 * returns 0 and prints nothing.
 */
int store_pg_unported(struct store *s, const char *what);

/*
 * The five columns value, raw, enabled, running, missing of a value or
 * window_value row for one counter, into v[0..4]: a value and raw only when
 * counted, the times when it was scheduled at all, the reason when missing.
 */
void store_ev_cols(const struct ev_value *ev, struct store_val *v);

/*
 * The run row of r (described by m, on machine machine_id) as values for
 * every column of the run table, id NULL: one list for both engines.
 */
void store_run_vals(int64_t machine_id, const struct run_meta *m, const struct run_result *r,
		    struct store_val *v);

/* The task row of task t of run run_id: NULL for a value not measured (-1). */
void store_task_vals(int64_t run_id, unsigned t, const struct task_result *tr, struct store_val *tv);

/* Bind text, or NULL when s is NULL. */
void store_bind_text(sqlite3_stmt *st, int i, const char *s);

/* Prepare sql on s, or NULL with the error printed. */
sqlite3_stmt *store_prepare(struct store *s, const char *sql);

/*
 * The INSERT statement of table t naming every column of its descriptor
 * but those flagged COL_ROWID, written into buf. Returns buf, or NULL when
 * len is too small.
 */
char *store_insert_sql(const struct store_table *t, char *buf, size_t len);

/*
 * Insert row v of table t (one value per descriptor column; the rowid's is
 * ignored). *rowid, when not NULL, gets the new row's id. Returns 0 or -1
 * (sqlite3_errmsg tells).
 */
int store_insert(struct store *s, enum store_table_id t, const struct store_val *v, int64_t *rowid);

/* PRAGMA user_version into *v; 0 or -1. */
int store_user_version(struct store *s, int *v);

#endif
