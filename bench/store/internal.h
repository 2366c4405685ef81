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
#include <signal.h>
#include <stdint.h>
#include "store/store.h"
#include "store/columns.h"

struct store {
	sqlite3 *db;		/* the SQLite engine, or NULL */
	struct pg_conn *pg;	/* the PostgreSQL engine (libpq's PGconn), or NULL */
	char *path;		/* as given to store_open (or SGABENCH_DB) */
	int readonly;
	char pgerr[512];	/* the server's last error message */
	char *created[4];	/* when store_open created the file: it and its -wal, -shm,
				   -journal companions, to remove (store/created.c); else NULLs */
	volatile sig_atomic_t stored;	/* a run was committed through this handle */
};

/*
 * Create path as an empty file if, and only if, none is there (O_EXCL: of
 * two processes, one creates it); SQLite takes an empty file as an empty
 * database. Returns 1 when this call created it, else 0 (there already, or
 * it cannot be made: SQLite's open then says why).
 */
int store_create_excl(const char *path);

/* Remember that s's file was created by its open (store/created.c): 0 or -ENOMEM. */
int store_mark_created(struct store *s);

/*
 * Let a database of an older schema, opened read-only (not migrated), be
 * read with today's queries: temporary views, which shadow the tables,
 * add the later columns with what they stand for (run.machine_name: the
 * machine's hostname; run.kernel_variant: NULL, unknown;
 * run.mux_interval_ms: NULL, and run.mux_interval_missing 'not-recorded';
 * run.boot_id: NULL, unknown;
 * metric.missing: NULL, as no older schema kept a missing metric).
 * Returns 0 or -EIO.
 */
int store_compat_views(struct store *s, int v);

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

/*
 * The statement listing the columns of table ?1 on s's engine, in order:
 * position, name, declared type (SQLite's, or information_schema's).
 */
const char *store_columns_sql(struct store *s);

/*
 * The INSERT statement of table t naming every column of its descriptor
 * but those flagged COL_ROWID, written into buf. Returns buf, or NULL when
 * len is too small.
 */
char *store_insert_sql(const struct store_table *t, char *buf, size_t len);

/* As store_insert_sql, naming only the columns i with present[i] (all when NULL). */
char *store_insert_sql_cols(const struct store_table *t, const int *present, char *buf, size_t len);

/* Rows of one table inserted by one statement (fewer round trips to a server). */
#define STORE_BATCH_ROWS 64
#define STORE_BATCH_COLS 16

/* Rows of table t waiting to be inserted together (store/batch.c). */
struct store_batch {
	struct store *s;
	enum store_table_id t;
	struct stmt *full;	/* the INSERT of STORE_BATCH_ROWS rows, prepared at first use */
	struct store_val v[STORE_BATCH_ROWS][STORE_BATCH_COLS];
	size_t n;
	int *failed;		/* shared by related batches: after a failure, nothing more runs */
	const int *present;	/* columns to insert (NULL: all but the rowid); the others get defaults */
	int copy_text;		/* copy text values: the caller's pointers die before the flush */
};

/* Start b for table t on s; *failed is shared (set to -1 on any failure). */
void store_batch_init(struct store_batch *b, struct store *s, enum store_table_id t, int *failed,
		      const int *present, int copy_text);

/* Add row v (one value per descriptor column) to b, inserting when b is full. */
void store_batch_add(struct store_batch *b, const struct store_val *v);

/* Insert the pending rows in one statement. 0, or -1 when any insert of b's group failed. */
int store_batch_flush(struct store_batch *b);

/* Insert what is pending and free b's statement. 0, or -1 when any insert of b's group failed. */
int store_batch_end(struct store_batch *b);

/*
 * Insert row v of table t (one value per descriptor column; the rowid's is
 * ignored). *rowid, when not NULL, gets the new row's id. Returns 0 or -1
 * (store_errmsg tells).
 */
int store_insert(struct store *s, enum store_table_id t, const struct store_val *v, int64_t *rowid);

/* Append the rows of st (select.c's run columns) to out, whose run array
 * holds *cap; 0, -ENOMEM or -EIO. */
struct stmt;
struct runset;
int select_collect(struct stmt *st, struct runset *out, size_t *cap);

/* PRAGMA user_version into *v; 0 or -1. */
int store_user_version(struct store *s, int *v);

#endif
