/* store/query.c - the named reads behind runs, history, compare and db check. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "lib/log.h"
#include "store/internal.h"
#include "store/query.h"
#include "store/pg.h"

/* Column i of st as text, "" when NULL. */
static const char *text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? (const char *)t : "";
}

int store_list_runs(struct store *s, const struct store_runs_filter *f,
		    int (*fn)(void *ctx, const struct store_run_row *r), void *ctx)
{
	static const char *q =
		"SELECT r.id, r.uuid, r.started_at, r.backend, r.status, r.workload, r.tasks,"
		" r.page_size, COALESCE(r.align, ''), COALESCE(r.backing, ''), r.rounds,"
		" COALESCE(r.label, ''), m.fingerprint, COALESCE(r.reason, ''), r.cell"
		" FROM run r JOIN machine m ON m.id = r.machine_id"
		" WHERE (?1 IS NULL OR r.label LIKE ?1) AND (?2 IS NULL OR r.backend LIKE ?2)"
		" AND (?3 = 0 OR r.status = 'failed')"
		" ORDER BY r.started_at DESC, r.id DESC LIMIT ?4";
	sqlite3_stmt *st;
	int rc, ret = 0;

	if (s->pg)
		return (ret = pg_list_runs(s, f, fn, ctx)) == -1 ? -EIO : ret;
	st = store_prepare(s, q);
	if (!st)
		return -EIO;
	store_bind_text(st, 1, f->label);
	store_bind_text(st, 2, f->backend);
	sqlite3_bind_int(st, 3, f->failed);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)f->limit);
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct store_run_row r = {
			.id = sqlite3_column_int64(st, 0), .uuid = text(st, 1),
			.started_at = text(st, 2), .backend = text(st, 3), .status = text(st, 4),
			.workload = text(st, 5), .tasks = sqlite3_column_int64(st, 6),
			.page_size = text(st, 7), .align = text(st, 8), .backing = text(st, 9),
			.rounds = sqlite3_column_int64(st, 10), .label = text(st, 11),
			.fingerprint = text(st, 12), .reason = text(st, 13), .cell = text(st, 14),
		};

		ret = fn(ctx, &r);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = -EIO;
	sqlite3_finalize(st);
	return ret;
}

int store_list_series(struct store *s, const char *cell_glob, const char *fp_prefix,
		      int (*fn)(void *ctx, const char *cell, int64_t machine_id,
				const char *fp, int nightly), void *ctx)
{
	static const char *q =
		"SELECT r.cell, r.machine_id, m.fingerprint, MAX(r.label GLOB 'nightly-*')"
		" FROM run r JOIN machine m ON m.id = r.machine_id"
		" WHERE r.status = 'ok' AND r.cell GLOB ?1 AND m.fingerprint GLOB ?2 || '*'"
		" GROUP BY r.cell, r.machine_id ORDER BY r.cell, m.fingerprint";
	sqlite3_stmt *st = store_prepare(s, q);
	int rc, ret = 0;

	if (!st)
		return -EIO;
	store_bind_text(st, 1, cell_glob);
	store_bind_text(st, 2, fp_prefix ? fp_prefix : "");
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW)
		ret = fn(ctx, text(st, 0), sqlite3_column_int64(st, 1), text(st, 2),
			 sqlite3_column_int(st, 3));
	if (!ret && rc != SQLITE_DONE)
		ret = -EIO;
	sqlite3_finalize(st);
	return ret;
}

