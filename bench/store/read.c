/*
 * store/read.c - load a stored run back into the structures the writers
 * use, on either engine. Events and metrics come back sorted by name
 * (byte order), so both engines give the same order whatever the
 * server's collation.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/log.h"
#include "store/internal.h"
#include "store/read.h"
#include "store/stmt.h"

/* Copy column i of st as text into dst (empty when NULL). */
static void col_text(struct stmt *st, int i, char *dst, size_t len)
{
	const char *t = stmt_col_text(st, i);

	snprintf(dst, len, "%s", t ? t : "");
}

/* strdup of column i, or NULL when the column is NULL. */
static char *col_dup(struct stmt *st, int i)
{
	const char *t = stmt_col_text(st, i);

	return t ? strdup(t) : NULL;
}

/* Column i as an int64, or -1 when NULL (a value not measured). */
static int64_t col_or_minus1(struct stmt *st, int i)
{
	return stmt_col_is_null(st, i) ? -1 : stmt_col_int64(st, i);
}

/*
 * Count the runs matching one query with one text parameter, storing the id
 * of the last one in *id. Returns the number of matches, capped at 2, or
 * -1 on a database error.
 */
static int match_runs(struct store *s, const char *sql, const char *key, int64_t *id)
{
	struct stmt *st = stmt_prepare(s, sql);
	int found = 0, rc = STMT_DONE;

	if (!st)
		return -1;
	stmt_bind_text(st, 1, key);
	while (found < 2 && (rc = stmt_step(st)) == STMT_ROW) {
		*id = stmt_col_int64(st, 0);
		found++;
	}
	if (rc < 0)
		found = -1;
	stmt_finish(st);
	return found;
}

/*
 * Find the run id for key. An all-digit key is a run id when such a run
 * exists; any other key, or a number that is no run id, is a uuid or a
 * unique uuid prefix (a uuid prefix is often all digits: "80835507").
 * Returns 0, -1 when nothing matches, -2 when the prefix is ambiguous, -3
 * on a database error.
 */
