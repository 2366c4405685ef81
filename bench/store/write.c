/*
 * store/write.c - write a run: the machine row (found by fingerprint), the
 * run row, its tasks, values and metrics, in one transaction. Every INSERT
 * is built from the column descriptors of columns.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lib/json.h"
#include "lib/log.h"
#include "machine/sysinfo.h"
#include "store/internal.h"
#include "store/pg.h"

void store_bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

sqlite3_stmt *store_prepare(struct store *s, const char *sql)
{
	sqlite3_stmt *st;

	/* Every reader and writer not ported to PostgreSQL ends here. */
	if (store_pg_unported(s, "this query"))
		return NULL;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		error("database: %s", sqlite3_errmsg(s->db));
		return NULL;
	}
	return st;
}

/* Bind one value as parameter i. */
static void bind_val(sqlite3_stmt *st, int i, const struct store_val *v)
{
	switch (v->kind) {
	case SV_INT:
		sqlite3_bind_int64(st, i, v->i);
		break;
	case SV_REAL:
		sqlite3_bind_double(st, i, v->d);
		break;
	case SV_TEXT:
		sqlite3_bind_text(st, i, v->s, -1, SQLITE_TRANSIENT);
		break;
	default:
		sqlite3_bind_null(st, i);
	}
}

/* The prepared INSERT of table t (every column but the rowid), or NULL. */
static sqlite3_stmt *prepare_insert(struct store *s, enum store_table_id t)
{
	char sql[2048];

	if (!store_insert_sql(&store_tables[t], sql, sizeof(sql)))
		return NULL;
	return store_prepare(s, sql);
}

/*
 * Insert row v (one value per descriptor column of t, the rowid's ignored)
 * with the prepared st; *rowid (if not NULL) gets the new row's id.
 * Returns 0 or -1.
 */
static int insert_row(struct store *s, sqlite3_stmt *st, enum store_table_id t,
		      const struct store_val *v, int64_t *rowid)
{
	const struct store_table *tb = &store_tables[t];
	int p = 1, rc;

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	for (int i = 0; i < tb->ncol; i++)
		if (!(tb->col[i].flags & COL_ROWID))
			bind_val(st, p++, &v[i]);
	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE)
		return -1;
	if (rowid)
		*rowid = sqlite3_last_insert_rowid(s->db);
	return 0;
}

int store_insert(struct store *s, enum store_table_id t, const struct store_val *v, int64_t *rowid)
{
	sqlite3_stmt *st = prepare_insert(s, t);
	int ret = st ? insert_row(s, st, t, v, rowid) : -1;

	sqlite3_finalize(st);
	return ret;
}

/* Find or insert the machine row for si; *id receives its id. */
static int put_machine(struct store *s, const struct sysinfo *si, int64_t *id)
{
	struct store_val v[MACHINE_NCOL];
	sqlite3_stmt *st;
	char *json = NULL, now[32];
	size_t len = 0;
	struct json j;
	time_t t = time(NULL);
	FILE *f;
	int ret = -1;

	st = store_prepare(s, "SELECT id FROM machine WHERE fingerprint = ?");
	if (!st)
		return -1;
	store_bind_text(st, 1, si->fingerprint);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
		return 0;
	}
	sqlite3_finalize(st);

	f = open_memstream(&json, &len);
	if (!f)
		return -1;
	json_init(&j, f, 0);
	sysinfo_json(si, &j, NULL);
	fclose(f);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	v[MACHINE_ID] = sv_null();
	v[MACHINE_FINGERPRINT] = sv_text(si->fingerprint);
	v[MACHINE_HOSTNAME] = sv_text(si->hostname);
	v[MACHINE_ARCH] = sv_text(si->arch);
	v[MACHINE_CPU_VENDOR] = sv_text(si->cpu_vendor);
	v[MACHINE_CPU_MODEL] = sv_text(si->cpu_model);
	v[MACHINE_MICROCODE] = sv_text(si->microcode);
	v[MACHINE_KERNEL] = sv_text(si->kernel);
	v[MACHINE_IS_VM] = sv_int(si->is_vm);
	v[MACHINE_FIRST_SEEN] = sv_text(now);
	v[MACHINE_INFO_JSON] = sv_text(json);
	ret = store_insert(s, T_MACHINE, v, id);
	if (ret)
		error("database: storing the machine record: %s", sqlite3_errmsg(s->db));
	free(json);
	return ret;
}

/* Insert the run row. */
static int put_run_row(struct store *s, int64_t machine_id, const struct run_meta *m,
		       const struct run_result *r, int64_t *run_id)
{
	struct store_val v[RUN_NCOL];

	store_run_vals(machine_id, m, r, v);
	return store_insert(s, T_RUN, v, run_id);
}

