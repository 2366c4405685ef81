/* store/query.c - the named reads behind runs, history, compare and db check, on both engines. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "lib/log.h"
#include "store/internal.h"
#include "store/query.h"
#include "store/pg.h"
#include "store/stmt.h"

/* Column i of st as text, "" when NULL. */
static const char *text(struct stmt *st, int i)
{
	const char *t = stmt_col_text(st, i);

	return t ? t : "";
}

/* What a read loop that ended with rc returns: ret, or -EIO on an error. */
static int done(struct stmt *st, int ret, int rc)
{
	stmt_finish(st);
	return !ret && rc < 0 ? -EIO : ret;
}

int store_list_runs(struct store *s, const struct store_runs_filter *f,
		    int (*fn)(void *ctx, const struct store_run_row *r), void *ctx)
{
	static const char *q =
		"SELECT r.id, r.uuid, r.started_at, r.backend, r.status, r.workload, r.tasks,"
		" r.page_size, COALESCE(r.align, ''), COALESCE(r.backing, ''), r.rounds,"
		" COALESCE(r.label, ''), m.fingerprint, COALESCE(r.reason, ''), r.cell,"
		" COALESCE(r.machine_name, ''), COALESCE(r.kernel_variant, ''), COALESCE(r.boot_id, '')"
		" FROM run r JOIN machine m ON m.id = r.machine_id"
		" WHERE (?1 IS NULL OR r.label LIKE ?1) AND (?2 IS NULL OR r.backend LIKE ?2)"
		" AND (?3 = 0 OR r.status = 'failed') AND (?5 IS NULL OR r.machine_name = ?5)"
		" ORDER BY r.started_at DESC, r.id DESC LIMIT ?4";
	struct stmt *st = stmt_prepare(s, q);
	int rc = 0, ret = 0;

	if (!st)
		return -EIO;
	stmt_bind_text(st, 1, f->label);
	stmt_bind_text(st, 2, f->backend);
	stmt_bind_int64(st, 3, f->failed);
	stmt_bind_int64(st, 4, f->limit > INT64_MAX ? INT64_MAX : (int64_t)f->limit);
	stmt_bind_text(st, 5, f->machine);
	while (!ret && (rc = stmt_step(st)) == STMT_ROW) {
		struct store_run_row r = {
			.id = stmt_col_int64(st, 0), .uuid = text(st, 1),
			.started_at = text(st, 2), .backend = text(st, 3), .status = text(st, 4),
			.workload = text(st, 5), .tasks = stmt_col_int64(st, 6),
			.page_size = text(st, 7), .align = text(st, 8), .backing = text(st, 9),
			.rounds = stmt_col_int64(st, 10), .label = text(st, 11),
			.fingerprint = text(st, 12), .reason = text(st, 13), .cell = text(st, 14),
			.machine_name = text(st, 15), .kernel_variant = text(st, 16),
			.boot_id = text(st, 17),
		};

		ret = fn(ctx, &r);
	}
	return done(st, ret, rc);
}

int store_metric_names(struct store *s, const char *cell_glob, const char *machine,
		       int (*fn)(void *ctx, const char *name), void *ctx)
{
	/* names only, from the view's two sources apart: the view would sum every run's values */
	static const char *q =
		"SELECT v.event FROM value v JOIN run r ON r.id = v.run_id JOIN machine m ON m.id = r.machine_id"
		" WHERE r.status = 'ok' AND r.cell GLOB ?1"
		" AND (substr(m.fingerprint, 1, length(?2)) = ?2 OR r.machine_name = ?2)"
		" UNION SELECT x.name FROM metric x JOIN run r ON r.id = x.run_id"
		" JOIN machine m ON m.id = r.machine_id"
		" WHERE r.status = 'ok' AND r.cell GLOB ?1"
		" AND (substr(m.fingerprint, 1, length(?2)) = ?2 OR r.machine_name = ?2)"
		" ORDER BY 1";
	struct stmt *st = stmt_prepare(s, q);
	int rc = 0, ret = 0;

	if (!st)
		return -EIO;
	stmt_bind_text(st, 1, cell_glob);
	stmt_bind_text(st, 2, machine ? machine : "");
	while (!ret && (rc = stmt_step(st)) == STMT_ROW)
		ret = fn(ctx, text(st, 0));
	return done(st, ret, rc);
}

