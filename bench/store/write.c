/*
 * store/write.c - write a run: the machine row (found by fingerprint), the
 * run row, its tasks, values and metrics, in one transaction, on either
 * engine. Every INSERT is built from the column descriptors of columns.h.
 * Machines are inserted OR IGNORE and then read back, so many writers
 * of one fingerprint on a server all succeed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lib/json.h"
#include "lib/log.h"
#include "machine/sysinfo.h"
#include "store/internal.h"
#include "store/stmt.h"

/*
 * The prepared INSERT of table t (every column but the rowid); on
 * PostgreSQL it returns the new rowid, which SQLite keeps by itself.
 * ignore: a row whose key is there already is skipped. NULL on error.
 */
static struct stmt *prepare_insert(struct store *s, enum store_table_id t, int ignore)
{
	const struct store_table *tb = &store_tables[t];
	char sql[2048], ins[2048];
	size_t n;

	if (!store_insert_sql(tb, ins, sizeof(ins)))
		return NULL;
	/* "INSERT INTO t ..." as "INSERT OR IGNORE INTO t ..." */
	n = (size_t)snprintf(sql, sizeof(sql), "%s%s", ignore ? "INSERT OR IGNORE" : "INSERT",
			     ins + strlen("INSERT"));
	if (store_is_pg(s) && tb->ncol && (tb->col[0].flags & COL_ROWID))
		snprintf(sql + n, sizeof(sql) - n, " RETURNING %s", tb->col[0].name);
	return stmt_prepare(s, sql);
}

/*
 * Insert row v (one value per descriptor column of t, the rowid's ignored)
 * with the prepared st; *rowid (if not NULL) gets the new row's id.
 * Returns 0 or -1.
 */
static int insert_row(struct stmt *st, enum store_table_id t, const struct store_val *v,
		      int64_t *rowid)
{
	const struct store_table *tb = &store_tables[t];
	int p = 1;

	stmt_reset(st);
	for (int i = 0; i < tb->ncol; i++)
		if (!(tb->col[i].flags & COL_ROWID))
			stmt_bind_val(st, p++, &v[i]);
	if (stmt_step(st) < 0)
		return -1;
	if (rowid)
		*rowid = stmt_insert_id(st);
	return 0;
}

int store_insert(struct store *s, enum store_table_id t, const struct store_val *v, int64_t *rowid)
{
	struct stmt *st = prepare_insert(s, t, 0);
	int ret = st ? insert_row(st, t, v, rowid) : -1;

	stmt_finish(st);
	return ret;
}

/* The id of the machine with fingerprint fp into *id: 1 found, 0 not there, -1 error. */
static int find_machine(struct store *s, const char *fp, int64_t *id)
{
	struct stmt *st = stmt_prepare(s, "SELECT id FROM machine WHERE fingerprint = ?");
	int rc;

	if (!st)
		return -1;
	stmt_bind_text(st, 1, fp);
	rc = stmt_step(st);
	if (rc == STMT_ROW)
		*id = stmt_col_int64(st, 0);
	stmt_finish(st);
	return rc;
}

/* Find or insert the machine row for si; *id receives its id. */
static int put_machine(struct store *s, const struct sysinfo *si, int64_t *id)
{
	struct store_val v[MACHINE_NCOL];
	struct stmt *st;
	char *json = NULL, now[32];
	size_t len = 0;
	struct json j;
	time_t t = time(NULL);
	FILE *f;
	int ret = -1;

	ret = find_machine(s, si->fingerprint, id);
	if (ret)
		return ret < 0 ? -1 : 0;
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
	/* A concurrent writer of the same machine (on a server) may win: keep its row. */
	st = prepare_insert(s, T_MACHINE, 1);
	ret = st ? insert_row(st, T_MACHINE, v, NULL) : -1;
	stmt_finish(st);
	free(json);
	if (!ret && find_machine(s, si->fingerprint, id) != STMT_ROW)
		ret = -1;
	if (ret)
		error("database: storing the machine record: %s", store_errmsg(s));
	return ret;
}

/*
 * A machine name (SGABENCH_MACHINE) is one machine: warn when the latest
 * earlier run of this name was stored under another fingerprint (a kernel,
 * microcode or setting changed, or two machines share the name), since
 * compare pairs runs on one fingerprint only.
 */
static void check_name(struct store *s, const struct sysinfo *si, int64_t machine_id)
{
	struct stmt *st = stmt_prepare(s, "SELECT m.fingerprint FROM run r JOIN machine m"
				       " ON m.id = r.machine_id WHERE r.machine_name = ?1"
				       " ORDER BY r.started_at DESC, r.id DESC LIMIT 1");
	const char *fp;

	if (!st)
		return;
	stmt_bind_text(st, 1, si->machine_name);
	if (stmt_step(st) == STMT_ROW && (fp = stmt_col_text(st, 0)) && strcmp(fp, si->fingerprint))
		warning("machine '%s' ran on fingerprint %.12s before, now on %.12s (machine id %lld):"
			" its runs on the two are compared only with --cross-machine; if these are two"
			" machines, give each its own SGABENCH_MACHINE", si->machine_name, fp,
			si->fingerprint, (long long)machine_id);
	stmt_finish(st);
}

/* Insert the run row, named after si's machine and kernel variant. */
static int put_run_row(struct store *s, const struct sysinfo *si, int64_t machine_id,
		       const struct run_meta *m, const struct run_result *r, int64_t *run_id)
{
	struct store_val v[RUN_NCOL];

	store_run_vals(machine_id, m, r, v);
	v[RUN_MACHINE_NAME] = sv_text(si->machine_name[0] ? si->machine_name : si->hostname);
	v[RUN_KERNEL_VARIANT] = sv_text(si->kernel_variant[0] ? si->kernel_variant : NULL);
	return store_insert(s, T_RUN, v, run_id);
}

