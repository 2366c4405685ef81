/*
 * store/pg_none.c - the PostgreSQL engine of a build without libpq (the
 * static guest binaries of `make lab`, `make CROSS=...`): a postgresql://
 * --db is refused with the reason; nothing else is reachable, since no
 * store is ever on PostgreSQL here.
 */
#include <errno.h>
#include <stdio.h>
#include "lib/log.h"
#include "store/pg.h"

int pg_open(const char *uri, int migrate, struct store **out)
{
	error("'%s': this sgabench was built without PostgreSQL (libpq); use an SQLite path", uri);
	hint("the host build (make) has it; a static CROSS build does not");
	return -EPROTONOSUPPORT;
}

void pg_close(struct store *s)
{
}

int pg_exec(struct store *s, const char *sql)
{
	return -1;
}

int pg_scalar(struct store *s, const char *sql, int64_t *v)
{
	return -1;
}

int pg_schema_version(struct store *s, int *v)
{
	return -1;
}

int pg_migrate(struct store *s)
{
	return -1;
}

int pg_check(struct store *s, struct store_check *c)
{
	return -1;
}

struct pg_stmt *pg_stmt_prepare(struct store *s, const char *sql)
{
	return NULL;
}

int pg_stmt_bind(struct pg_stmt *p, int i, const char *text, unsigned oid)
{
	return -1;
}

int pg_stmt_step(struct pg_stmt *p)
{
	return -1;
}

int pg_stmt_ncols(struct pg_stmt *p)
{
	return 0;
}

const char *pg_stmt_col_name(struct pg_stmt *p, int i)
{
	return "";
}

int pg_stmt_col_type(struct pg_stmt *p, int i)
{
	return 0;
}

const char *pg_stmt_col_text(struct pg_stmt *p, int i)
{
	return NULL;
}

const char *pg_stmt_col_raw(struct pg_stmt *p, int i)
{
	return NULL;
}

int64_t pg_stmt_changes(struct pg_stmt *p)
{
	return 0;
}

int64_t pg_stmt_insert_id(struct pg_stmt *p)
{
	return -1;
}

void pg_stmt_reset(struct pg_stmt *p)
{
}

void pg_stmt_finish(struct pg_stmt *p)
{
}

void pg_exec_quiet(struct store *s, const char *sql)
{
}