static int find_run(struct store *s, const char *key, int64_t *id)
{
	size_t n = strlen(key);
	int found;

	if (n == 0)
		return -1;
	if (strspn(key, "0123456789") == n) {
		found = match_runs(s, "SELECT id FROM run WHERE CAST(id AS TEXT) = ?1", key, id);
		if (found < 0)
			return -3;
		if (found == 1)
			return 0;
	}
	found = match_runs(s, "SELECT id FROM run WHERE substr(uuid, 1, length(?1)) = lower(?1)"
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

/* Fill out from the run row st (the columns of store_load_run's q_run). */
static void fill_run(struct stmt *st, struct stored_run *out)
{
	col_text(st, 1, out->res.uuid, sizeof(out->res.uuid));
	col_text(st, 2, out->res.started_at, sizeof(out->res.started_at));
	out->res.wall_s = stmt_col_double(st, 3);
	col_text(st, 4, out->res.backend, sizeof(out->res.backend));
	out->meta.workload = out->workload = col_dup(st, 5);
	out->meta.tasks = (unsigned)stmt_col_int64(st, 6);
	out->meta.threads = (int)stmt_col_int64(st, 7);
	out->meta.page_size = out->page_size = col_dup(st, 8);
	out->meta.align = out->align = col_dup(st, 9);
	out->meta.backing = out->backing = col_dup(st, 10);
	out->meta.sharedctx = (int)stmt_col_int64(st, 11);
	out->meta.sga_bytes = (uint64_t)stmt_col_int64(st, 12);
	out->meta.working_set_bytes = (uint64_t)stmt_col_int64(st, 13);
	out->meta.rounds = (uint64_t)stmt_col_int64(st, 14);
	out->res.seed = (uint64_t)stmt_col_int64(st, 15);
	out->meta.cell = out->cell = col_dup(st, 16);
	out->meta.label = out->label = col_dup(st, 17);
	out->meta.config_json = out->config_json = col_dup(st, 18);
	col_text(st, 19, out->res.status, sizeof(out->res.status));
	col_text(st, 20, out->res.reason, sizeof(out->res.reason));
	col_text(st, 21, out->fingerprint, sizeof(out->fingerprint));
	out->machine_json = col_dup(st, 22);
	col_text(st, 23, out->version, sizeof(out->version));
	col_text(st, 24, out->machine_name, sizeof(out->machine_name));
	col_text(st, 25, out->kernel_variant, sizeof(out->kernel_variant));
	/* schema 7: the interval, else why not (an older file read as it is:
	 * not-recorded, from store_compat_views) */
	out->res.mux_interval_ms = stmt_col_is_null(st, 26) ? 0 : stmt_col_double(st, 26);
	col_text(st, 27, out->res.mux_interval_missing, sizeof(out->res.mux_interval_missing));
	if (out->res.mux_interval_ms <= 0 && !out->res.mux_interval_missing[0])
		snprintf(out->res.mux_interval_missing, sizeof(out->res.mux_interval_missing), "unknown");
	col_text(st, 28, out->res.boot_id, sizeof(out->res.boot_id));
}

/* Prepare sql with run id bound as ?1, or NULL. */
static struct stmt *of_run(struct store *s, const char *sql, int64_t id)
{
	struct stmt *st = stmt_prepare(s, sql);

	if (st)
		stmt_bind_int64(st, 1, id);
	return st;
}

/* Load the task rows of run id into out. 0 or -3. */
static int fill_tasks(struct store *s, int64_t id, struct stored_run *out)
{
	char sql[160];
	struct stmt *st;
	int rc, v = 0;

	/* read-only, an older database keeps its own column names */
	store_user_version(s, &v);
	snprintf(sql, sizeof(sql), "SELECT task, cpu, accesses, window_ns, vmpte_kb, %s FROM task WHERE run_id = ?1",
		 store_col_at("task", "first_touch_faults", v));
	st = of_run(s, sql, id);

	if (!st)
		return -3;
	out->res.ntasks = 0;
	while ((rc = stmt_step(st)) == STMT_ROW) {
		int t = (int)stmt_col_int64(st, 0);
		struct task_result *tr;

		if (t < 0 || (unsigned)t >= out->meta.tasks)
			continue;
		tr = &out->res.task[t];
		tr->cpu = (int)col_or_minus1(st, 1);
		tr->accesses = (uint64_t)stmt_col_int64(st, 2);
		tr->window_ns = (uint64_t)stmt_col_int64(st, 3);
		tr->vmpte_kb = col_or_minus1(st, 4);
		tr->vmpte_start_kb = -1;	/* not stored: sga-pte-bytes is */
		tr->first_touch_faults = col_or_minus1(st, 5);
		if ((unsigned)t + 1 > out->res.ntasks)
			out->res.ntasks = (unsigned)t + 1;
	}
	stmt_finish(st);
	return rc < 0 ? -3 : 0;
}

/* Load the per-task event values of run id into out. 0 or -3. */
static int fill_values(struct store *s, int64_t id, struct stored_run *out)
{
	struct stmt *st = of_run(s, "SELECT task, event, value, raw, enabled, running, missing"
				 " FROM value WHERE run_id = ?1", id);
	int rc;

	if (!st)
		return -3;
	while ((rc = stmt_step(st)) == STMT_ROW) {
		int t = (int)stmt_col_int64(st, 0);
		const char *name = stmt_col_text(st, 1);
		int e = event_index(&out->res, name ? name : "");
		struct ev_value *v;

		if (e < 0 || t < 0 || (unsigned)t >= out->meta.tasks)
			continue;
		v = &out->res.task[t].ev[e];
		v->raw = (uint64_t)stmt_col_int64(st, 3);
		v->enabled = (uint64_t)stmt_col_int64(st, 4);
		v->running = (uint64_t)stmt_col_int64(st, 5);
		if (!stmt_col_is_null(st, 6)) {
			v->state = state_of(stmt_col_text(st, 6));
		} else {
			v->state = EV_COUNTED;
			v->value = stmt_col_double(st, 2);
		}
	}
	stmt_finish(st);
	return rc < 0 ? -3 : 0;
}

/*
 * Load the run metrics of run id into out: a value, or (schema 6) missing
 * with its reason, as the run held it. 0 or -3. A stored name this build's
 * registry does not know (another build's metric) is left out of
 * out->res; select_load_values still reads it. An older database read
 * as it is has metric.missing from store_compat_views (NULL).
 */
static int fill_metrics(struct store *s, int64_t id, struct stored_run *out)
{
	struct stmt *st = of_run(s, "SELECT name, value, missing FROM metric WHERE run_id = ?1", id);
	int rc;

	if (!st)
		return -3;
	while ((rc = stmt_step(st)) == STMT_ROW) {
		const char *name = stmt_col_text(st, 0), *why = stmt_col_text(st, 2);

		/* -EINVAL: a metric of another build, left out (see above) */
		if (why ? result_set_metric_missing_named(&out->res, name, why)
			: result_set_metric_named(&out->res, name, stmt_col_double(st, 1)))
			continue;
	}
	stmt_finish(st);
	return rc < 0 ? -3 : 0;
}

/* Sort r's events by name, moving every task's values along. */
static void sort_events(struct run_result *r)
{
	for (unsigned i = 1; i < r->nevents; i++) {
		for (unsigned j = i; j > 0 && strcmp(r->events[j - 1], r->events[j]) > 0; j--) {
			char name[sizeof(r->events[0])];

			memcpy(name, r->events[j], sizeof(name));
			memcpy(r->events[j], r->events[j - 1], sizeof(name));
			memcpy(r->events[j - 1], name, sizeof(name));
			for (unsigned t = 0; t < r->ntasks; t++) {
				struct ev_value v = r->task[t].ev[j];

				r->task[t].ev[j] = r->task[t].ev[j - 1];
				r->task[t].ev[j - 1] = v;
			}
		}
	}
}

/* Sort r's metrics, and the metrics it lacks, by name. */
static void sort_metrics(struct run_result *r)
{
	for (unsigned i = 1; i < r->nmissing; i++) {
		for (unsigned j = i; j > 0 && strcmp(metric_defs[r->missing[j - 1].id].name,
						     metric_defs[r->missing[j].id].name) > 0; j--) {
			struct metric_gap g = r->missing[j];

			r->missing[j] = r->missing[j - 1];
			r->missing[j - 1] = g;
		}
	}
	for (unsigned i = 1; i < r->nmetrics; i++) {
		for (unsigned j = i; j > 0 && strcmp(r->metric[j - 1].name, r->metric[j].name) > 0; j--) {
			struct metric m = r->metric[j];

			r->metric[j] = r->metric[j - 1];
			r->metric[j - 1] = m;
		}
	}
}

/* store_load_run with find_run's codes: -1 none, -2 ambiguous, -3 error. */
static int load_run(struct store *s, const char *key, struct stored_run *out)
{
	char q_run[1024];
	struct stmt *st;
	int64_t id = 0;
	int ret, v = 0;

	memset(out, 0, sizeof(*out));
	ret = find_run(s, key, &id);
	if (ret)
		return ret;
	/* read-only, an older database keeps its own column names */
	store_user_version(s, &v);
	snprintf(q_run, sizeof(q_run),
		 "SELECT r.id, r.uuid, r.started_at, r.wall_s, r.backend, r.workload, r.tasks,"
		 " r.threads, r.page_size, r.align, r.backing, r.sharedctx, r.sga_bytes, r.%s,"
		 " r.rounds, r.seed, r.cell, r.label, r.config_json, r.status, r.reason,"
		 " m.fingerprint, m.info_json, r.version, COALESCE(r.machine_name, ''),"
		 " COALESCE(r.kernel_variant, ''), r.mux_interval_ms, r.mux_interval_missing,"
		 " r.boot_id"
		 " FROM run r JOIN machine m ON m.id = r.machine_id"
		 " WHERE r.id = ?1", store_col_at("run", "working_set_bytes", v));
	st = of_run(s, q_run, id);
	if (!st)
		return -3;
	ret = stmt_step(st);
	if (ret == STMT_ROW) {
		out->run_id = id;
		fill_run(st, out);
	}
	stmt_finish(st);
	if (ret != STMT_ROW)
		return ret < 0 ? -3 : -1;
	out->res.task = calloc(out->meta.tasks ? out->meta.tasks : 1, sizeof(*out->res.task));
	if (!out->res.task)
		return -3;
	ret = fill_tasks(s, id, out);
	if (!ret)
		ret = fill_values(s, id, out);
	if (!ret)
		ret = fill_metrics(s, id, out);
	if (!ret) {
		sort_events(&out->res);
		sort_metrics(&out->res);
	}
	return ret;
}

int store_load_run(struct store *s, const char *key, struct stored_run *out)
{
	int ret = load_run(s, key, out);

	return ret == 0 ? 0 : ret == -1 ? -ENOENT : ret == -2 ? -ENOTUNIQ : -EIO;
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