/* Insert the task rows, every per-task event value and the run metrics. */
static int put_tasks(struct store *s, int64_t run_id, const struct run_result *r)
{
	struct store_batch bt, bv, bm;
	int failed = 0, ret;

	store_batch_init(&bt, s, T_TASK, &failed, NULL, 0);
	store_batch_init(&bv, s, T_VALUE, &failed, NULL, 0);
	store_batch_init(&bm, s, T_METRIC, &failed, NULL, 0);
	for (unsigned t = 0; t < r->ntasks; t++) {
		const struct task_result *tr = &r->task[t];
		struct store_val tv[TASK_NCOL];

		store_task_vals(run_id, t, tr, tv);
		store_batch_add(&bt, tv);
		for (unsigned e = 0; e < r->nevents; e++) {
			struct store_val vv[VALUE_NCOL];

			vv[VALUE_RUN_ID] = sv_int(run_id);
			vv[VALUE_TASK] = sv_int(t);
			vv[VALUE_EVENT] = sv_text(r->events[e]);
			store_ev_cols(&tr->ev[e], &vv[VALUE_VALUE]);
			store_batch_add(&bv, vv);
		}
	}
	for (unsigned i = 0; i < r->nmetrics; i++) {
		struct store_val v[METRIC_NCOL];

		v[METRIC_RUN_ID] = sv_int(run_id);
		v[METRIC_NAME] = sv_text(r->metric[i].name);
		v[METRIC_VALUE] = sv_real(r->metric[i].value);
		v[METRIC_MISSING] = sv_null();
		store_batch_add(&bm, v);
	}
	/* a metric the run could not give: NULL with its reason, never 0 */
	for (unsigned i = 0; i < r->nmissing; i++) {
		struct store_val v[METRIC_NCOL];

		v[METRIC_RUN_ID] = sv_int(run_id);
		v[METRIC_NAME] = sv_text(metric_defs[r->missing[i].id].name);
		v[METRIC_VALUE] = sv_null();
		v[METRIC_MISSING] = sv_text(r->missing[i].reason[0] ? r->missing[i].reason : "unknown");
		store_batch_add(&bm, v);
	}
	ret = store_batch_end(&bt);
	ret = store_batch_end(&bv) || ret;
	return store_batch_end(&bm) || ret ? -1 : 0;
}

/* Insert r's per-window rows (run --windows): one run_window row per task and window, and its counters. */
static int put_windows(struct store *s, int64_t run_id, const struct run_result *r)
{
	struct store_batch bw, bv;
	int failed = 0, ret;

	if (!r->nwindows || !r->win)
		return 0;
	store_batch_init(&bw, s, T_RUN_WINDOW, &failed, NULL, 0);
	store_batch_init(&bv, s, T_WINDOW_VALUE, &failed, NULL, 0);
	for (unsigned w = 0; w < r->nwindows; w++) {
		for (unsigned t = 0; t < r->ntasks; t++) {
			const struct window_result *wr = &r->win[(size_t)w * r->ntasks + t];
			struct store_val rw[RUN_WINDOW_NCOL];

			rw[RUN_WINDOW_RUN_ID] = sv_int(run_id);
			rw[RUN_WINDOW_WIN] = sv_int(w);
			rw[RUN_WINDOW_TASK] = sv_int(t);
			rw[RUN_WINDOW_ACCESSES] = sv_int((int64_t)wr->accesses);
			rw[RUN_WINDOW_WINDOW_NS] = sv_int((int64_t)wr->window_ns);
			store_batch_add(&bw, rw);
			for (unsigned e = 0; e < r->nevents; e++) {
				struct store_val wv[WINDOW_VALUE_NCOL];

				wv[WINDOW_VALUE_RUN_ID] = sv_int(run_id);
				wv[WINDOW_VALUE_WIN] = sv_int(w);
				wv[WINDOW_VALUE_TASK] = sv_int(t);
				wv[WINDOW_VALUE_EVENT] = sv_text(r->events[e]);
				store_ev_cols(&wr->ev[e], &wv[WINDOW_VALUE_VALUE]);
				store_batch_add(&bv, wv);
			}
		}
	}
	ret = store_batch_end(&bw);
	return store_batch_end(&bv) || ret ? -1 : 0;
}

int store_put_run(struct store *s, const struct sysinfo *si, const struct run_meta *m,
		  const struct run_result *r, int64_t *run_id)
{
	/* A failed run is kept only as its row with the reason: its values are not trusted. */
	int ok = !r->status[0] || strcmp(r->status, "ok") == 0;
	int64_t machine_id, id = 0;

	if (store_begin(s))
		return -EIO;
	if (put_machine(s, si, &machine_id) == 0)
		check_name(s, si, machine_id);
	else
		machine_id = -1;
	if (machine_id < 0 || put_run_row(s, si, machine_id, m, r, &id) ||
	    (ok && (put_tasks(s, id, r) || put_windows(s, id, r)))) {
		error("database: storing run %s: %s", r->uuid, store_errmsg(s));
		store_rollback(s);
		return -EIO;
	}
	if (store_commit(s)) {
		store_rollback(s);
		return -EIO;
	}
	s->stored = 1;
	if (run_id)
		*run_id = id;
	return 0;
}
