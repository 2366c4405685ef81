/*
 * store/pg_check.c - db check on PostgreSQL: the schema version, orphan rows,
 * row counts, and the amcheck extension's checks of every table's heap and
 * B-tree indexes where the database has amcheck and lets this role run it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "store/pg.h"

/* SQLSTATEs of amcheck's findings: data_corrupted, index_corrupted. */
#define SQLSTATE_DATA_CORRUPTED		"XX001"
#define SQLSTATE_INDEX_CORRUPTED	"XX002"

/* Count rows of sql, or -1. */
static int64_t count(struct store *s, const char *sql)
{
	int64_t v = -1;

	return pg_scalar(s, sql, &v) ? -1 : v;
}

/*
 * Run one amcheck query (its first column: a problem, or NULL/no row when
 * none). Returns 0 and leaves c->integrity alone when clean; 0 with the
 * problem in c->integrity when amcheck found one (a row, or a corruption
 * SQLSTATE); 1 with "not checked ..." in c->integrity when amcheck could
 * not run (no privilege); -1 on any other error (in s->pgerr).
 */
static int amcheck_one(struct store *s, struct store_check *c, const char *table, const char *sql)
{
	const char *params[1] = { table };
	PGresult *res = PQexecParams(s->pg, sql, 1, NULL, params, NULL, NULL, 0);
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	int ret = 0;

	if (PQresultStatus(res) == PGRES_TUPLES_OK) {
		if (PQntuples(res) > 0 && !PQgetisnull(res, 0, 0))
			snprintf(c->integrity, sizeof(c->integrity), "table %s: %.200s", table,
				 PQgetvalue(res, 0, 0));
	} else if (state && (!strcmp(state, SQLSTATE_DATA_CORRUPTED) ||
			     !strcmp(state, SQLSTATE_INDEX_CORRUPTED))) {
		pg_keep_error(s, PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY));
		snprintf(c->integrity, sizeof(c->integrity), "table %s: %.200s", table, s->pgerr);
	} else if (state && !strcmp(state, "42501")) {	/* insufficient_privilege */
		pg_keep_error(s, PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY));
		snprintf(c->integrity, sizeof(c->integrity), "%s: amcheck: %.200s",
			 STORE_INTEGRITY_UNCHECKED, s->pgerr);
		ret = 1;
	} else {
		pg_keep_error(s, res ? PQresultErrorMessage(res) : PQerrorMessage(s->pg));
		ret = -1;
	}
	PQclear(res);
	return ret;
}

/*
 * The amcheck checks of every table of the store: verify_heapam on its heap
 * (the first corruption it reports) and bt_index_check on each B-tree index
 * (which raises index_corrupted; counted, not limited, so that every index
 * is checked). Sets c->integrity to "ok", the first
 * problem, or why nothing was checked. Returns 0, or -1 on an error.
 */
static int pg_amcheck(struct store *s, struct store_check *c)
{
	static const char heap_sql[] =
		"SELECT 'block ' || blkno || ', offset ' || COALESCE(offnum::text, '-') || ': ' || msg"
		" FROM verify_heapam($1::regclass) LIMIT 1";
	static const char index_sql[] =
		"SELECT NULL::text FROM (SELECT COUNT(*) FROM (SELECT bt_index_check(i.indexrelid)"
		" FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid"
		" JOIN pg_am a ON a.oid = ic.relam"
		" WHERE a.amname = 'btree' AND i.indrelid = $1::regclass) y) x";
	int64_t have = 0;

	if (pg_scalar(s, "SELECT COUNT(*) FROM pg_extension WHERE extname = 'amcheck'", &have))
		return -1;
	if (!have) {
		snprintf(c->integrity, sizeof(c->integrity), "%s: the database has no amcheck"
			 " (a superuser can CREATE EXTENSION amcheck)", STORE_INTEGRITY_UNCHECKED);
		return 0;
	}
	snprintf(c->integrity, sizeof(c->integrity), "ok");
	for (int i = 0; store_tables[i].name; i++) {
		const char *t = store_tables[i].name;
		int ret = amcheck_one(s, c, t, heap_sql);

		if (ret == 0 && !strcmp(c->integrity, "ok"))
			ret = amcheck_one(s, c, t, index_sql);
		if (ret)
			return ret < 0 ? -1 : 0;
		if (strcmp(c->integrity, "ok"))
			return 0;
	}
	return 0;
}

int pg_check(struct store *s, struct store_check *c)
{
	static const char *const orphans[] = {
		"SELECT COUNT(*) FROM run x LEFT JOIN machine p ON p.id = x.machine_id WHERE p.id IS NULL",
		"SELECT COUNT(*) FROM task x LEFT JOIN run p ON p.id = x.run_id WHERE p.id IS NULL",
		"SELECT COUNT(*) FROM value x LEFT JOIN run p ON p.id = x.run_id WHERE p.id IS NULL",
		"SELECT COUNT(*) FROM metric x LEFT JOIN run p ON p.id = x.run_id WHERE p.id IS NULL",
		"SELECT COUNT(*) FROM noise x LEFT JOIN machine p ON p.id = x.machine_id WHERE p.id IS NULL",
		"SELECT COUNT(*) FROM verdict x LEFT JOIN machine p ON p.id = x.machine_id"
		" WHERE x.machine_id IS NOT NULL AND p.id IS NULL",
	};
	char sql[96];

	memset(c, 0, sizeof(*c));
	if (pg_schema_version(s, &c->schema_version))
		return -1;
	if (pg_amcheck(s, c))
		return -1;
	for (size_t i = 0; i < sizeof(orphans) / sizeof(orphans[0]); i++) {
		int64_t n = count(s, orphans[i]);

		if (n < 0)
			return -1;
		c->fk_problems += n;
	}
	c->failed_runs = count(s, "SELECT COUNT(*) FROM run WHERE status = 'failed'");
	for (int i = 0; store_tables[i].name && i < 16; i++) {
		snprintf(sql, sizeof(sql), "SELECT COUNT(*) FROM %s", store_tables[i].name);
		c->rows[i] = count(s, sql);
	}
	return 0;
}
