/*
 * store/pg_stmt.c - the PostgreSQL side of stmt.h: a statement is its
 * translated SQL (pg_sql.c) and text parameters, run with PQexecParams at
 * its first step; later steps walk the rows of the result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/log.h"
#include "store/pg.h"
#include "store/stmt.h"

struct pg_stmt {
	struct store *s;
	char *sql;
	int nparams;
	unsigned char glob[PG_MAXPARAM + 1];	/* parameter i is a GLOB pattern */
	char *val[PG_MAXPARAM];			/* parameter texts, NULL for SQL NULL */
	Oid type[PG_MAXPARAM];
	PGresult *res;
	char (*num)[40];			/* per column: a double as SQLite prints it */
	int row;				/* current row of res; -1 before the first */
	int64_t changes, insert_id;
};

struct pg_stmt *pg_stmt_prepare(struct store *s, const char *sql)
{
	struct pg_stmt *p = calloc(1, sizeof(*p));

	if (!p || !(p->sql = pg_translate(sql, &p->nparams, p->glob))) {
		free(p);
		error("database: cannot translate a statement for PostgreSQL (out of memory or"
		      " over %d parameters)", PG_MAXPARAM);
		return NULL;
	}
	p->s = s;
	p->row = -1;
	p->insert_id = -1;
	return p;
}

int pg_stmt_bind(struct pg_stmt *p, int i, const char *text, unsigned oid)
{
	char *v = NULL;

	if (i < 1 || i > p->nparams)
		return -1;
	if (text) {
		v = (p->glob[i] & 1) ? pg_glob_regex(text, strlen(text)) : strdup(text);
		if (!v)
			return -1;
	}
	free(p->val[i - 1]);
	p->val[i - 1] = v;
	p->type[i - 1] = oid;
	return 0;
}

/* Run the statement, before its first row; 0 or -1 with the message kept. */
static int execute(struct pg_stmt *p)
{
	ExecStatusType st;

	/* a parameter the text does not use must still have a type */
	for (int i = 0; i < p->nparams; i++)
		if (!(p->glob[i + 1] & PG_PARAM_USED))
			p->type[i] = PG_OID_TEXT;
	p->res = PQexecParams(p->s->pg, p->sql, p->nparams, p->type, (const char *const *)p->val,
			      NULL, NULL, 0);
	st = PQresultStatus(p->res);
	if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) {
		pg_keep_error(p->s, p->res ? PQresultErrorMessage(p->res) : PQerrorMessage(p->s->pg));
		PQclear(p->res);
		p->res = NULL;
		return -1;
	}
	p->s->pgerr[0] = '\0';
	p->changes = strtoll(PQcmdTuples(p->res), NULL, 10);
	if (st == PGRES_TUPLES_OK && PQntuples(p->res) > 0 && PQnfields(p->res) > 0 &&
	    strncmp(PQcmdStatus(p->res), "INSERT", 6) == 0)
		p->insert_id = strtoll(PQgetvalue(p->res, 0, 0), NULL, 10);
	p->row = -1;
	p->num = calloc((size_t)PQnfields(p->res) + 1, sizeof(*p->num));
	return 0;
}

int pg_stmt_step(struct pg_stmt *p)
{
	if (!p->res && execute(p) < 0)
		return -1;
	if (p->row < PQntuples(p->res))
		p->row++;
	return p->row < PQntuples(p->res) ? STMT_ROW : STMT_DONE;
}

int pg_stmt_ncols(struct pg_stmt *p)
{
	/* The columns are known once run; run a statement not yet stepped. */
	if (!p->res && execute(p) < 0)
		return 0;
	return PQnfields(p->res);
}

const char *pg_stmt_col_name(struct pg_stmt *p, int i)
{
	return p->res ? PQfname(p->res, i) : "";
}

/* Whether the current row has a column i. */
static int has(struct pg_stmt *p, int i)
{
	return p->res && p->row >= 0 && p->row < PQntuples(p->res) && i >= 0 && i < PQnfields(p->res);
}

const char *pg_stmt_col_raw(struct pg_stmt *p, int i)
{
	if (!has(p, i) || PQgetisnull(p->res, p->row, i))
		return NULL;
	return PQgetvalue(p->res, p->row, i);
}

/*
 * A double as SQLite's text of a REAL: 15 significant digits, and always
 * a decimal point (2.0, 1.0e+20), into buf.
 */
static const char *lite_real(const char *raw, char *buf, size_t len)
{
	char *e;

	snprintf(buf, len, "%.15g", strtod(raw, NULL));
	if (strpbrk(buf, ".na"))	/* a point already, or inf / nan */
		return buf;
	e = strchr(buf, 'e');
	if (!e)
		return strncat(buf, ".0", len - strlen(buf) - 1);
	memmove(e + 2, e, strlen(e) + 1);
	memcpy(e, ".0", 2);
	return buf;
}

const char *pg_stmt_col_text(struct pg_stmt *p, int i)
{
	const char *raw = pg_stmt_col_raw(p, i);
	Oid t;

	if (!raw)
		return NULL;
	t = PQftype(p->res, i);
	if ((t != 700 && t != 701) || !p->num)	/* float4, float8 */
		return raw;
	return lite_real(raw, p->num[i], sizeof(p->num[i]));
}

int pg_stmt_col_type(struct pg_stmt *p, int i)
{
	const char *t = pg_stmt_col_text(p, i);

	if (!t)
		return ST_NULL;
	switch (PQftype(p->res, i)) {
	case 16:	/* bool */
	case 20:	/* int8 */
	case 21:	/* int2 */
	case 23:	/* int4 */
		return ST_INT;
	case 700:	/* float4 */
	case 701:	/* float8 */
		return ST_REAL;
	case 1700:	/* numeric: SUM of integers is an integer, as on SQLite */
		return strpbrk(t, ".eEN") ? ST_REAL : ST_INT;
	default:
		return ST_TEXT;
	}
}

int64_t pg_stmt_changes(struct pg_stmt *p)
{
	return p->changes;
}

int64_t pg_stmt_insert_id(struct pg_stmt *p)
{
	return p->insert_id;
}

void pg_stmt_reset(struct pg_stmt *p)
{
	PQclear(p->res);
	p->res = NULL;
	free(p->num);
	p->num = NULL;
	p->row = -1;
	p->insert_id = -1;
}

void pg_stmt_finish(struct pg_stmt *p)
{
	pg_stmt_reset(p);
	for (int i = 0; i < PG_MAXPARAM; i++)
		free(p->val[i]);
	free(p->sql);
	free(p);
}

void pg_exec_quiet(struct store *s, const char *sql)
{
	PQclear(PQexec(s->pg, sql));
}
