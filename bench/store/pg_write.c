/*
 * store/pg_write.c - write a run on PostgreSQL: the same rows as write.c,
 * from the same column descriptors, as text parameters of one
 * transaction. Machines are found or inserted with ON CONFLICT, so many
 * writers with one fingerprint all succeed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lib/json.h"
#include "lib/log.h"
#include "machine/sysinfo.h"
#include "store/pg.h"

/* Text of one value in buf (NULL for SQL NULL); doubles round-trip. */
static const char *val_text(const struct store_val *v, char *buf, size_t len)
{
	switch (v->kind) {
	case SV_INT:
		snprintf(buf, len, "%" PRId64, v->i);
		return buf;
	case SV_REAL:
		snprintf(buf, len, "%.17g", v->d);
		return buf;
	case SV_TEXT:
		return v->s;
	default:
		return NULL;
	}
}

/*
 * The INSERT of table t with $n parameters, every column but the rowid,
 * with RETURNING of the rowid when the table has one, into buf; or NULL.
 */
static char *insert_sql(const struct store_table *t, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "INSERT INTO %s (", t->name);
	int p = 0;
	const char *rowid = NULL;

	for (int i = 0; i < t->ncol && n < len; i++) {
		if (t->col[i].flags & COL_ROWID) {
			rowid = t->col[i].name;
			continue;
		}
		n += (size_t)snprintf(buf + n, len - n, "%s%s", p++ ? ", " : "", t->col[i].name);
	}
	n += (size_t)snprintf(buf + n, len - n < len ? len - n : 0, ") VALUES (");
	for (int i = 1; i <= p && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s$%d", i > 1 ? ", " : "", i);
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, ")%s%s", rowid ? " RETURNING " : "",
				      rowid ? rowid : "");
	return n < len ? buf : NULL;
}

/* Insert row v of table t; *rowid (if not NULL) gets the new id. 0 or -1. */
static int insert(struct store *s, enum store_table_id t, const struct store_val *v, int64_t *rowid)
{
	const struct store_table *tb = &store_tables[t];
	const char *params[64];
	char num[64][32], sql[2048];
	int p = 0;
	PGresult *res;

	if (tb->ncol > 64 || !insert_sql(tb, sql, sizeof(sql)))
		return -1;
	for (int i = 0; i < tb->ncol; i++)
		if (!(tb->col[i].flags & COL_ROWID))
			params[p++] = val_text(&v[i], num[i], sizeof(num[i]));
	res = pg_query(s, sql, p, params, rowid ? PGRES_TUPLES_OK : PGRES_COMMAND_OK);
	if (!res)
		return -1;
	if (rowid)
		*rowid = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	PQclear(res);
	return 0;
}

/* Find or insert the machine row for si; *id receives its id. */
static int put_machine(struct store *s, const struct sysinfo *si, int64_t *id)
{
	struct store_val v[MACHINE_NCOL];
	const char *fp[1] = { si->fingerprint };
	char *json = NULL, now[32], sql[2048];
	size_t len = 0, n;
	struct json j;
	time_t t = time(NULL);
	FILE *f;
	PGresult *res;
	int ret;

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
	/* A concurrent writer of the same machine may win: keep its row. */
	ret = insert_sql(&store_tables[T_MACHINE], sql, sizeof(sql)) ? 0 : -1;
	if (!ret) {
		const char *params[MACHINE_NCOL];
		char num[MACHINE_NCOL][32];
		int p = 0;
		char *ret_at = strstr(sql, " RETURNING");

		n = ret_at ? (size_t)(ret_at - sql) : strlen(sql);
		snprintf(sql + n, sizeof(sql) - n, " ON CONFLICT (fingerprint) DO NOTHING");
		for (int i = 0; i < MACHINE_NCOL; i++)
			if (i != MACHINE_ID)
				params[p++] = val_text(&v[i], num[i], sizeof(num[i]));
		res = pg_query(s, sql, p, params, PGRES_COMMAND_OK);
		ret = res ? 0 : -1;
		PQclear(res);
	}
	free(json);
	if (ret) {
		error("database: storing the machine record: %s", s->pgerr);
		return -1;
	}
	res = pg_query(s, "SELECT id FROM machine WHERE fingerprint = $1", 1, fp, PGRES_TUPLES_OK);
	if (!res || PQntuples(res) != 1) {
		PQclear(res);
		return -1;
	}
	*id = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	PQclear(res);
	return 0;
}

