/*
 * store/stmt.c - the statement API of stmt.h: SQLite here, PostgreSQL
 * through pg_stmt.c. Numbers bound on PostgreSQL go as text that
 * round-trips (%.17g for doubles).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/log.h"
#include "store/internal.h"
#include "store/pg.h"
#include "store/stmt.h"

struct stmt {
	struct store *s;
	sqlite3_stmt *lite;	/* SQLite, or NULL */
	struct pg_stmt *pg;	/* PostgreSQL, or NULL */
};

int store_is_pg(const struct store *s)
{
	return s->pg != NULL;
}

const char *store_sql(const struct store *s, const char *lite, const char *pg)
{
	return s->pg ? pg : lite;
}

struct stmt *stmt_prepare(struct store *s, const char *sql)
{
	struct stmt *st = calloc(1, sizeof(*st));

	if (!st) {
		error("out of memory");
		return NULL;
	}
	st->s = s;
	if (s->pg) {
		st->pg = pg_stmt_prepare(s, sql);
		if (!st->pg) {
			free(st);
			return NULL;
		}
		return st;
	}
	if (sqlite3_prepare_v2(s->db, sql, -1, &st->lite, NULL) != SQLITE_OK) {
		error("database: %s", sqlite3_errmsg(s->db));
		free(st);
		return NULL;
	}
	return st;
}

int stmt_bind_text(struct stmt *st, int i, const char *v)
{
	if (st->pg)
		return pg_stmt_bind(st->pg, i, v, PG_OID_UNKNOWN);
	if (!v)
		return sqlite3_bind_null(st->lite, i) == SQLITE_OK ? 0 : -1;
	return sqlite3_bind_text(st->lite, i, v, -1, SQLITE_TRANSIENT) == SQLITE_OK ? 0 : -1;
}

int stmt_bind_int64(struct stmt *st, int i, int64_t v)
{
	char buf[32];

	if (st->pg) {
		snprintf(buf, sizeof(buf), "%" PRId64, v);
		return pg_stmt_bind(st->pg, i, buf, PG_OID_INT8);
	}
	return sqlite3_bind_int64(st->lite, i, v) == SQLITE_OK ? 0 : -1;
}

int stmt_bind_double(struct stmt *st, int i, double v)
{
	char buf[40];

	if (st->pg) {
		snprintf(buf, sizeof(buf), "%.17g", v);
		return pg_stmt_bind(st->pg, i, buf, PG_OID_FLOAT8);
	}
	return sqlite3_bind_double(st->lite, i, v) == SQLITE_OK ? 0 : -1;
}

int stmt_bind_null(struct stmt *st, int i)
{
	if (st->pg)
		return pg_stmt_bind(st->pg, i, NULL, PG_OID_UNKNOWN);
	return sqlite3_bind_null(st->lite, i) == SQLITE_OK ? 0 : -1;
}

int stmt_bind_val(struct stmt *st, int i, const struct store_val *v)
{
	switch (v->kind) {
	case SV_INT:
		return stmt_bind_int64(st, i, v->i);
	case SV_REAL:
		return stmt_bind_double(st, i, v->d);
	case SV_TEXT:
		return stmt_bind_text(st, i, v->s);
	default:
		return stmt_bind_null(st, i);
	}
}

int stmt_step(struct stmt *st)
{
	int rc;

	if (st->pg)
		return pg_stmt_step(st->pg);
	rc = sqlite3_step(st->lite);
	if (rc == SQLITE_ROW)
		return STMT_ROW;
	return rc == SQLITE_DONE ? STMT_DONE : -1;
}

int stmt_ncols(struct stmt *st)
{
	return st->pg ? pg_stmt_ncols(st->pg) : sqlite3_column_count(st->lite);
}

const char *stmt_col_name(struct stmt *st, int i)
{
	return st->pg ? pg_stmt_col_name(st->pg, i) : sqlite3_column_name(st->lite, i);
}

enum stmt_type stmt_col_type(struct stmt *st, int i)
{
	if (st->pg)
		return (enum stmt_type)pg_stmt_col_type(st->pg, i);
	switch (sqlite3_column_type(st->lite, i)) {
	case SQLITE_NULL:
		return ST_NULL;
	case SQLITE_INTEGER:
		return ST_INT;
	case SQLITE_FLOAT:
		return ST_REAL;
	default:
		return ST_TEXT;
	}
}

int stmt_col_is_null(struct stmt *st, int i)
{
	return stmt_col_type(st, i) == ST_NULL;
}

const char *stmt_col_text(struct stmt *st, int i)
{
	if (st->pg)
		return pg_stmt_col_text(st->pg, i);
	return (const char *)sqlite3_column_text(st->lite, i);
}

int64_t stmt_col_int64(struct stmt *st, int i)
{
	const char *t;

	if (!st->pg)
		return sqlite3_column_int64(st->lite, i);
	t = pg_stmt_col_raw(st->pg, i);
	if (!t)
		return 0;
	/* a boolean, or a number written as a double (SUM of REAL) */
	if (*t == 't' || *t == 'f')
		return *t == 't';
	return strpbrk(t, ".eE") ? (int64_t)strtod(t, NULL) : strtoll(t, NULL, 10);
}

double stmt_col_double(struct stmt *st, int i)
{
	const char *t;

	if (!st->pg)
		return sqlite3_column_double(st->lite, i);
	t = pg_stmt_col_raw(st->pg, i);
	return t ? strtod(t, NULL) : 0.0;
}

struct store_val stmt_col_val(struct stmt *st, int i)
{
	switch (stmt_col_type(st, i)) {
	case ST_INT:
		return (struct store_val){ .kind = SV_INT, .i = stmt_col_int64(st, i) };
	case ST_REAL:
		return (struct store_val){ .kind = SV_REAL, .d = stmt_col_double(st, i) };
	case ST_TEXT:
		return sv_text(stmt_col_text(st, i));
	default:
		return sv_null();
	}
}

int64_t stmt_changes(struct stmt *st)
{
	return st->pg ? pg_stmt_changes(st->pg) : sqlite3_changes(st->s->db);
}

int64_t stmt_insert_id(struct stmt *st)
{
	return st->pg ? pg_stmt_insert_id(st->pg) : sqlite3_last_insert_rowid(st->s->db);
}

void stmt_reset(struct stmt *st)
{
	if (st->pg)
		pg_stmt_reset(st->pg);
	else
		sqlite3_reset(st->lite);
}

void stmt_finish(struct stmt *st)
{
	if (!st)
		return;
	if (st->pg)
		pg_stmt_finish(st->pg);
	else
		sqlite3_finalize(st->lite);
	free(st);
}

int store_begin(struct store *s)
{
	/* SQLite: take the write lock now, so a busy writer waits here and not at COMMIT */
	return store_exec(s, s->pg ? "BEGIN" : "BEGIN IMMEDIATE");
}

int store_commit(struct store *s)
{
	return store_exec(s, "COMMIT");
}

void store_rollback(struct store *s)
{
	if (s->pg)
		pg_exec_quiet(s, "ROLLBACK");
	else
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}
