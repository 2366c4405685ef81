/* store.c - SQLite store: open, migrate, write a run in one transaction. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "lib/json.h"
#include "lib/log.h"
#include "store/store.h"
#include "machine/sysinfo.h"

extern const char *const store_migrations[];

int store_schema_version(void)
{
	int n = 0;

	while (store_migrations[n])
		n++;
	return n;
}

int store_exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		error("database: %s", msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return -1;
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

int store_migrate(sqlite3 *db)
{
	int have, want = store_schema_version();
	char sql[64];

	/* BEGIN IMMEDIATE serialises concurrent first opens of a new database. */
	if (store_exec(db, "BEGIN IMMEDIATE"))
		return -1;
	if (user_version(db, &have))
		goto fail;
	if (have > want) {
		error("database schema version %d is newer than this sgabench knows (%d)", have, want);
		hint("use a newer sgabench, or another --db");
		goto fail;
	}
	for (int v = have; v < want; v++) {
		if (store_exec(db, store_migrations[v]))
			goto fail;
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", v + 1);
		if (store_exec(db, sql))
			goto fail;
	}
	return store_exec(db, "COMMIT");
fail:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* Create the directory holding path, one level (e.g. results/). */
static void make_parent_dir(const char *path)
{
	char dir[4096];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return;
	*slash = '\0';
	mkdir(dir, 0777);
}

/* Open path with flags and apply the connection settings every user needs. */
static int open_common(const char *path, int flags, sqlite3 **out)
{
	sqlite3 *db = NULL;

	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		error("cannot open database '%s': %s", path, db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return EX_FAIL;
	}
	sqlite3_busy_timeout(db, STORE_BUSY_MS);
	sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	*out = db;
	return 0;
}

/*
 * Switch a connection to WAL. On a database being created by another
 * process at the same moment this can fail with SQLITE_BUSY at once,
 * without the busy handler, so retry for up to STORE_BUSY_MS.
 */
static int set_wal(sqlite3 *db)
{
	for (int waited = 0;; waited += 10) {
		int rc = sqlite3_exec(db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);

		if (rc == SQLITE_OK)
			return 0;
		if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || waited >= STORE_BUSY_MS)
			return store_exec(db, "PRAGMA journal_mode = WAL");
		usleep(10 * 1000);
	}
}

int store_open(const char *path, sqlite3 **out)
{
	sqlite3 *db;
	int ret;

	make_parent_dir(path);
	ret = open_common(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &db);
	if (ret)
		return ret;
	if (set_wal(db) ||
	    store_exec(db, "PRAGMA synchronous = NORMAL") || store_migrate(db)) {
		error("cannot use database '%s'", path);
		sqlite3_close(db);
		return EX_FAIL;
	}
	*out = db;
	return 0;
}

int store_open_ro(const char *path, sqlite3 **out)
{
	sqlite3 *db;
	int v, ret;
	struct stat st;

	if (stat(path, &st) != 0) {
		error("no database at '%s'", path);
		hint("runs are stored by 'sgabench run'; or give --db PATH");
		return EX_RESOURCE;
	}
	ret = open_common(path, SQLITE_OPEN_READONLY, &db);
	if (ret)
		return ret;
	if (user_version(db, &v) || v < 1 || v > store_schema_version()) {
		error("'%s' is not an sgabench database this version knows (schema %d)", path,
		      user_version(db, &v) ? -1 : v);
		sqlite3_close(db);
		return EX_RESOURCE;
	}
	*out = db;
	return 0;
}

void store_close(sqlite3 *db)
{
	sqlite3_close(db);
}

