/*
 * store/pg_read.c - the readers ported to PostgreSQL: the run list of
 * 'runs' and one run with its rows for 'show'. Same queries as query.c and
 * read.c; SQLite's case-insensitive LIKE is ILIKE here, and rows come back
 * in insertion order (ctid: the store never updates them).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/log.h"
#include "store/pg.h"

/* Field (row, col) as text; "" when NULL. */
static const char *get(PGresult *r, int row, int col)
{
	return PQgetisnull(r, row, col) ? "" : PQgetvalue(r, row, col);
}

/* Field (row, col) as an integer; 0 when NULL. */
static int64_t get_i(PGresult *r, int row, int col)
{
	return strtoll(get(r, row, col), NULL, 10);
}

/* strdup of field (row, col), or NULL when it is NULL. */
static char *get_dup(PGresult *r, int row, int col)
{
	return PQgetisnull(r, row, col) ? NULL : strdup(PQgetvalue(r, row, col));
}

int pg_list_runs(struct store *s, const struct store_runs_filter *f,
		 int (*fn)(void *ctx, const struct store_run_row *r), void *ctx)
{
	static const char *q =
		"SELECT r.id, r.uuid, r.started_at, r.backend, r.status, r.workload, r.tasks,"
		" r.page_size, COALESCE(r.align, ''), COALESCE(r.backing, ''), r.rounds,"
		" COALESCE(r.label, ''), m.fingerprint, COALESCE(r.reason, ''), r.cell"
		" FROM run r JOIN machine m ON m.id = r.machine_id"
		" WHERE ($1::text IS NULL OR r.label ILIKE $1) AND ($2::text IS NULL OR r.backend ILIKE $2)"
		" AND ($3::int = 0 OR r.status = 'failed')"
		" ORDER BY r.started_at DESC, r.id DESC LIMIT $4";
	char failed[8], limit[32];
	const char *p[4] = { f->label, f->backend, failed, limit };
	PGresult *res;
	int ret = 0;

	snprintf(failed, sizeof(failed), "%d", f->failed ? 1 : 0);
	snprintf(limit, sizeof(limit), "%" PRIu64, f->limit);
	res = pg_query(s, q, 4, p, PGRES_TUPLES_OK);
	if (!res)
		return -1;
	for (int i = 0; !ret && i < PQntuples(res); i++) {
		struct store_run_row r = {
			.id = get_i(res, i, 0), .uuid = get(res, i, 1),
			.started_at = get(res, i, 2), .backend = get(res, i, 3), .status = get(res, i, 4),
			.workload = get(res, i, 5), .tasks = get_i(res, i, 6),
			.page_size = get(res, i, 7), .align = get(res, i, 8), .backing = get(res, i, 9),
			.rounds = get_i(res, i, 10), .label = get(res, i, 11),
			.fingerprint = get(res, i, 12), .reason = get(res, i, 13), .cell = get(res, i, 14),
		};

		ret = fn(ctx, &r);
	}
	PQclear(res);
	return ret;
}

/* Run ids of sql with key; the count capped at 2 with the last id, or -1. */
static int match_runs(struct store *s, const char *sql, const char *key, int64_t *id)
{
	const char *p[1] = { key };
	PGresult *res = pg_query(s, sql, 1, p, PGRES_TUPLES_OK);
	int n;

	if (!res)
		return -1;
	n = PQntuples(res) > 2 ? 2 : PQntuples(res);
	if (n)
		*id = get_i(res, n - 1, 0);
	PQclear(res);
	return n;
}

/* As find_run in read.c: a run id, else a unique uuid prefix. */
static int find_run(struct store *s, const char *key, int64_t *id)
{
	size_t n = strlen(key);
	int found;

	if (n == 0)
		return -1;
	if (strspn(key, "0123456789") == n) {
		found = match_runs(s, "SELECT id FROM run WHERE CAST(id AS TEXT) = $1", key, id);
		if (found < 0)
			return -3;
		if (found == 1)
			return 0;
	}
	found = match_runs(s, "SELECT id FROM run WHERE substr(uuid, 1, length($1)) = lower($1)"
			   " ORDER BY id LIMIT 2", key, id);
	return found < 0 ? -3 : found == 1 ? 0 : found == 0 ? -1 : -2;
}

/* Index of event name in r, added if new; -1 when full. */
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

/* The state of a stored missing reason. */
static int state_of(const char *missing)
{
	for (int st = 1; st < EV_NSTATES; st++)
		if (strcmp(ev_state_name(st), missing) == 0)
			return st;
	return EV_UNSUPPORTED;
}