int store_series_points(struct store *s, const char *metric, const char *cell,
			int64_t machine_id, int per_night,
			int (*fn)(void *ctx, const char *label, const char *date, const char *uuid,
				  int has_value, double value), void *ctx)
{
	static const char *q =
		"SELECT r.label, r.started_at, r.uuid,"
		" (SELECT value FROM run_metric WHERE run_id = r.id AND name = ?1), n.night"
		" FROM run r LEFT JOIN (SELECT label, MIN(started_at) AS night FROM run"
		"  WHERE cell = ?2 AND machine_id = ?3 AND status = 'ok' GROUP BY label) n"
		"  ON n.label = r.label"
		" WHERE r.status = 'ok' AND r.cell = ?2 AND r.machine_id = ?3"
		"  AND (?4 = 0 OR r.label GLOB 'nightly-*')"
		" ORDER BY CASE WHEN ?4 THEN night END, CASE WHEN ?4 THEN r.label END,"
		"  r.started_at, r.id";
	sqlite3_stmt *st = store_prepare(s, q);
	int rc, ret = 0;

	if (!st)
		return -EIO;
	store_bind_text(st, 1, metric);
	store_bind_text(st, 2, cell);
	sqlite3_bind_int64(st, 3, machine_id);
	sqlite3_bind_int(st, 4, per_night);
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW)
		ret = fn(ctx, (const char *)sqlite3_column_text(st, 0), text(st, 1), text(st, 2),
			 sqlite3_column_type(st, 3) != SQLITE_NULL, sqlite3_column_double(st, 3));
	if (!ret && rc != SQLITE_DONE)
		ret = -EIO;
	sqlite3_finalize(st);
	return ret;
}

int store_list_export(struct store *s, int (*fn)(void *ctx, const struct store_export_row *r),
		      void *ctx)
{
	static const char *q =
		"SELECT r.id, r.uuid, r.status, COALESCE(r.label, ''), r.started_at, m.fingerprint,"
		" COALESCE(m.arch, ''), COALESCE(m.kernel, ''), m.info_json"
		" FROM run r JOIN machine m ON m.id = r.machine_id"
		" ORDER BY m.kernel, m.fingerprint, r.started_at, r.id";
	sqlite3_stmt *st = store_prepare(s, q);
	int rc, ret = 0;

	if (!st)
		return -EIO;
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct store_export_row r = {
			.id = sqlite3_column_int64(st, 0), .uuid = text(st, 1), .status = text(st, 2),
			.label = text(st, 3), .started_at = text(st, 4), .fingerprint = text(st, 5),
			.arch = text(st, 6), .kernel = text(st, 7), .machine_json = text(st, 8),
		};

		ret = fn(ctx, &r);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = -EIO;
	sqlite3_finalize(st);
	return ret;
}

double store_noise_floor(struct store *s, const char *cell, const char *metric, int64_t machine)
{
	static const char *q = "SELECT MAX(floor) FROM noise WHERE cell = ?1 AND metric = ?2"
			       " AND (?3 < 0 OR machine_id = ?3)";
	sqlite3_stmt *st;
	double f = NAN;

	if (sqlite3_prepare_v2(s->db, q, -1, &st, NULL) != SQLITE_OK)
		return NAN;
	store_bind_text(st, 1, cell);
	store_bind_text(st, 2, metric);
	sqlite3_bind_int64(st, 3, machine);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		f = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	return f;
}

char *store_machine_fingerprint(struct store *s, int64_t id, char *buf, size_t len)
{
	sqlite3_stmt *st;

	snprintf(buf, len, "%s", "");
	if (sqlite3_prepare_v2(s->db, "SELECT fingerprint FROM machine WHERE id = ?", -1, &st,
			       NULL) != SQLITE_OK)
		return buf;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW)
		snprintf(buf, len, "%s", text(st, 0));
	sqlite3_finalize(st);
	return buf;
}