/* Bind text or NULL. */
static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* Find or insert the machine row for si; *id receives its id. */
static int put_machine(sqlite3 *db, const struct sysinfo *si, int64_t *id)
{
	static const char *sel = "SELECT id FROM machine WHERE fingerprint = ?";
	static const char *ins =
		"INSERT INTO machine (fingerprint, hostname, arch, cpu_vendor, cpu_model,"
		" microcode, kernel, is_vm, first_seen, info_json)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ','now'), ?)";
	sqlite3_stmt *st = NULL;
	char *json = NULL;
	size_t len = 0;
	FILE *f;
	int ret = -1;

	if (sqlite3_prepare_v2(db, sel, -1, &st, NULL) != SQLITE_OK)
		goto out;
	bind_text(st, 1, si->fingerprint);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		ret = 0;
		goto out;
	}
	sqlite3_finalize(st);
	st = NULL;

	f = open_memstream(&json, &len);
	if (!f)
		goto out;
	{
		struct json j;

		json_init(&j, f, 0);
		sysinfo_json(si, &j, NULL);
	}
	fclose(f);
	if (sqlite3_prepare_v2(db, ins, -1, &st, NULL) != SQLITE_OK)
		goto out;
	bind_text(st, 1, si->fingerprint);
	bind_text(st, 2, si->hostname);
	bind_text(st, 3, si->arch);
	bind_text(st, 4, si->cpu_vendor);
	bind_text(st, 5, si->cpu_model);
	bind_text(st, 6, si->microcode);
	bind_text(st, 7, si->kernel);
	sqlite3_bind_int(st, 8, si->is_vm);
	bind_text(st, 9, json);
	if (sqlite3_step(st) != SQLITE_DONE)
		goto out;
	*id = sqlite3_last_insert_rowid(db);
	ret = 0;
out:
	if (ret)
		error("database: storing the machine record: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	free(json);
	return ret;
}

/* Insert the run row. */
static int put_run_row(sqlite3 *db, int64_t machine_id, const struct run_meta *m,
		       const struct run_result *r, int64_t *run_id)
{
	static const char *ins =
		"INSERT INTO run (uuid, machine_id, started_at, wall_s, version, backend,"
		" workload, tasks, threads, page_size, align, backing, sharedctx, sga_bytes,"
		" ws_bytes, rounds, seed, cell, label, config_json, status, reason)"
		" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
	sqlite3_stmt *st;
	int ret = -1;

	if (sqlite3_prepare_v2(db, ins, -1, &st, NULL) != SQLITE_OK)
		return -1;
	bind_text(st, 1, r->uuid);
	sqlite3_bind_int64(st, 2, machine_id);
	bind_text(st, 3, r->started_at);
	sqlite3_bind_double(st, 4, r->wall_s);
	bind_text(st, 5, SGA_VERSION);
	bind_text(st, 6, r->backend);
	bind_text(st, 7, m->workload);
	sqlite3_bind_int(st, 8, (int)m->tasks);
	sqlite3_bind_int(st, 9, m->threads);
	bind_text(st, 10, m->page_size);
	bind_text(st, 11, m->align);
	bind_text(st, 12, m->backing);
	sqlite3_bind_int(st, 13, m->sharedctx);
	sqlite3_bind_int64(st, 14, (int64_t)m->sga_bytes);
	sqlite3_bind_int64(st, 15, (int64_t)m->ws_bytes);
	sqlite3_bind_int64(st, 16, (int64_t)m->rounds);
	sqlite3_bind_int64(st, 17, (int64_t)r->seed);
	bind_text(st, 18, m->cell);
	bind_text(st, 19, m->label);
	bind_text(st, 20, m->config_json ? m->config_json : "{}");
	bind_text(st, 21, r->status[0] ? r->status : "ok");
	bind_text(st, 22, r->reason[0] ? r->reason : NULL);
	if (sqlite3_step(st) == SQLITE_DONE) {
		*run_id = sqlite3_last_insert_rowid(db);
		ret = 0;
	}
	sqlite3_finalize(st);
	return ret;
}

