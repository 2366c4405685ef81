/*
 * store.h - every run goes to SQLite (default results/sgabench.db), or to
 * a PostgreSQL server given as a postgresql:// URI (--db or SGABENCH_DB).
 * struct store is opaque: only bench/store/ knows the engine behind it,
 * includes <sqlite3.h> and speaks SQL.
 *
 * The schema is a list of numbered migrations (store/schema.c) applied in
 * one transaction each and tracked by PRAGMA user_version. A run and all its
 * values are written in one transaction, so a crash leaves no partial run.
 * WAL mode and a busy timeout let concurrent writers all succeed.
 */
#ifndef SGA_STORE_H
#define SGA_STORE_H

#include <stddef.h>
#include <stdint.h>
#include "lib/result.h"

#define STORE_DEFAULT_PATH "results/sgabench.db"
#define STORE_BUSY_MS 30000

struct sysinfo;
struct store;


/* Number of migrations this build knows: the highest user_version it accepts. */
int store_schema_version(void);

/* Whether path is a PostgreSQL address: postgresql://... or postgres://... */
int store_is_pg_uri(const char *path);

/*
 * The database a command uses: path (an explicit --db always wins); with
 * none (NULL), $SGABENCH_DB, else the default: results/sgabench.db from a
 * checkout, $XDG_DATA_HOME/sgabench/sgabench.db (or ~/.local/share/
 * sgabench/sgabench.db) for an installed binary, one in a bin directory.
 */
const char *store_resolve(const char *path);

/*
 * The database path resolved as above, for messages: a PostgreSQL URI's
 * password becomes "***" (written into buf); anything else is returned as
 * it is.
 */
const char *store_display(const char *path, char *buf, size_t len);

/*
 * Open (creating if needed, with its directory) and migrate the database.
 * Sets WAL, busy timeout and foreign keys. Returns 0, or -errno after
 * printing why: -ENOENT when the directory does not exist, -EPROTONOSUPPORT
 * for a database from a newer sgabench (or a build without libpq given a
 * PostgreSQL URI), -ENOMEM, or -EIO when SQLite fails. path goes through
 * store_resolve(); a PostgreSQL address connects with libpq and migrates
 * under an advisory lock: -EINVAL for a bad URI, -ECONNREFUSED for an
 * unreachable server or refused credentials.
 */
int store_open(const char *path, struct store **out);

/* Open an existing database read-only, without migrating. Returns 0, or
 * -errno after printing why: -ENOENT when there is none, -EPROTONOSUPPORT
 * when its schema version is unknown to this build, else as store_open. */
int store_open_ro(const char *path, struct store **out);

/*
 * The schema version of the existing database at path into *v, without
 * checking or migrating it (0 for a database sgabench never opened).
 * Returns 0, or -EIO when it cannot be read (-EINVAL for a server URI).
 */
int store_probe_version(const char *path, int *v);

/* Close s (NULL is fine). */
void store_close(struct store *s);

/*
 * Whether store_open created s's file: an SQLite database that was not
 * there before (never a server's, never a store_open_ro one).
 */
int store_created(const struct store *s);

/*
 * Close s as store_close, and remove its file with its -wal, -shm and
 * -journal companions when store_open created it and it holds no run (nor
 * machine), whoever might have written it meanwhile. For a command that
 * opened --db, then was refused or stored nothing. Returns 1 when removed.
 */
int store_close_unused(struct store *s);

/*
 * Async-signal-safe, for a handler about to end the process: remove the
 * files as store_close_unused does, when store_open created them and no
 * run was committed through s; it cannot look inside the database.
 */
void store_remove_created(const struct store *s);

/* The engine's message for the last failed call on s. */
const char *store_errmsg(struct store *s);

/* The path (or address) s was opened with. */
const char *store_path(const struct store *s);

/*
 * Apply any pending migrations in order. Returns 0, -EPROTONOSUPPORT for
 * a newer schema, or -EIO (message printed).
 */
int store_migrate(struct store *s);

/*
 * Insert (or find) the machine with si's fingerprint, then the run with all
 * its tasks, values and metrics, in one transaction. A run whose status is
 * not "ok" is stored as its row alone (status and reason, no values). On success *run_id is
 * the new row id. Returns 0 or -EIO (message printed, nothing written).
 */
int store_put_run(struct store *s, const struct sysinfo *si, const struct run_meta *m,
		  const struct run_result *r, int64_t *run_id);

/*
 * Run SQL with no result rows; returns 0 or -EIO with the error printed.
 * For the store's own files and for tests that set up a database by hand;
 * builtins call the store's named functions instead.
 */
int store_exec(struct store *s, const char *sql);

/*
 * The first column of the first row of sql as an integer into *v. For
 * tests and diagnostics only, like store_exec. Returns 0, or -EIO when sql
 * fails or returns no row.
 */
int store_scalar(struct store *s, const char *sql, int64_t *v);

#endif