/* Insert the task rows and every per-task event value. */
static int put_tasks(struct store *s, int64_t run_id, const struct run_result *r)
{
	sqlite3_stmt *st = prepare_insert(s, T_TASK), *sv = prepare_insert(s, T_VALUE);
	int ret = st && sv ? 0 : -1;

	for (unsigned t = 0; !ret && t < r->ntasks; t++) {
		const struct task_result *tr = &r->task[t];
		struct store_val tv[TASK_NCOL];

		store_task_vals(run_id, t, tr, tv);
		ret = insert_row(s, st, T_TASK, tv, NULL);
		for (unsigned e = 0; !ret && e < r->nevents; e++) {
			struct store_val vv[VALUE_NCOL];

			vv[VALUE_RUN_ID] = sv_int(run_id);
			vv[VALUE_TASK] = sv_int(t);
			vv[VALUE_EVENT] = sv_text(r->events[e]);
			store_ev_cols(&tr->ev[e], &vv[VALUE_VALUE]);
			ret = insert_row(s, sv, T_VALUE, vv, NULL);
		}
	}
	sqlite3_finalize(st);
	sqlite3_finalize(sv);
	return ret;
}

/* Insert the run-level metrics. */
static int put_metrics(struct store *s, int64_t run_id, const struct run_result *r)
{
	sqlite3_stmt *st = prepare_insert(s, T_METRIC);
	int ret = st ? 0 : -1;

	for (unsigned i = 0; i < r->nmetrics && !ret; i++) {
		struct store_val v[METRIC_NCOL];

		v[METRIC_RUN_ID] = sv_int(run_id);
		v[METRIC_NAME] = sv_text(r->metric[i].name);
		v[METRIC_VALUE] = sv_real(r->metric[i].value);
		ret = insert_row(s, st, T_METRIC, v, NULL);
	}
	sqlite3_finalize(st);
	return ret;
}

/* Insert r's per-window rows (run --windows): one run_window row per task and window, and its counters. */
static int put_windows(struct store *s, int64_t run_id, const struct run_result *r)
{
	sqlite3_stmt *sw, *sv;
	int ret;

	if (!r->nwindows || !r->win)
		return 0;
	sw = prepare_insert(s, T_RUN_WINDOW);
	sv = prepare_insert(s, T_WINDOW_VALUE);
	ret = sw && sv ? 0 : -1;
	for (unsigned w = 0; !ret && w < r->nwindows; w++) {
		for (unsigned t = 0; !ret && t < r->ntasks; t++) {
			const struct window_result *wr = &r->win[(size_t)w * r->ntasks + t];
			struct store_val rw[RUN_WINDOW_NCOL];

			rw[RUN_WINDOW_RUN_ID] = sv_int(run_id);
			rw[RUN_WINDOW_WIN] = sv_int(w);
			rw[RUN_WINDOW_TASK] = sv_int(t);
			rw[RUN_WINDOW_ACCESSES] = sv_int((int64_t)wr->accesses);
			rw[RUN_WINDOW_WINDOW_NS] = sv_int((int64_t)wr->window_ns);
			ret = insert_row(s, sw, T_RUN_WINDOW, rw, NULL);
			for (unsigned e = 0; !ret && e < r->nevents; e++) {
				struct store_val wv[WINDOW_VALUE_NCOL];

				wv[WINDOW_VALUE_RUN_ID] = sv_int(run_id);
				wv[WINDOW_VALUE_WIN] = sv_int(w);
				wv[WINDOW_VALUE_TASK] = sv_int(t);
				wv[WINDOW_VALUE_EVENT] = sv_text(r->events[e]);
				store_ev_cols(&wr->ev[e], &wv[WINDOW_VALUE_VALUE]);
				ret = insert_row(s, sv, T_WINDOW_VALUE, wv, NULL);
			}
		}
	}
	sqlite3_finalize(sw);
	sqlite3_finalize(sv);
	return ret;
}

int store_put_run(struct store *s, const struct sysinfo *si, const struct run_meta *m,
		  const struct run_result *r, int64_t *run_id)
{
	/* A failed run is kept only as its row with the reason: its values are not trusted. */
	int ok = !r->status[0] || strcmp(r->status, "ok") == 0;
	int64_t machine_id, id = 0;

	if (s->pg)
		return pg_put_run(s, si, m, r, run_id);
	if (store_exec(s, "BEGIN IMMEDIATE"))
		return -1;
	if (put_machine(s, si, &machine_id) ||
	    put_run_row(s, machine_id, m, r, &id) ||
	    (ok && (put_tasks(s, id, r) || put_metrics(s, id, r) || put_windows(s, id, r)))) {
		error("database: storing run %s: %s", r->uuid, sqlite3_errmsg(s->db));
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	if (store_exec(s, "COMMIT")) {
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	if (run_id)
		*run_id = id;
	return 0;
}
