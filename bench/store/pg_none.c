/*
 * store/pg_none.c - the PostgreSQL engine of a build without libpq (the
 * static guest binaries of `make lab`, `make CROSS=...`): a postgresql://
 * --db is refused with the reason; nothing else is reachable, since no
 * store is ever on PostgreSQL here.
 */
#include <stdio.h>
#include "lib/log.h"
#include "store/pg.h"

int pg_open(const char *uri, int migrate, struct store **out)
{
	error("'%s': this sgabench was built without PostgreSQL (libpq); use an SQLite path", uri);
	hint("the host build (make) has it; a static CROSS build does not");
	return EX_RESOURCE;
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

int pg_put_run(struct store *s, const struct sysinfo *si, const struct run_meta *m,
	       const struct run_result *r, int64_t *run_id)
{
	return -1;
}

int pg_list_runs(struct store *s, const struct store_runs_filter *f,
		 int (*fn)(void *ctx, const struct store_run_row *r), void *ctx)
{
	return -1;
}

int pg_load_run(struct store *s, const char *key, struct stored_run *out)
{
	return -1;
}

int pg_check(struct store *s, struct store_check *c)
{
	return -1;
}