int store_list_series(struct store *s, const char *cell_glob, const char *machine,
		      int (*fn)(void *ctx, const char *cell, int64_t machine_id,
				const char *fp, const char *name, int nightly), void *ctx)
{
	static const char *q =
		"SELECT r.cell, r.machine_id, m.fingerprint, COALESCE(r.machine_name, ''),"
		" MAX(CASE WHEN r.label GLOB 'nightly-*' THEN 1 ELSE 0 END)"
		" FROM run r JOIN machine m ON m.id = r.machine_id"
		" WHERE r.status = 'ok' AND r.cell GLOB ?1"
		" AND (substr(m.fingerprint, 1, length(?2)) = ?2 OR r.machine_name = ?2)"
		" GROUP BY r.cell, r.machine_id, m.fingerprint, COALESCE(r.machine_name, '')"
		" ORDER BY r.cell, COALESCE(r.machine_name, ''), m.fingerprint";
	struct stmt *st = stmt_prepare(s, q);
	int rc = 0, ret = 0;

	if (!st)
		return -EIO;
	stmt_bind_text(st, 1, cell_glob);
	stmt_bind_text(st, 2, machine ? machine : "");
	while (!ret && (rc = stmt_step(st)) == STMT_ROW)
		ret = fn(ctx, text(st, 0), stmt_col_int64(st, 1), text(st, 2), text(st, 3),
			 (int)stmt_col_int64(st, 4));
	return done(st, ret, rc);
}

int store_series_points(struct store *s, const char *metric, const char *cell,
			int64_t machine_id, const char *name, int per_night,
			int (*fn)(void *ctx, const char *label, const char *date, const char *uuid,
				  int has_value, double value), void *ctx)
{
	static const char *q =
		"SELECT r.label, r.started_at, r.uuid, COALESCE("
		"  (SELECT CASE WHEN COUNT(v.value) = COUNT(*) THEN SUM(v.value) END FROM value v"
		"   WHERE v.run_id = r.id AND v.event = ?1),"
		"  (SELECT x.value FROM metric x WHERE x.run_id = r.id AND x.name = ?1)), n.night"
		" FROM run r LEFT JOIN (SELECT label, MIN(started_at) AS night FROM run"
		"  WHERE cell = ?2 AND machine_id = ?3 AND status = 'ok'"
		"  AND (?5 IS NULL OR COALESCE(machine_name, '') = ?5) GROUP BY label) n"
		"  ON n.label = r.label"
		" WHERE r.status = 'ok' AND r.cell = ?2 AND r.machine_id = ?3"
		"  AND (?5 IS NULL OR COALESCE(r.machine_name, '') = ?5)"
		"  AND (?4 = 0 OR r.label GLOB 'nightly-*')"
		" ORDER BY CASE WHEN ?4 <> 0 THEN night END, CASE WHEN ?4 <> 0 THEN r.label END,"
		"  r.started_at, r.id";
	struct stmt *st = stmt_prepare(s, q);
	int rc = 0, ret = 0;

	if (!st)
		return -EIO;
	stmt_bind_text(st, 1, metric);
	stmt_bind_text(st, 2, cell);
	stmt_bind_int64(st, 3, machine_id);
	stmt_bind_int64(st, 4, per_night);
	stmt_bind_text(st, 5, name);
	while (!ret && (rc = stmt_step(st)) == STMT_ROW)
		ret = fn(ctx, stmt_col_text(st, 0), text(st, 1), text(st, 2),
			 !stmt_col_is_null(st, 3), stmt_col_double(st, 3));
	return done(st, ret, rc);
}

int store_list_kernel_series(struct store *s, const char *cell_glob, const char *machine,
			     int (*fn)(void *ctx, const char *cell, const char *name,
				       int64_t fingerprints, int64_t variants), void *ctx)
{
	static const char *q =
		"SELECT r.cell, COALESCE(r.machine_name, ''), COUNT(DISTINCT r.machine_id),"
		" COUNT(DISTINCT " STORE_RUN_KERNEL ") FROM run r"
		" WHERE r.status = 'ok' AND r.cell GLOB ?1 AND " STORE_RUN_KERNEL " IS NOT NULL"
		" AND (?2 IS NULL OR r.machine_name = ?2)"
		" GROUP BY r.cell, COALESCE(r.machine_name, '')"
		" ORDER BY r.cell, COALESCE(r.machine_name, '')";
	struct stmt *st = stmt_prepare(s, q);
	int rc = 0, ret = 0;

	if (!st)
		return -EIO;
	stmt_bind_text(st, 1, cell_glob);
	stmt_bind_text(st, 2, machine);
	while (!ret && (rc = stmt_step(st)) == STMT_ROW)
		ret = fn(ctx, text(st, 0), text(st, 1), stmt_col_int64(st, 2), stmt_col_int64(st, 3));
	return done(st, ret, rc);
}

