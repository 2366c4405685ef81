/*
 * store.c - open, migrate and close the store. A postgresql:// or
 * postgres:// address goes to the PostgreSQL engine (pg.c); anything else
 * is an SQLite file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "lib/json.h"
#include "lib/log.h"
#include "store/internal.h"
#include "store/pg.h"
#include "machine/sysinfo.h"

extern const char *const store_migrations[];

int store_schema_version(void)
{
	int n = 0;

	while (store_migrations[n])
		n++;
	return n;
}

int store_is_pg_uri(const char *path)
{
	return path && (strncmp(path, "postgresql://", 13) == 0 || strncmp(path, "postgres://", 11) == 0);
}

/*
 * Refuse a path that cannot name a database before anything is created:
 * an address of another scheme (a misspelt postgresql://, which would
 * otherwise become a local file), or a directory. Returns 0 or -EINVAL.
 */
static int path_usable(const char *path)
{
	struct stat st;

	if (strstr(path, "://") || strncmp(path, "postgresql:", 11) == 0 || strncmp(path, "postgres:", 9) == 0) {
		error("'%s' is not a database address", path);
		hint("a server is postgresql://[USER@][HOST][:PORT]/DATABASE (or postgres://); "
		     "an SQLite database is a file's path");
		return -EINVAL;
	}
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		error("'%s' is a directory, not a database", path);
		hint("give a file's path, e.g. '%s/sgabench.db'", path);
		return -EINVAL;
	}
	return 0;
}

/* The error for a file that SQLite cannot read as a database. */
static void not_sqlite(const char *path)
{
	error("'%s' is not an SQLite database", path);
	hint("give another --db, or the path of a file to create");
}

/*
 * Whether this binary is installed: it sits in a directory called bin
 * (/usr/bin, /usr/local/bin, ~/.local/bin, DESTDIR/usr/bin), where make
 * install and the package put it, and not in a checkout (bench/sgabench).
 */
static int installed(void)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return 0;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash || slash - exe < 4)
		return 0;
	*slash = '\0';
	return strcmp(slash - 4, "/bin") == 0;
}

/*
 * The default database: STORE_DEFAULT_PATH (results/ of the working
 * directory) for a binary run from a checkout; for an installed one,
 * $XDG_DATA_HOME/sgabench/sgabench.db, or ~/.local/share/sgabench/
 * sgabench.db without XDG_DATA_HOME (the XDG base directory convention).
 */
static const char *default_path(void)
{
	static char buf[4096];
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");

	if (!installed())
		return STORE_DEFAULT_PATH;
	if (xdg && *xdg == '/')
		snprintf(buf, sizeof(buf), "%s/sgabench/sgabench.db", xdg);
	else if (home && *home)
		snprintf(buf, sizeof(buf), "%s/.local/share/sgabench/sgabench.db", home);
	else
		return STORE_DEFAULT_PATH;
	return buf;
}

const char *store_resolve(const char *path)
{
	const char *env = getenv("SGABENCH_DB");

	if (path)
		return path;
	return env && *env ? env : default_path();
}

const char *store_display(const char *path, char *buf, size_t len)
{
	const char *at, *colon, *slash, *start;

	path = store_resolve(path);
	if (!store_is_pg_uri(path))
		return path;
	start = strstr(path, "://") + 3;
	at = strchr(start, '@');
	colon = strchr(start, ':');
	slash = strchr(start, '/');
	/* Only user:password@ before the host has a password to hide. */
	if (!at || !colon || colon > at || (slash && slash < at))
		return path;
	snprintf(buf, len, "%.*s:***%s", (int)(colon - path), path, at);
	return buf;
}

int store_exec(struct store *s, const char *sql)
{
	sqlite3 *db = s->db;
	char *msg = NULL;

	if (s->pg)
		return pg_exec(s, sql) ? -EIO : 0;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		error("database: %s", msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return -EIO;
	}
	return 0;
}

/* Read PRAGMA user_version into *v. */
static int user_version(sqlite3 *db, int *v)
{
	sqlite3_stmt *st;
	int ret = -1;

	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW) {
		*v = sqlite3_column_int(st, 0);
		ret = 0;
	}
	sqlite3_finalize(st);
	return ret;
}

