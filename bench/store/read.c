/* store_read.c - load a stored run back into the structures the writers use. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/log.h"
#include "store/internal.h"
#include "store/read.h"
#include "store/pg.h"

/* Copy column i of st as text into dst (empty when NULL). */
static void col_text(sqlite3_stmt *st, int i, char *dst, size_t len)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	snprintf(dst, len, "%s", t ? (const char *)t : "");
}

/* strdup of column i, or NULL when the column is NULL. */
static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? strdup((const char *)t) : NULL;
}

/*
 * Count the runs matching one query with one text parameter, storing the id
 * of the last one in *id. Returns the number of matches, capped at 2, or
 * -1 on a database error.
 */
static int match_runs(sqlite3 *db, const char *sql, const char *key, int64_t *id)
{
	sqlite3_stmt *st;
	int found = 0, rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	while (found < 2 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		found++;
	}
	if (found < 2 && rc != SQLITE_DONE)
		found = -1;
	sqlite3_finalize(st);
	return found;
}

/*
 * Find the run id for key. An all-digit key is a run id when such a run
 * exists; any other key, or a number that is no run id, is a uuid or a
 * unique uuid prefix (a uuid prefix is often all digits: "80835507").
 * Returns 0, -1 when nothing matches, -2 when the prefix is ambiguous, -3
 * on a database error.
 */
static int find_run(sqlite3 *db, const char *key, int64_t *id)
{
	size_t n = strlen(key);
	int found;

	if (n == 0)
		return -1;
	if (strspn(key, "0123456789") == n) {
		found = match_runs(db, "SELECT id FROM run WHERE CAST(id AS TEXT) = ?1", key, id);
		if (found < 0)
			return -3;
		if (found == 1)
			return 0;
	}
	found = match_runs(db, "SELECT id FROM run WHERE substr(uuid, 1, length(?1)) = lower(?1)"
			   " ORDER BY id LIMIT 2", key, id);
	return found < 0 ? -3 : found == 1 ? 0 : found == 0 ? -1 : -2;
}

/* Find the index of event name in r, adding it if new; -1 when full. */
static int event_index(struct run_result *r, const char *name)
{
	for (unsigned e = 0; e < r->nevents; e++)
		if (strcmp(r->events[e], name) == 0)
			return (int)e;
	if (r->nevents >= EV_MAX)
		return -1;
	snprintf(r->events[r->nevents], sizeof(r->events[0]), "%s", name);
	return (int)r->nevents++;
}

/* Map a stored missing reason back to its state. */
static int state_of(const char *missing)
{
	for (int s = 1; s < EV_NSTATES; s++)
		if (strcmp(ev_state_name(s), missing) == 0)
			return s;
	return EV_UNSUPPORTED;
}