int store_kernel_points(struct store *s, const char *metric, const char *cell, const char *name,
			int (*fn)(void *ctx, const char *variant, const char *date, const char *uuid,
				  int has_value, double value), void *ctx)
{
	static const char *q =
		"SELECT " STORE_RUN_KERNEL ", r.started_at, r.uuid, COALESCE("
		"  (SELECT CASE WHEN COUNT(v.value) = COUNT(*) THEN SUM(v.value) END FROM value v"
		"   WHERE v.run_id = r.id AND v.event = ?1),"
		"  (SELECT x.value FROM metric x WHERE x.run_id = r.id AND x.name = ?1))"
		" FROM run r WHERE r.status = 'ok' AND r.cell = ?2 AND COALESCE(r.machine_name, '') = ?3"
		" AND " STORE_RUN_KERNEL " IS NOT NULL";
	struct stmt *st = stmt_prepare(s, q);
	int rc = 0, ret = 0;

	if (!st)
		return -EIO;
	stmt_bind_text(st, 1, metric);
	stmt_bind_text(st, 2, cell);
	stmt_bind_text(st, 3, name);
	while (!ret && (rc = stmt_step(st)) == STMT_ROW)
		ret = fn(ctx, text(st, 0), text(st, 1), text(st, 2), !stmt_col_is_null(st, 3),
			 stmt_col_double(st, 3));
	return done(st, ret, rc);
}

int store_list_export(struct store *s, int (*fn)(void *ctx, const struct store_export_row *r),
		      void *ctx)
{
	static const char *q =
		"SELECT r.id, r.uuid, r.status, COALESCE(r.label, ''), r.started_at, m.fingerprint,"
		" COALESCE(m.arch, ''), COALESCE(m.kernel, ''), m.info_json, COALESCE(r.machine_name, '')"
		" FROM run r JOIN machine m ON m.id = r.machine_id"
		" ORDER BY m.kernel, m.fingerprint, COALESCE(r.machine_name, ''), r.started_at, r.id";
	struct stmt *st = stmt_prepare(s, q);
	int rc = 0, ret = 0;

	if (!st)
		return -EIO;
	while (!ret && (rc = stmt_step(st)) == STMT_ROW) {
		struct store_export_row r = {
			.id = stmt_col_int64(st, 0), .uuid = text(st, 1), .status = text(st, 2),
			.label = text(st, 3), .started_at = text(st, 4), .fingerprint = text(st, 5),
			.arch = text(st, 6), .kernel = text(st, 7), .machine_json = text(st, 8),
			.machine_name = text(st, 9),
		};

		ret = fn(ctx, &r);
	}
	return done(st, ret, rc);
}

char *store_machine_fingerprint(struct store *s, int64_t id, char *buf, size_t len)
{
	struct stmt *st = stmt_prepare(s, "SELECT fingerprint FROM machine WHERE id = ?");

	snprintf(buf, len, "%s", "");
	if (!st)
		return buf;
	stmt_bind_int64(st, 1, id);
	if (stmt_step(st) == STMT_ROW)
		snprintf(buf, len, "%s", text(st, 0));
	stmt_finish(st);
	return buf;
}

int store_put_verdicts(struct store *s, const struct store_verdict *vd, size_t n)
{
	char now[32];
	time_t t = time(NULL);

	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	if (store_begin(s))
		return -EIO;
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
		v[VERDICT_MACHINE_NAME] = sv_text(d->machine_name);
		if (store_insert(s, T_VERDICT, v, NULL)) {
			error("storing verdicts: %s", store_errmsg(s));
			store_rollback(s);
			return -EIO;
		}
	}
	return store_commit(s);
}

/* The first column of the first row of sql as an integer (-1 on error). */
static int64_t scalar(struct store *s, const char *sql)
{
	int64_t v = -1;

	return store_scalar(s, sql, &v) ? -1 : v;
}

