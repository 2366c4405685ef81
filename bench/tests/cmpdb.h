/*
 * cmpdb.h - the fixture of the compare, history and db tests (t_compare.c,
 * t_history_db.c): a scratch directory, throwaway databases of synthetic
 * runs whose truth is known, a subcommand run with its output captured,
 * and SQL's json functions as a jq over that output. One test binary
 * includes it once.
 */
#ifndef SGA_TESTS_CMPDB_H
#define SGA_TESTS_CMPDB_H
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sqlite3.h>
#include "builtin/builtin.h"
#include "lib/rng.h"
#include "store/store.h"

extern const char *const store_migrations[];

static char dir[64], dbpath[128], outpath[128], errpath[128];
static struct rng rng;
static int nrun;

static inline double gauss(void)
{
	double u1 = rng_double(&rng), u2 = rng_double(&rng);

	return sqrt(-2 * log(u1 > 1e-300 ? u1 : 1e-300)) * cos(2 * M_PI * u2);
}

static inline void exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		printf("# sql error: %s\n# in: %.200s\n", msg, sql);
		exit(1);
	}
}

/* A database at path with the current schema, two machines and nothing else. */
static inline sqlite3 *make_db(const char *path)
{
	sqlite3 *db;
	char sql[64];

	unlink(path);
	if (sqlite3_open(path, &db) != SQLITE_OK)
		exit(1);
	for (int i = 0; store_migrations[i]; i++) {
		exec(db, store_migrations[i]);
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", i + 1);
		exec(db, sql);
	}
	exec(db, "INSERT INTO machine (id, fingerprint, first_seen, info_json) VALUES"
		 " (1, 'aaaaaaaaaaaaaaaa', '2026-11-01T00:00:00Z', '{}'),"
		 " (2, 'bbbbbbbbbbbbbbbb', '2026-11-01T00:00:00Z', '{}')");
	return db;
}

/*
 * One run of cell on machine, labelled, with minor-faults ~ faults,
 * accesses-per-s ~ aps (1 % noise each), and dTLB-load-misses missing
 * (no PMU) on its one task. faults < 0 stores minor-faults as missing.
 */
static inline void add_run(sqlite3 *db, int machine, const char *cell, const char *label, int day,
		    int hour, double faults, double aps)
{
	char sql[2048], fv[64];
	int id = ++nrun;

	if (faults < 0)
		snprintf(fv, sizeof(fv), "NULL, 'no-pmu'");
	else
		snprintf(fv, sizeof(fv), "%.17g, NULL", faults * (1 + 0.01 * gauss()));

	snprintf(sql, sizeof(sql),
		 "INSERT INTO run (id, uuid, machine_id, started_at, version, backend, workload,"
		 " tasks, page_size, sharedctx, sga_bytes, working_set_bytes, rounds, seed, cell, label,"
		 " config_json, status) VALUES (%d, 'uuid-%04d', %d,"
		 " '2026-11-%02dT%02d:%02d:00Z', 'test', 'native', 'rounds', 1, '4k', 0, 1, 1, 1, 1,"
		 " '%s', '%s', '{}', 'ok');"
		 "INSERT INTO value (run_id, task, event, value, missing) VALUES"
		 " (%d, 0, 'dTLB-load-misses', NULL, 'no-pmu');"
		 "INSERT INTO value (run_id, task, event, value, missing) VALUES"
		 " (%d, 0, 'minor-faults', %s);"
		 "INSERT INTO metric (run_id, name, value) VALUES (%d, 'accesses-per-s', %.17g);",
		 id, id, machine, day, hour, id % 60, cell, label, id, id, fv, id,
		 aps * (1 + 0.01 * gauss()));
	exec(db, sql);
}

/* Run a subcommand with stdout and stderr captured in files; returns its
 * exit status, its return mapped by builtin_exit() as main() maps it. */
static inline int run_cmd(int (*fn)(int, char **), char **argv)
{
	int argc = 0, so = dup(1), se = dup(2), ret;
	int fo = open(outpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int fe = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	while (argv[argc])
		argc++;
	fflush(stdout);
	dup2(fo, 1);
	dup2(fe, 2);
	ret = builtin_exit(fn(argc, argv));
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(fo);
	close(fe);
	close(so);
	close(se);
	return ret;
}

/* The whole text of path (static buffer). */
static inline const char *slurp(const char *path)
{
	static char buf[1 << 20];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	buf[n] = '\0';
	if (f)
		fclose(f);
	return buf;
}

/* Evaluate a SQL expression over the captured JSON output ($j); returns a static string. */
static inline const char *jq(const char *expr)
{
	static char res[4096];
	char sql[1024];
	sqlite3 *db;
	sqlite3_stmt *st;

	res[0] = '\0';
	sqlite3_open(":memory:", &db);
	snprintf(sql, sizeof(sql), "SELECT %s FROM (SELECT ?1 AS j)", expr);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, slurp(outpath), -1, SQLITE_TRANSIENT);
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
			snprintf(res, sizeof(res), "%s", sqlite3_column_text(st, 0));
	} else {
		snprintf(res, sizeof(res), "error: %s", sqlite3_errmsg(db));
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	return res;
}

/* The verdict of cell/metric in the captured JSON. */
static inline const char *verdict_of(const char *cell, const char *metric)
{
	char expr[512];

	snprintf(expr, sizeof(expr),
		 "(SELECT json_extract(value, '$.verdict') FROM json_each(j, '$.rows')"
		 " WHERE json_extract(value, '$.cell') = '%s' AND json_extract(value, '$.metric') = '%s')",
		 cell, metric);
	return jq(expr);
}

/* 14 nights of history for cells A and B on machine 1, tonight with A's faults +5 %. */
static inline void fill_nightly(sqlite3 *db)
{
	char label[64];

	for (int d = 16; d <= 30; d++) {
		snprintf(label, sizeof(label), "nightly-2026-11-%02d", d);
		for (int k = 0; k < (d == 30 ? 10 : 2); k++) {
			add_run(db, 1, "cell=A", label, d, 1, d == 30 ? 1050 : 1000, 5e8);
			add_run(db, 1, "cell=B", label, d, 1, 2000, d == 30 ? 4.75e8 : 5e8);
		}
	}
	/* a failed run and a run of another label in between: never selected */
	exec(db, "UPDATE run SET status = 'failed', reason = 'test' WHERE id = 1");
	add_run(db, 1, "cell=A", "adhoc", 29, 5, 5000, 5e8);
	/* one of tonight's runs lost its counter: skipped, never 0 */
	add_run(db, 1, "cell=A", "nightly-2026-11-30", 30, 2, -1, 5e8);
}

/* Remove the scratch directory and the files in it. */
static inline void remove_dir(const char *d)
{
	DIR *dp = opendir(d);
	struct dirent *e;
	char p[512];

	while (dp && (e = readdir(dp))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", d, e->d_name);
		unlink(p);
	}
	if (dp)
		closedir(dp);
	rmdir(d);
}

/* The scratch directory and its paths; the generator seeded. 1 on failure. */
static inline int cmpdb_setup(const char *tag)
{
	snprintf(dir, sizeof(dir), "%s/sgabench-%s.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
		 tag);
	if (!mkdtemp(dir))
		return 1;
	snprintf(dbpath, sizeof(dbpath), "%s/t.db", dir);
	snprintf(outpath, sizeof(outpath), "%s/out", dir);
	snprintf(errpath, sizeof(errpath), "%s/err", dir);
	rng_seed(&rng, 1203, 0);
	return 0;
}
#endif