int store_put_verdicts(struct store *s, const struct store_verdict *vd, size_t n)
{
	char now[32];
	time_t t = time(NULL);

	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	if (store_exec(s, "BEGIN IMMEDIATE"))
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct store_verdict *d = &vd[i];
		struct store_val v[VERDICT_NCOL];

		v[VERDICT_ID] = sv_null();
		v[VERDICT_CREATED_AT] = sv_text(now);
		v[VERDICT_BASELINE] = sv_text(d->baseline);
		v[VERDICT_CANDIDATE] = sv_text(d->candidate);
		v[VERDICT_CELL] = sv_text(d->cell);
		v[VERDICT_METRIC] = sv_text(d->metric);
		v[VERDICT_MACHINE_ID] = d->machine_id < 0 ? sv_null() : sv_int(d->machine_id);
		v[VERDICT_N_BASE] = sv_int(d->n_base);
		v[VERDICT_N_CAND] = sv_int(d->n_cand);
		v[VERDICT_RATIO] = sv_real(d->ratio);
		v[VERDICT_CI_LO] = sv_real(d->ci_lo);
		v[VERDICT_CI_HI] = sv_real(d->ci_hi);
		v[VERDICT_P_VALUE] = sv_real(d->p_value);
		v[VERDICT_Q_VALUE] = sv_real(d->q_value);
		v[VERDICT_VERDICT] = sv_text(d->verdict);
		v[VERDICT_METHOD] = sv_text(d->method);
		v[VERDICT_REASON] = sv_text(d->reason);
		v[VERDICT_NOISE_FLOOR] = sv_real(d->noise_floor);
		v[VERDICT_MDE] = sv_real(d->mde);
		if (store_insert(s, T_VERDICT, v, NULL)) {
			error("storing verdicts: %s", sqlite3_errmsg(s->db));
			sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
			return -1;
		}
	}
	return store_exec(s, "COMMIT");
}

/* The first column of the first row of sql as an integer (-1 on error). */
static int64_t scalar(struct store *s, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

int store_scalar(struct store *s, const char *sql, int64_t *v)
{
	sqlite3_stmt *st;
	int ret = -1;

	if (s->pg)
		return pg_scalar(s, sql, v);
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW) {
		*v = sqlite3_column_int64(st, 0);
		ret = 0;
	}
	sqlite3_finalize(st);
	return ret;
}

int store_columns_match(struct store *s, char *why, size_t len)
{
	for (const struct store_table *t = store_tables; t->name; t++) {
		char sql[96];
		sqlite3_stmt *st;
		int i = 0, same = 1;

		snprintf(sql, sizeof(sql), "PRAGMA table_info(%s)", t->name);
		st = store_prepare(s, sql);
		if (!st)
			return -EIO;
		while (same && sqlite3_step(st) == SQLITE_ROW) {
			if (i >= t->ncol || strcmp(text(st, 1), t->col[i].name) != 0) {
				snprintf(why, len, "table %s: column %d is '%s', columns.h says '%s'",
					 t->name, i, text(st, 1), i < t->ncol ? t->col[i].name : "(none)");
				same = 0;
			} else if (strcmp(text(st, 2), store_col_type_name(t->col[i].type)) != 0) {
				snprintf(why, len, "table %s: column %s is %s, columns.h says %s", t->name,
					 t->col[i].name, text(st, 2), store_col_type_name(t->col[i].type));
				same = 0;
			}
			i++;
		}
		sqlite3_finalize(st);
		if (same && i != t->ncol) {
			snprintf(why, len, "table %s has %d columns, columns.h %d", t->name, i, t->ncol);
			same = 0;
		}
		if (!same)
			return 0;
	}
	return 1;
}

int store_check(struct store *s, struct store_check *c)
{
	sqlite3_stmt *st;
	char sql[96];
	int nproblems = 0;

	if (s->pg)
		return pg_check(s, c) ? -EIO : 0;
	memset(c, 0, sizeof(*c));
	if (store_user_version(s, &c->schema_version))
		return -EIO;
	snprintf(c->integrity, sizeof(c->integrity), "ok");
	if (sqlite3_prepare_v2(s->db, "PRAGMA integrity_check", -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW)
			if (!nproblems++)
				snprintf(c->integrity, sizeof(c->integrity), "%s", text(st, 0));
		sqlite3_finalize(st);
	}
	if (nproblems == 1 && strcmp(c->integrity, "ok") == 0)
		nproblems = 0;
	if (!nproblems)
		snprintf(c->integrity, sizeof(c->integrity), "ok");
	c->fk_problems = scalar(s, "SELECT COUNT(*) FROM pragma_foreign_key_check");
	c->failed_runs = scalar(s, "SELECT COUNT(*) FROM run WHERE status = 'failed'");
	for (int i = 0; store_tables[i].name && i < 16; i++) {
		snprintf(sql, sizeof(sql), "SELECT COUNT(*) FROM %s", store_tables[i].name);
		c->rows[i] = scalar(s, sql);
	}
	return 0;
}