/* Fill out from the run row res (the columns of q_run). */
static void fill_run(PGresult *res, struct stored_run *out)
{
	snprintf(out->res.uuid, sizeof(out->res.uuid), "%s", get(res, 0, 1));
	snprintf(out->res.started_at, sizeof(out->res.started_at), "%s", get(res, 0, 2));
	out->res.wall_s = strtod(get(res, 0, 3), NULL);
	snprintf(out->res.backend, sizeof(out->res.backend), "%s", get(res, 0, 4));
	out->meta.workload = out->workload = get_dup(res, 0, 5);
	out->meta.tasks = (unsigned)get_i(res, 0, 6);
	out->meta.threads = (int)get_i(res, 0, 7);
	out->meta.page_size = out->page_size = get_dup(res, 0, 8);
	out->meta.align = out->align = get_dup(res, 0, 9);
	out->meta.backing = out->backing = get_dup(res, 0, 10);
	out->meta.sharedctx = (int)get_i(res, 0, 11);
	out->meta.sga_bytes = (uint64_t)get_i(res, 0, 12);
	out->meta.ws_bytes = (uint64_t)get_i(res, 0, 13);
	out->meta.rounds = (uint64_t)get_i(res, 0, 14);
	out->res.seed = (uint64_t)get_i(res, 0, 15);
	out->meta.cell = out->cell = get_dup(res, 0, 16);
	out->meta.label = out->label = get_dup(res, 0, 17);
	out->meta.config_json = out->config_json = get_dup(res, 0, 18);
	snprintf(out->res.status, sizeof(out->res.status), "%s", get(res, 0, 19));
	snprintf(out->res.reason, sizeof(out->res.reason), "%s", get(res, 0, 20));
	snprintf(out->fingerprint, sizeof(out->fingerprint), "%s", get(res, 0, 21));
	out->machine_json = get_dup(res, 0, 22);
	snprintf(out->version, sizeof(out->version), "%s", get(res, 0, 23));
}

/* Load the task rows, values and metrics of run id into out. 0 or -3. */
static int fill_rows(struct store *s, const char *id, struct stored_run *out)
{
	const char *p[1] = { id };
	PGresult *res;

	res = pg_query(s, "SELECT task, cpu, accesses, window_ns, vmpte_kb, ft_minflt FROM task"
		       " WHERE run_id = $1", 1, p, PGRES_TUPLES_OK);
	if (!res)
		return -3;
	out->res.ntasks = 0;
	for (int i = 0; i < PQntuples(res); i++) {
		int t = (int)get_i(res, i, 0);
		struct task_result *tr;

		if (t < 0 || (unsigned)t >= out->meta.tasks)
			continue;
		tr = &out->res.task[t];
		tr->cpu = PQgetisnull(res, i, 1) ? -1 : (int)get_i(res, i, 1);
		tr->accesses = (uint64_t)get_i(res, i, 2);
		tr->window_ns = (uint64_t)get_i(res, i, 3);
		tr->vmpte_kb = PQgetisnull(res, i, 4) ? -1 : get_i(res, i, 4);
		tr->ft_minflt = PQgetisnull(res, i, 5) ? -1 : get_i(res, i, 5);
		if ((unsigned)t + 1 > out->res.ntasks)
			out->res.ntasks = (unsigned)t + 1;
	}
	PQclear(res);

	res = pg_query(s, "SELECT task, event, value, raw, enabled, running, missing FROM value"
		       " WHERE run_id = $1 ORDER BY ctid", 1, p, PGRES_TUPLES_OK);
	if (!res)
		return -3;
	for (int i = 0; i < PQntuples(res); i++) {
		int t = (int)get_i(res, i, 0);
		int e = event_index(&out->res, get(res, i, 1));
		struct ev_value *v;

		if (e < 0 || t < 0 || (unsigned)t >= out->meta.tasks)
			continue;
		v = &out->res.task[t].ev[e];
		v->raw = (uint64_t)get_i(res, i, 3);
		v->enabled = (uint64_t)get_i(res, i, 4);
		v->running = (uint64_t)get_i(res, i, 5);
		if (!PQgetisnull(res, i, 6)) {
			v->state = state_of(get(res, i, 6));
		} else {
			v->state = EV_COUNTED;
			v->value = strtod(get(res, i, 2), NULL);
		}
	}
	PQclear(res);

	res = pg_query(s, "SELECT name, value FROM metric WHERE run_id = $1 ORDER BY ctid", 1, p,
		       PGRES_TUPLES_OK);
	if (!res)
		return -3;
	for (int i = 0; i < PQntuples(res); i++)
		result_set_metric(&out->res, get(res, i, 0), strtod(get(res, i, 1), NULL));
	PQclear(res);
	return 0;
}

int pg_load_run(struct store *s, const char *key, struct stored_run *out)
{
	static const char *q_run =
		"SELECT r.id, r.uuid, r.started_at, r.wall_s, r.backend, r.workload, r.tasks,"
		" r.threads, r.page_size, r.align, r.backing, r.sharedctx, r.sga_bytes, r.ws_bytes,"
		" r.rounds, r.seed, r.cell, r.label, r.config_json, r.status, r.reason,"
		" m.fingerprint, m.info_json, r.version FROM run r JOIN machine m ON m.id = r.machine_id"
		" WHERE r.id = $1";
	char idtext[32];
	const char *p[1] = { idtext };
	PGresult *res;
	int64_t id = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = find_run(s, key, &id);
	if (ret)
		return ret;
	snprintf(idtext, sizeof(idtext), "%" PRId64, id);
	res = pg_query(s, q_run, 1, p, PGRES_TUPLES_OK);
	if (!res)
		return -3;
	if (PQntuples(res) != 1) {
		PQclear(res);
		return -1;
	}
	out->run_id = id;
	fill_run(res, out);
	PQclear(res);
	out->res.task = calloc(out->meta.tasks ? out->meta.tasks : 1, sizeof(*out->res.task));
	if (!out->res.task)
		return -3;
	return fill_rows(s, idtext, out);
}