int store_migrate(struct store *s)
{
	sqlite3 *db = s->db;
	int have, want = store_schema_version();
	char sql[64];

	if (s->pg) {
		int ret = pg_migrate(s);

		return ret == -EPROTONOSUPPORT || !ret ? ret : -EIO;
	}
	/* BEGIN IMMEDIATE serialises concurrent first opens of a new database. */
	if (store_exec(s, "BEGIN IMMEDIATE"))
		return -EIO;
	if (user_version(db, &have))
		goto fail;
	if (have > want) {
		error("database schema version %d is newer than this sgabench knows (%d)", have, want);
		hint("use a newer sgabench, or another --db");
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return -EPROTONOSUPPORT;
	}
	for (int v = have; v < want; v++) {
		if (store_exec(s, store_migrations[v]))
			goto fail;
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", v + 1);
		if (store_exec(s, sql))
			goto fail;
	}
	return store_exec(s, "COMMIT");
fail:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -EIO;
}

/*
 * Create the directories holding path, as mkdir -p does (results/, or
 * ~/.local/share/sgabench/ of an installed binary); a failure shows when
 * the database is opened.
 */
static void make_parent_dir(const char *path)
{
	char dir[4096];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return;
	*slash = '\0';
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(dir, 0777);
		*p = '/';
	}
	mkdir(dir, 0777);
}

/* Open path with flags and apply the connection settings every user needs. */
static int open_common(const char *path, int flags, struct store **out)
{
	struct store *s = calloc(1, sizeof(*s));
	sqlite3 *db = NULL;

	if (!s || !(s->path = strdup(path))) {
		free(s);
		error("out of memory");
		return -ENOMEM;
	}

	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		char dir[4096], *slash;
		struct stat st;
		int missing_dir;

		snprintf(dir, sizeof(dir), "%s", path);
		slash = strrchr(dir, '/');
		if (slash && slash != dir)
			*slash = '\0';
		else
			snprintf(dir, sizeof(dir), ".");
		missing_dir = stat(dir, &st) != 0;
		error("cannot open database '%s': %s", path,
		      missing_dir ? "its directory does not exist" : db ? sqlite3_errmsg(db) : "out of memory");
		if (missing_dir)
			hint("create it first: mkdir -p '%s'", dir);
		sqlite3_close(db);
		free(s->path);
		free(s);
		return missing_dir ? -ENOENT : -EIO;
	}
	sqlite3_busy_timeout(db, STORE_BUSY_MS);
	sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	/*
	 * Tests only: SGABENCH_TEST_REVERSE_SCANS=1 makes SQLite return every
	 * scan's rows in reverse, so a query whose ORDER BY leaves ties answers
	 * in another order (t0425 fails on it).
	 */
	if (getenv("SGABENCH_TEST_REVERSE_SCANS"))
		sqlite3_exec(db, "PRAGMA reverse_unordered_selects = ON", NULL, NULL, NULL);
	s->db = db;
	s->readonly = !(flags & SQLITE_OPEN_READWRITE);
	*out = s;
	return 0;
}

/*
 * Switch a connection to WAL. On a database being created by another
 * process at the same moment this can fail with SQLITE_BUSY at once,
 * without the busy handler, so retry for up to STORE_BUSY_MS.
 */
static int set_wal(struct store *s)
{
	sqlite3 *db = s->db;

	for (int waited = 0;; waited += 10) {
		int rc = sqlite3_exec(db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);

		if (rc == SQLITE_OK)
			return 0;
		if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || waited >= STORE_BUSY_MS)
			return store_exec(s, "PRAGMA journal_mode = WAL");
		usleep(10 * 1000);
	}
}

/* Close s after store_open failed on it, removing its file if the open created it. */
static void store_close_failed(struct store *s)
{
	sqlite3_close(s->db);
	s->db = NULL;
	store_remove_created(s);
	store_close(s);
}

int store_open(const char *path, struct store **out)
{
	struct store *s;
	int ret, created;

	path = store_resolve(path);
	if (store_is_pg_uri(path))
		return pg_open(path, 1, out);
	if (path_usable(path))
		return -EINVAL;
	/* only the default's directory (results/, or the XDG one when installed):
	 * another missing directory is refused with a hint */
	if (strcmp(path, default_path()) == 0)
		make_parent_dir(path);
	created = store_create_excl(path);
	ret = open_common(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &s);
	if (ret) {
		if (created)
			unlink(path);
		return ret;
	}
	if (created && store_mark_created(s)) {
		error("out of memory");
		store_close(s);
		unlink(path);
		return -ENOMEM;
	}
	if (user_version(s->db, &ret)) {
		not_sqlite(path);
		store_close(s);
		return -EPROTONOSUPPORT;
	}
	if (set_wal(s) || store_exec(s, "PRAGMA synchronous = NORMAL")) {
		error("cannot use database '%s'", path);
		store_close_failed(s);
		return -EIO;
	}
	ret = store_migrate(s);
	if (ret) {
		error("cannot use database '%s'", path);
		store_close_failed(s);
		/* a newer schema: a newer sgabench is the missing resource, as for 'runs' */
		return ret == -EPROTONOSUPPORT ? ret : -EIO;
	}
	*out = s;
	return 0;
}

