/*
 * store.h - every run goes to SQLite (default results/sgabench.db).
 *
 * The schema is a list of numbered migrations (store/schema.c) applied in
 * one transaction each and tracked by PRAGMA user_version. A run and all its
 * values are written in one transaction, so a crash leaves no partial run.
 * WAL mode and a busy timeout let concurrent writers all succeed.
 */
#ifndef SGA_STORE_H
#define SGA_STORE_H

#include <sqlite3.h>
#include <stdint.h>
#include "lib/result.h"

#define STORE_DEFAULT_PATH "results/sgabench.db"
#define STORE_BUSY_MS 30000

struct sysinfo;


/* Number of migrations this build knows: the highest user_version it accepts. */
int store_schema_version(void);

/*
 * Open (creating if needed, with its directory) and migrate the database.
 * Sets WAL, busy timeout and foreign keys. Returns 0, or EX_FAIL/EX_RESOURCE
 * after printing why (e.g. a database from a newer sgabench).
 */
int store_open(const char *path, sqlite3 **out);

/* Open an existing database read-only, without migrating; fails if its
 * schema version is unknown to this build. Returns 0 or EX_FAIL. */
int store_open_ro(const char *path, sqlite3 **out);

void store_close(sqlite3 *db);

/* Apply any pending migrations in order. Returns 0 or -1 (message printed). */
int store_migrate(sqlite3 *db);

/*
 * Insert (or find) the machine with si's fingerprint, then the run with all
 * its tasks, values and metrics, in one transaction. A run whose status is
 * not "ok" is stored as its row alone (status and reason, no values). On success *run_id is
 * the new row id. Returns 0 or -1 (message printed, nothing written).
 */
int store_put_run(sqlite3 *db, const struct sysinfo *si, const struct run_meta *m,
		  const struct run_result *r, int64_t *run_id);

/*
 * Insert r's per-window rows (run_window, window_value) for run run_id,
 * inside the caller's transaction; nothing when r has no windows.
 * Returns 0 or -1 (the caller prints and rolls back).
 */
int store_put_windows(sqlite3 *db, int64_t run_id, const struct run_result *r);

/* Run a statement with no result rows; returns 0 or -1 with the error printed. */
int store_exec(sqlite3 *db, const char *sql);

#endif