/* Insert the run row. */
static int put_run_row(struct store *s, int64_t machine_id, const struct run_meta *m,
		       const struct run_result *r, int64_t *run_id)
{
	struct store_val v[RUN_NCOL];

	store_run_vals(machine_id, m, r, v);
	return insert(s, T_RUN, v, run_id);
}

/* Insert the task rows, every per-task event value and the run metrics. */
static int put_rows(struct store *s, int64_t run_id, const struct run_result *r)
{
	int ret = 0;

	for (unsigned t = 0; !ret && t < r->ntasks; t++) {
		const struct task_result *tr = &r->task[t];
		struct store_val tv[TASK_NCOL];

		store_task_vals(run_id, t, tr, tv);
		ret = insert(s, T_TASK, tv, NULL);
		for (unsigned e = 0; !ret && e < r->nevents; e++) {
			struct store_val vv[VALUE_NCOL];

			vv[VALUE_RUN_ID] = sv_int(run_id);
			vv[VALUE_TASK] = sv_int(t);
			vv[VALUE_EVENT] = sv_text(r->events[e]);
			store_ev_cols(&tr->ev[e], &vv[VALUE_VALUE]);
			ret = insert(s, T_VALUE, vv, NULL);
		}
	}
	for (unsigned i = 0; i < r->nmetrics && !ret; i++) {
		struct store_val v[METRIC_NCOL];

		v[METRIC_RUN_ID] = sv_int(run_id);
		v[METRIC_NAME] = sv_text(r->metric[i].name);
		v[METRIC_VALUE] = sv_real(r->metric[i].value);
		ret = insert(s, T_METRIC, v, NULL);
	}
	/* run --windows: one run_window row per task and window, and its counters */
	for (unsigned w = 0; !ret && r->win && w < r->nwindows; w++) {
		for (unsigned t = 0; !ret && t < r->ntasks; t++) {
			const struct window_result *wr = &r->win[(size_t)w * r->ntasks + t];
			struct store_val rw[RUN_WINDOW_NCOL];

			rw[RUN_WINDOW_RUN_ID] = sv_int(run_id);
			rw[RUN_WINDOW_WIN] = sv_int(w);
			rw[RUN_WINDOW_TASK] = sv_int(t);
			rw[RUN_WINDOW_ACCESSES] = sv_int((int64_t)wr->accesses);
			rw[RUN_WINDOW_WINDOW_NS] = sv_int((int64_t)wr->window_ns);
			ret = insert(s, T_RUN_WINDOW, rw, NULL);
			for (unsigned e = 0; !ret && e < r->nevents; e++) {
				struct store_val wv[WINDOW_VALUE_NCOL];

				wv[WINDOW_VALUE_RUN_ID] = sv_int(run_id);
				wv[WINDOW_VALUE_WIN] = sv_int(w);
				wv[WINDOW_VALUE_TASK] = sv_int(t);
				wv[WINDOW_VALUE_EVENT] = sv_text(r->events[e]);
				store_ev_cols(&wr->ev[e], &wv[WINDOW_VALUE_VALUE]);
				ret = insert(s, T_WINDOW_VALUE, wv, NULL);
			}
		}
	}
	return ret;
}

int pg_put_run(struct store *s, const struct sysinfo *si, const struct run_meta *m,
	       const struct run_result *r, int64_t *run_id)
{
	int ok = !r->status[0] || strcmp(r->status, "ok") == 0;
	int64_t machine_id, id = 0;

	if (pg_exec(s, "BEGIN"))
		return -1;
	if (put_machine(s, si, &machine_id) || put_run_row(s, machine_id, m, r, &id) ||
	    (ok && put_rows(s, id, r))) {
		error("database: storing run %s: %s", r->uuid, s->pgerr);
		PQclear(PQexec(s->pg, "ROLLBACK"));
		return -1;
	}
	if (pg_exec(s, "COMMIT"))
		return -1;
	if (run_id)
		*run_id = id;
	return 0;
}