int store_scalar(struct store *s, const char *sql, int64_t *v)
{
	struct stmt *st = stmt_prepare(s, sql);
	int ret = -EIO;

	if (!st)
		return -EIO;
	if (stmt_step(st) == STMT_ROW && !stmt_col_is_null(st, 0)) {
		*v = stmt_col_int64(st, 0);
		ret = 0;
	}
	stmt_finish(st);
	return ret;
}

const char *store_columns_sql(struct store *s)
{
	return store_sql(s, "SELECT cid, name, type FROM pragma_table_info(?1) ORDER BY cid",
			 "SELECT ordinal_position, column_name, data_type FROM information_schema.columns"
			 " WHERE table_name = ?1 AND table_schema = current_schema()"
			 " ORDER BY ordinal_position");
}

/* A descriptor type as the engine names it (PostgreSQL: information_schema). */
static const char *type_name(struct store *s, enum col_type t)
{
	if (!store_is_pg(s))
		return store_col_type_name(t);
	return t == COL_INT ? "bigint" : t == COL_REAL ? "double precision" : "text";
}

int store_columns_match(struct store *s, char *why, size_t len)
{
	for (const struct store_table *t = store_tables; t->name; t++) {
		struct stmt *st = stmt_prepare(s, store_columns_sql(s));
		int i = 0, same = 1;

		if (!st)
			return -EIO;
		stmt_bind_text(st, 1, t->name);
		while (same && stmt_step(st) == STMT_ROW) {
			if (i >= t->ncol || strcmp(text(st, 1), t->col[i].name) != 0) {
				snprintf(why, len, "table %s: column %d is '%s', columns.h says '%s'",
					 t->name, i, text(st, 1), i < t->ncol ? t->col[i].name : "(none)");
				same = 0;
			} else if (strcmp(text(st, 2), type_name(s, t->col[i].type)) != 0) {
				snprintf(why, len, "table %s: column %s is %s, columns.h says %s", t->name,
					 t->col[i].name, text(st, 2), type_name(s, t->col[i].type));
				same = 0;
			}
			i++;
		}
		stmt_finish(st);
		if (same && i != t->ncol) {
			snprintf(why, len, "table %s has %d columns, columns.h %d", t->name, i, t->ncol);
			same = 0;
		}
		if (!same)
			return 0;
	}
	return 1;
}

/*
 * Whether s sorts text byte by byte, as SQLite does: 1, 0 (a server's
 * collation orders these words otherwise), or -1 on an error. The words
 * tell case, punctuation and spaces apart, which a natural-language
 * collation weighs otherwise.
 */
static int text_order_bytes(struct store *s)
{
	static const char *const bytes[] = { "B", "Z", "_", "a", "a b", "a-b", "ab" };
	struct stmt *st = stmt_prepare(s, "SELECT 'ab' AS x UNION ALL SELECT 'a-b' UNION ALL SELECT 'a b'"
				       " UNION ALL SELECT '_' UNION ALL SELECT 'a' UNION ALL SELECT 'Z'"
				       " UNION ALL SELECT 'B' ORDER BY x");
	size_t n = 0;
	int same = 1, rc;

	if (!st)
		return -1;
	while ((rc = stmt_step(st)) == STMT_ROW) {
		const char *t = text(st, 0);

		same &= n < 7 && strcmp(t, bytes[n]) == 0;
		n++;
	}
	stmt_finish(st);
	return rc < 0 ? -1 : same && n == 7;
}

int store_check(struct store *s, struct store_check *c)
{
	struct stmt *st;
	char sql[96];
	int nproblems = 0;

	if (store_is_pg(s)) {
		if (pg_check(s, c))
			return -EIO;
		c->text_bytes = text_order_bytes(s);
		st = stmt_prepare(s, "SELECT datcollate FROM pg_database WHERE datname = current_database()");
		if (st && stmt_step(st) == STMT_ROW)
			snprintf(c->collation, sizeof(c->collation), "%s", text(st, 0));
		stmt_finish(st);
		return 0;
	}
	memset(c, 0, sizeof(*c));
	if (store_user_version(s, &c->schema_version))
		return -EIO;
	snprintf(c->integrity, sizeof(c->integrity), "ok");
	st = stmt_prepare(s, "PRAGMA integrity_check");
	while (st && stmt_step(st) == STMT_ROW)
		if (!nproblems++)
			snprintf(c->integrity, sizeof(c->integrity), "%s", text(st, 0));
	stmt_finish(st);
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
	c->text_bytes = text_order_bytes(s);
	snprintf(c->collation, sizeof(c->collation), "binary");
	return 0;
}