int store_compat_views(struct store *s, int v)
{
	const char *main_ = s->pg ? "" : "main.";
	char sql[512];

	/* schema 4 named the machine of each run (before: its host's name);
	 * schema 5 recorded its kernel variant (before: unknown); schema 7
	 * its multiplexing interval (before: not recorded); schema 8 its boot
	 * (before: unknown) */
	if (v < 8) {
		snprintf(sql, sizeof(sql), "CREATE TEMP VIEW run AS SELECT r.*%s%s%s%s FROM %srun r"
			 " LEFT JOIN %smachine m ON m.id = r.machine_id",
			 v < 4 ? ", COALESCE(m.hostname, m.fingerprint) AS machine_name" : "",
			 v < 5 ? ", CAST(NULL AS TEXT) AS kernel_variant" : "",
			 v < 7 ? ", CAST(NULL AS DOUBLE PRECISION) AS mux_interval_ms,"
				 " CAST('not-recorded' AS TEXT) AS mux_interval_missing" : "",
			 ", CAST(NULL AS TEXT) AS boot_id", main_, main_);
		if (store_exec(s, sql))
			return -EIO;
	}
	/* schema 4 named the machine a verdict judged (before: unnamed) */
	if (v < 4) {
		snprintf(sql, sizeof(sql), "CREATE TEMP VIEW verdict AS SELECT x.*,"
			 " CAST(NULL AS TEXT) AS machine_name FROM %sverdict x", main_);
		if (store_exec(s, sql))
			return -EIO;
	}
	/* schema 6 kept the metrics a run could not give (before: none kept) */
	if (v < 6) {
		snprintf(sql, sizeof(sql), "CREATE TEMP VIEW metric AS SELECT x.*,"
			 " CAST(NULL AS TEXT) AS missing FROM %smetric x", main_);
		if (store_exec(s, sql))
			return -EIO;
	}
	return 0;
}

int store_open_ro(const char *path, struct store **out)
{
	struct store *s;
	sqlite3 *db;
	int v, ret;
	struct stat st;

	path = store_resolve(path);
	if (store_is_pg_uri(path))
		return pg_open(path, 0, out);
	if (path_usable(path))
		return -EINVAL;
	if (stat(path, &st) != 0) {
		error("no database at '%s'", path);
		hint("runs are stored by 'sgabench run'; or give --db PATH");
		return -ENOENT;
	}
	ret = open_common(path, SQLITE_OPEN_READONLY, &s);
	if (ret)
		return ret;
	db = s->db;
	if (user_version(db, &v)) {
		not_sqlite(path);
		store_close(s);
		return -EPROTONOSUPPORT;
	}
	if (v < 1 || v > store_schema_version()) {
		error("'%s' is not an sgabench database this version knows (schema %d)", path, v);
		store_close(s);
		return -EPROTONOSUPPORT;
	}
	if (store_compat_views(s, v)) {
		store_close(s);
		return -EIO;
	}
	*out = s;
	return 0;
}

int store_probe_version(const char *path, int *v)
{
	sqlite3 *db = NULL;
	int ret = -1;

	if (store_is_pg_uri(path))
		return -EINVAL;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
		sqlite3_busy_timeout(db, STORE_BUSY_MS);
		ret = user_version(db, v);
	}
	sqlite3_close(db);
	return ret ? -EIO : 0;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	if (s->pg)
		pg_close(s);
	sqlite3_close(s->db);
	for (int i = 0; i < 4; i++)
		free(s->created[i]);
	free(s->path);
	free(s);
}

const char *store_errmsg(struct store *s)
{
#ifndef SGA_NO_PG
	if (s && s->pg)
		return s->pgerr[0] ? s->pgerr : PQerrorMessage(s->pg);
#endif
	return s && s->db ? sqlite3_errmsg(s->db) : "no database";
}

const char *store_path(const struct store *s)
{
	return s->path;
}

int store_user_version(struct store *s, int *v)
{
	if (s->pg)
		return pg_schema_version(s, v);
	return user_version(s->db, v);
}