int store_load_run(struct store *s, const char *key, struct stored_run *out)
{
	sqlite3 *db = s->db;
	static const char *q_run =
		"SELECT r.id, r.uuid, r.started_at, r.wall_s, r.backend, r.workload, r.tasks,"
		" r.threads, r.page_size, r.align, r.backing, r.sharedctx, r.sga_bytes, r.ws_bytes,"
		" r.rounds, r.seed, r.cell, r.label, r.config_json, r.status, r.reason,"
		" m.fingerprint, m.info_json, r.version FROM run r JOIN machine m ON m.id = r.machine_id"
		" WHERE r.id = ?";
	sqlite3_stmt *st;
	int64_t id = 0;
	int ret;

	if (s->pg)
		return pg_load_run(s, key, out);
	memset(out, 0, sizeof(*out));
	ret = find_run(db, key, &id);
	if (ret)
		return ret;
	if (sqlite3_prepare_v2(db, q_run, -1, &st, NULL) != SQLITE_OK)
		return -3;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return -1;
	}
	out->run_id = id;
	col_text(st, 1, out->res.uuid, sizeof(out->res.uuid));
	col_text(st, 2, out->res.started_at, sizeof(out->res.started_at));
	out->res.wall_s = sqlite3_column_double(st, 3);
	col_text(st, 4, out->res.backend, sizeof(out->res.backend));
	out->workload = col_dup(st, 5);
	out->meta.workload = out->workload;
	out->meta.tasks = (unsigned)sqlite3_column_int(st, 6);
	out->meta.threads = sqlite3_column_int(st, 7);
	out->page_size = col_dup(st, 8);
	out->meta.page_size = out->page_size;
	out->align = col_dup(st, 9);
	out->meta.align = out->align;
	out->backing = col_dup(st, 10);
	out->meta.backing = out->backing;
	out->meta.sharedctx = sqlite3_column_int(st, 11);
	out->meta.sga_bytes = (uint64_t)sqlite3_column_int64(st, 12);
	out->meta.ws_bytes = (uint64_t)sqlite3_column_int64(st, 13);
	out->meta.rounds = (uint64_t)sqlite3_column_int64(st, 14);
	out->res.seed = (uint64_t)sqlite3_column_int64(st, 15);
	out->cell = col_dup(st, 16);
	out->meta.cell = out->cell;
	out->label = col_dup(st, 17);
	out->meta.label = out->label;
	out->config_json = col_dup(st, 18);
	out->meta.config_json = out->config_json;
	col_text(st, 19, out->res.status, sizeof(out->res.status));
	col_text(st, 20, out->res.reason, sizeof(out->res.reason));
	col_text(st, 21, out->fingerprint, sizeof(out->fingerprint));
	out->machine_json = col_dup(st, 22);
	col_text(st, 23, out->version, sizeof(out->version));
	sqlite3_finalize(st);

	out->res.ntasks = out->meta.tasks;
	out->res.task = calloc(out->meta.tasks ? out->meta.tasks : 1, sizeof(*out->res.task));
	if (!out->res.task)
		return -3;
	sqlite3_prepare_v2(db, "SELECT task, cpu, accesses, window_ns, vmpte_kb, ft_minflt FROM task"
			   " WHERE run_id = ?", -1, &st, NULL);
	sqlite3_bind_int64(st, 1, id);
	out->res.ntasks = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int t = sqlite3_column_int(st, 0);
		struct task_result *tr;

		if (t < 0 || (unsigned)t >= out->meta.tasks)
			continue;
		tr = &out->res.task[t];
		tr->cpu = sqlite3_column_type(st, 1) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 1);
		tr->accesses = (uint64_t)sqlite3_column_int64(st, 2);
		tr->window_ns = (uint64_t)sqlite3_column_int64(st, 3);
		tr->vmpte_kb = sqlite3_column_type(st, 4) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 4);
		tr->ft_minflt = sqlite3_column_type(st, 5) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 5);
		if ((unsigned)t + 1 > out->res.ntasks)
			out->res.ntasks = (unsigned)t + 1;
	}
	sqlite3_finalize(st);

	sqlite3_prepare_v2(db, "SELECT task, event, value, raw, enabled, running, missing FROM value"
			   " WHERE run_id = ? ORDER BY rowid", -1, &st, NULL);
	sqlite3_bind_int64(st, 1, id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int t = sqlite3_column_int(st, 0);
		int e = event_index(&out->res, (const char *)sqlite3_column_text(st, 1));
		struct ev_value *v;

		if (e < 0 || t < 0 || (unsigned)t >= out->meta.tasks)
			continue;
		v = &out->res.task[t].ev[e];
		v->raw = (uint64_t)sqlite3_column_int64(st, 3);
		v->enabled = (uint64_t)sqlite3_column_int64(st, 4);
		v->running = (uint64_t)sqlite3_column_int64(st, 5);
		if (sqlite3_column_type(st, 6) != SQLITE_NULL) {
			v->state = state_of((const char *)sqlite3_column_text(st, 6));
		} else {
			v->state = EV_COUNTED;
			v->value = sqlite3_column_double(st, 2);
		}
	}
	sqlite3_finalize(st);

	sqlite3_prepare_v2(db, "SELECT name, value FROM metric WHERE run_id = ? ORDER BY rowid", -1, &st, NULL);
	sqlite3_bind_int64(st, 1, id);
	while (sqlite3_step(st) == SQLITE_ROW)
		result_set_metric(&out->res, (const char *)sqlite3_column_text(st, 0),
				  sqlite3_column_double(st, 1));
	sqlite3_finalize(st);
	return 0;
}

void store_free_run(struct stored_run *s)
{
	free(s->res.task);
	free(s->workload);
	free(s->page_size);
	free(s->align);
	free(s->backing);
	free(s->cell);
	free(s->label);
	free(s->config_json);
	free(s->machine_json);
	memset(s, 0, sizeof(*s));
}