/* Insert the task rows and every per-task event value. */
static int put_tasks(sqlite3 *db, int64_t run_id, const struct run_result *r)
{
	static const char *ins_task =
		"INSERT INTO task (run_id, task, cpu, accesses, window_ns, vmpte_kb, ft_minflt)"
		" VALUES (?,?,?,?,?,?,?)";
	static const char *ins_val =
		"INSERT INTO value (run_id, task, event, value, raw, enabled, running, missing)"
		" VALUES (?,?,?,?,?,?,?,?)";
	sqlite3_stmt *st = NULL, *sv = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(db, ins_task, -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, ins_val, -1, &sv, NULL) != SQLITE_OK)
		goto out;
	for (unsigned t = 0; t < r->ntasks; t++) {
		const struct task_result *tr = &r->task[t];

		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_int(st, 2, (int)t);
		if (tr->cpu >= 0)
			sqlite3_bind_int(st, 3, tr->cpu);
		else
			sqlite3_bind_null(st, 3);
		sqlite3_bind_int64(st, 4, (int64_t)tr->accesses);
		sqlite3_bind_int64(st, 5, (int64_t)tr->window_ns);
		if (tr->vmpte_kb >= 0)
			sqlite3_bind_int64(st, 6, tr->vmpte_kb);
		else
			sqlite3_bind_null(st, 6);
		if (tr->ft_minflt >= 0)
			sqlite3_bind_int64(st, 7, tr->ft_minflt);
		else
			sqlite3_bind_null(st, 7);
		if (sqlite3_step(st) != SQLITE_DONE)
			goto out;
		for (unsigned e = 0; e < r->nevents; e++) {
			const struct ev_value *v = &tr->ev[e];

			sqlite3_reset(sv);
			sqlite3_clear_bindings(sv);
			sqlite3_bind_int64(sv, 1, run_id);
			sqlite3_bind_int(sv, 2, (int)t);
			bind_text(sv, 3, r->events[e]);
			if (v->state == EV_COUNTED) {
				sqlite3_bind_double(sv, 4, v->value);
				sqlite3_bind_int64(sv, 5, (int64_t)v->raw);
				sqlite3_bind_int64(sv, 6, (int64_t)v->enabled);
				sqlite3_bind_int64(sv, 7, (int64_t)v->running);
			} else {
				bind_text(sv, 8, ev_state_name(v->state));
				if (v->enabled || v->running) {
					sqlite3_bind_int64(sv, 6, (int64_t)v->enabled);
					sqlite3_bind_int64(sv, 7, (int64_t)v->running);
				}
			}
			if (sqlite3_step(sv) != SQLITE_DONE)
				goto out;
		}
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	sqlite3_finalize(sv);
	return ret;
}

/* Insert the run-level metrics. */
static int put_metrics(sqlite3 *db, int64_t run_id, const struct run_result *r)
{
	sqlite3_stmt *st;
	int ret = 0;

	if (sqlite3_prepare_v2(db, "INSERT INTO metric (run_id, name, value) VALUES (?,?,?)",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	for (unsigned i = 0; i < r->nmetrics && !ret; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, run_id);
		bind_text(st, 2, r->metric[i].name);
		sqlite3_bind_double(st, 3, r->metric[i].value);
		if (sqlite3_step(st) != SQLITE_DONE)
			ret = -1;
	}
	sqlite3_finalize(st);
	return ret;
}

int store_put_run(sqlite3 *db, const struct sysinfo *si, const struct run_meta *m,
		  const struct run_result *r, int64_t *run_id)
{
	/* A failed run is kept only as its row with the reason: its values are not trusted. */
	int ok = !r->status[0] || strcmp(r->status, "ok") == 0;
	int64_t machine_id, id = 0;

	if (store_exec(db, "BEGIN IMMEDIATE"))
		return -1;
	if (put_machine(db, si, &machine_id) ||
	    put_run_row(db, machine_id, m, r, &id) ||
	    (ok && (put_tasks(db, id, r) || put_metrics(db, id, r) ||
		    store_put_windows(db, id, r)))) {
		error("database: storing run %s: %s", r->uuid, sqlite3_errmsg(db));
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	if (store_exec(db, "COMMIT")) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	if (run_id)
		*run_id = id;
	return 0;
}
