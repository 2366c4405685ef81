/*
 * t_compare.c - sgabench compare, history and db on throwaway databases
 * filled with synthetic runs whose truth is known: a 5 % regression in
 * one cell, unchanged cells, a missing counter, a second machine.
 */
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
#include "store/store.h"
#include "tap.h"

extern const char *const store_migrations[];

static char dir[64], dbpath[128], outpath[128], errpath[128];
static struct rng rng;
static int nrun;

static double gauss(void)
{
	double u1 = rng_double(&rng), u2 = rng_double(&rng);

	return sqrt(-2 * log(u1 > 1e-300 ? u1 : 1e-300)) * cos(2 * M_PI * u2);
}

static void exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		printf("# sql error: %s\n# in: %.200s\n", msg, sql);
		exit(1);
	}
}

/* A database at path with the current schema, two machines and nothing else. */
static sqlite3 *make_db(const char *path)
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
static void add_run(sqlite3 *db, int machine, const char *cell, const char *label, int day,
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
static int run_cmd(int (*fn)(int, char **), char **argv)
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
static const char *slurp(const char *path)
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
static const char *jq(const char *expr)
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
static const char *verdict_of(const char *cell, const char *metric)
{
	char expr[512];

	snprintf(expr, sizeof(expr),
		 "(SELECT json_extract(value, '$.verdict') FROM json_each(j, '$.rows')"
		 " WHERE json_extract(value, '$.cell') = '%s' AND json_extract(value, '$.metric') = '%s')",
		 cell, metric);
	return jq(expr);
}

/* 14 nights of history for cells A and B on machine 1, tonight with A's faults +5 %. */
static void fill_nightly(sqlite3 *db)
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

static void test_nightly(void)
{
	char *argv[] = { "compare", "--db", dbpath, "--baseline", "last-7-nights", "--candidate",
			 "tonight", "--json", NULL };
	char *human[] = { "compare", "--db", dbpath, "--baseline", "last-7-nights", "--candidate",
			  "tonight", NULL };
	int rc = run_cmd(cmd_compare, argv);

	is_u64(rc, 1, "compare: a 5% regression in tonight's runs exits 1");
	ok(strcmp(jq("json_extract(j, '$.baseline.resolved')"),
		  "nightly-2026-11-29 nightly-2026-11-28 nightly-2026-11-27 nightly-2026-11-26 "
		  "nightly-2026-11-25 nightly-2026-11-24 nightly-2026-11-23") == 0,
	   "last-7-nights resolves to the 7 labels before tonight's");
	ok(strcmp(jq("json_extract(j, '$.candidate.resolved')"), "nightly-2026-11-30") == 0,
	   "tonight resolves to the most recent nightly label");
	ok(strcmp(verdict_of("cell=A", "minor-faults"), "regression") == 0,
	   "cell A minor-faults +5%%: regression");
	ok(strcmp(verdict_of("cell=A", "accesses-per-s"), "no-change") == 0,
	   "cell A accesses-per-s unchanged: no-change");
	ok(strcmp(verdict_of("cell=B", "minor-faults"), "no-change") == 0,
	   "cell B minor-faults unchanged: no-change");
	ok(strcmp(verdict_of("cell=B", "accesses-per-s"), "regression") == 0,
	   "cell B accesses-per-s -5%%: regression (higher is better by default)");
	ok(strcmp(jq("(SELECT json_extract(value, '$.n_base') || '/' || json_extract(value, '$.n_cand')"
		     " || '/' || json_extract(value, '$.skipped_cand') FROM json_each(j, '$.rows')"
		     " WHERE json_extract(value, '$.cell') = 'cell=A' AND"
		     " json_extract(value, '$.metric') = 'minor-faults')"), "14/10/1") == 0,
	   "14 baseline and 10 candidate runs; the run without a value skipped (%s)",
	   jq("(SELECT json_extract(value, '$.n_base') || '/' || json_extract(value, '$.n_cand')"
	      " || '/' || json_extract(value, '$.skipped_cand') FROM json_each(j, '$.rows')"
	      " WHERE json_extract(value, '$.cell') = 'cell=A' AND"
	      " json_extract(value, '$.metric') = 'minor-faults')"));
	ok(strcmp(jq("json_array_length(j, '$.rows')"), "4") == 0 &&
	   strstr(jq("json_extract(j, '$.notes')"),
		  "no value in any run (no-pmu), not compared: 'dTLB-load-misses' (2 cells)"),
	   "a counter missing everywhere is a note, not a row");
	ok(strcmp(jq("json_extract(j, '$.method.alpha') || ' ' || json_extract(j, '$.method.resamples')"
		     " || ' ' || json_extract(j, '$.method.q') || ' ' || json_extract(j, '$.method.threshold')"),
		  "0.01 10000 0.05 0.02") == 0, "method records alpha, resamples, q and threshold");
	ok(atoi(jq("json_extract(j, '$.schema_version')")) == store_schema_version() &&
	   strlen(jq("json_extract(j, '$.version')")) > 0, "JSON carries tool and schema version");

	rc = run_cmd(cmd_compare, human);
	ok(rc == 1 && strstr(slurp(outpath), "summary: 2 regressions, 0 improvements, 2 no change"),
	   "human output: table and summary line");
	printf("%s", "# --- human output ---\n");
	for (const char *p = slurp(outpath); *p;) {
		size_t l = strcspn(p, "\n");

		printf("# %.*s\n", (int)l, p);
		p += l + (p[l] == '\n');
	}
}

static void test_options(sqlite3 *db)
{
	char *hb[] = { "compare", "--db", dbpath, "--baseline", "last-7-nights", "--candidate",
		       "tonight", "--json", "--metric", "minor-faults", "--higher-better",
		       "minor-faults", NULL };
	char *cellsel[] = { "compare", "--db", dbpath, "--baseline", "last-7-nights",
			    "--candidate", "tonight", "--json", "--cell", "*=B", NULL };
	char *last[] = { "compare", "--db", dbpath, "--baseline", "last-20", "--candidate",
			 "tonight", "--json", "--metric", "minor-faults", NULL };

	is_u64(run_cmd(cmd_compare, hb), 0, "--higher-better minor-faults: no regression, exit 0");
	ok(strcmp(verdict_of("cell=A", "minor-faults"), "improvement") == 0 &&
	   strcmp(jq("json_array_length(j, '$.rows')"), "2") == 0,
	   "--higher-better flips the direction; --metric keeps one metric");
	is_u64(run_cmd(cmd_compare, cellsel), 1, "--cell '*=B' keeps cell B only");
	ok(strcmp(jq("json_array_length(j, '$.rows')"), "2") == 0, "two rows for cell B");
	is_u64(run_cmd(cmd_compare, last), 1, "last-20 vs tonight: cell A still regressed");
	ok(strstr(jq("json_extract(j, '$.notes')"), "21 baseline runs are also candidates") != NULL &&
	   strcmp(jq("(SELECT json_extract(value, '$.n_base') FROM json_each(j, '$.rows')"
		     " WHERE json_extract(value, '$.cell') = 'cell=B')"), "10") == 0,
	   "last-20 overlapping tonight: the overlap is left out of the baseline and noted");

	char *since[] = { "compare", "--db", dbpath, "--baseline", "since:2026-11-23", "--candidate",
			  "tonight", "--json", "--metric", "minor-faults", NULL };
	char *uuids[] = { "compare", "--db", dbpath, "--baseline", "last-7-nights", "--candidate",
			  "uuid:uuid-0003,uuid-0004", "--json", "--metric", "minor-faults", NULL };

	is_u64(run_cmd(cmd_compare, since), 1, "since:2026-11-23 vs tonight: exit 1");
	ok(strcmp(jq("(SELECT group_concat(json_extract(value, '$.n_base'), ' ') FROM json_each(j, '$.rows'))"),
		  "15 14") == 0, "since: takes the runs from that day on (14, and the ad-hoc run of A)");
	is_u64(run_cmd(cmd_compare, uuids), 0, "uuid:U1,U2 as the candidate: exit 0");
	ok(strcmp(jq("(SELECT group_concat(json_extract(value, '$.n_cand') || json_extract(value, '$.verdict'), ' ')"
		     " FROM json_each(j, '$.rows'))"), "1insufficient 1insufficient") == 0,
	   "two uuids, one per cell: insufficient in both");
	exec(db, "INSERT INTO noise VALUES ('cell=A', 'minor-faults', 1, 0.10, 20, '2026-11-15')");
	char *plain[] = { "compare", "--db", dbpath, "--baseline", "last-7-nights", "--candidate",
			  "tonight", "--json", "--metric", "minor-faults", NULL };
	/* The floor is the baseline's own: a stored noise row (which a sweep
	 * computes with tonight's runs in it) must not widen the bound. */
	is_u64(run_cmd(cmd_compare, plain), 1, "a stored 10% noise row does not hide the 5% shift: exit 1");
	ok(strcmp(jq("(SELECT (json_extract(value, '$.floor_between') BETWEEN 0.001 AND 0.045) || ' ' ||"
		     " json_extract(value, '$.interleaved') || ' ' || json_extract(value, '$.baseline_sessions')"
		     " || ' ' || (json_extract(value, '$.bound') < 0.05) FROM json_each(j, '$.rows')"
		     " WHERE json_extract(value, '$.cell') = 'cell=A')"), "1 0 7 1") == 0,
	   "the row's floor is its baseline's: the range of 7 nights' medians (1%% noise, 2 runs a night), under 5%%");
	exec(db, "DELETE FROM noise");
}

static void test_sides(sqlite3 *db)
{
	char *ins[] = { "compare", "--db", dbpath, "--baseline", "label:nightly-2026-11-29",
			"--candidate", "label:three", "--json", NULL };
	char *other[] = { "compare", "--db", dbpath, "--baseline", "last-7-nights", "--candidate",
			  "label:m2", NULL };
	char *cross[] = { "compare", "--db", dbpath, "--baseline", "last-7-nights", "--candidate",
			  "label:m2", "--cross-machine", "--json", "--metric", "minor-faults", NULL };

	exec(db, "BEGIN");
	for (int k = 0; k < 3; k++)
		add_run(db, 1, "cell=A", "three", 30, 3, 1500, 5e8);
	for (int k = 0; k < 10; k++)
		add_run(db, 2, "cell=A", "m2", 30, 4, 1000, 5e8);
	exec(db, "COMMIT");
	is_u64(run_cmd(cmd_compare, ins), 0, "2 vs 3 runs: exit 0");
	ok(strcmp(verdict_of("cell=A", "minor-faults"), "insufficient") == 0,
	   "2 vs 3 runs, even with +50%%: insufficient");
	is_u64(run_cmd(cmd_compare, other), 3, "candidate only on another machine: exit 3");
	ok(strstr(slurp(errpath), "--cross-machine") != NULL, "and the hint names --cross-machine");
	is_u64(run_cmd(cmd_compare, cross), 0, "--cross-machine pairs them: exit 0");
	ok(strcmp(jq("json_extract(j, '$.cross_machine') || json_extract(j, '$.method.cross_machine')"),
		  "11") == 0 && strcmp(verdict_of("cell=A", "minor-faults"), "no-change") == 0,
	   "labelled cross-machine, and no change");
}

/*
 * --one-sided-noise: arms "osA", "osB" (10 % slower) and "osC" (as osA),
 * 16 runs each, interleaved, 6 of 16 runs of each slowed 10-50 % by the
 * "machine". The 90th percentile sees the 10 % and stays quiet on A/A.
 */
static void test_one_sided(void)
{
	char path[160];
	char *ab[] = { "compare", "--db", path, "--baseline", "label:osA", "--candidate", "label:osB",
		       "--json", "--one-sided-noise", "accesses-per-s", "--one-sided-noise=minor-faults", NULL };
	char *aa[] = { "compare", "--db", path, "--baseline", "label:osA", "--candidate", "label:osC",
		       "--one-sided-noise", "accesses-per-s", "--metric", "accesses-per-s", NULL };
	const char *arm[3] = { "osA", "osB", "osC" };
	sqlite3 *db;

	snprintf(path, sizeof(path), "%s/one.db", dir);
	db = make_db(path);
	exec(db, "BEGIN");
	for (int i = 0; i < 16; i++)
		for (int k = 0; k < 3; k++) {
			double slow = i % 3 == 0 ? 0.5 + 0.4 * rng_double(&rng) : 1;

			add_run(db, 1, "cell=S", arm[k], 1 + i, k, 1000, (k == 1 ? 4.5e8 : 5e8) * slow);
		}
	exec(db, "COMMIT");
	sqlite3_close(db);
	is_u64(run_cmd(cmd_compare, ab), 1, "--one-sided-noise: 10 % slower with 6 of 16 runs slowed: exit 1");
	ok(strcmp(verdict_of("cell=S", "accesses-per-s"), "regression") == 0, "accesses-per-s is a regression");
	ok(strcmp(jq("(SELECT json_extract(value, '$.quantile') || ' ' || json_extract(value, '$.test') || ' ' ||"
		     " (json_extract(value, '$.ratio') BETWEEN 0.87 AND 0.93) FROM json_each(j, '$.rows')"
		     " WHERE json_extract(value, '$.metric') = 'accesses-per-s')"), "0.9 permutation 1") == 0,
	   "on the 90th percentile (higher is better), by permutation, ratio near 0.9");
	ok(strcmp(jq("(SELECT json_extract(value, '$.quantile') FROM json_each(j, '$.rows')"
		     " WHERE json_extract(value, '$.metric') = 'minor-faults')"), "0.1") == 0,
	   "a lower-better metric is compared on its 10th percentile");
	ok(strcmp(jq("json_extract(j, '$.method.one_sided_noise')"), "[\"accesses-per-s\",\"minor-faults\"]") == 0,
	   "the method lists both (the option repeats)");
	is_u64(run_cmd(cmd_compare, aa), 0, "--one-sided-noise A/A: exit 0");
	ok(strstr(slurp(outpath), "no-change (higher is better) [q90]") != NULL, "no change, marked [q90]");
}

static void test_errors(void)
{
	char bad[160];
	char *badsel[] = { "compare", "--db", dbpath, "--baseline", "yesterday", "--candidate",
			   "tonight", NULL };
	char *nobase[] = { "compare", "--db", dbpath, "--candidate", "tonight", NULL };
	char *nodb[] = { "compare", "--db", bad, "--baseline", "last-7-nights", "--candidate",
			 "tonight", NULL };
	char *none[] = { "compare", "--db", dbpath, "--baseline", "label:nothing", "--candidate",
			 "tonight", NULL };
	sqlite3 *db;

	is_u64(run_cmd(cmd_compare, badsel), 2, "unknown selector: exit 2");
	ok(strstr(slurp(errpath), "--baseline 'yesterday': not a selector") != NULL,
	   "says which selector is wrong");
	is_u64(run_cmd(cmd_compare, nobase), 2, "missing --baseline: exit 2");
	snprintf(bad, sizeof(bad), "%s/none.db", dir);
	is_u64(run_cmd(cmd_compare, nodb), 3, "no database: exit 3");
	snprintf(bad, sizeof(bad), "%s/future.db", dir);
	sqlite3_open(bad, &db);
	exec(db, "CREATE TABLE x (y); PRAGMA user_version = 99");
	sqlite3_close(db);
	is_u64(run_cmd(cmd_compare, nodb), 3, "database of an unknown schema: exit 3");
	is_u64(run_cmd(cmd_compare, none), 3, "a selector matching no runs: exit 3");
}

static void test_store(sqlite3 *db)
{
	char *argv[] = { "compare", "--db", dbpath, "--baseline", "last-7-nights", "--candidate",
			 "tonight", "--store-verdicts", NULL };
	sqlite3_stmt *st;
	int n = -1;

	is_u64(run_cmd(cmd_compare, argv), 1, "--store-verdicts: still exit 1");
	sqlite3_prepare_v2(db, "SELECT COUNT(*), SUM(verdict = 'regression'),"
			   " MIN(json_extract(method, '$.alpha')), MIN(json_extract(method, '$.seed'))"
			   " FROM verdict", -1, &st, NULL);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	ok(n == 4 && sqlite3_column_int(st, 1) == 2 && sqlite3_column_double(st, 2) == 0.01 &&
	   sqlite3_column_int64(st, 3) == 20161216, "4 verdicts stored with their method (%d)", n);
	sqlite3_finalize(st);
}

/* 30 nights of cell=H on machine 1 with a +10 % step from nightly-2026-11-21 on. */
static void test_history(void)
{
	char path[160], label[64], cp[160];
	char *argv[] = { "history", "--db", path, "--metric", "minor-faults", "--cell", "cell=H",
			 "--json", NULL };
	char *human[] = { "history", "--db", path, "--metric", "minor-faults", NULL };
	char *nometric[] = { "history", "--db", path, NULL };
	char *nocell[] = { "history", "--db", path, "--metric", "minor-faults", "--cell", "x*", NULL };
	sqlite3 *db;
	int idx;

	snprintf(path, sizeof(path), "%s/hist.db", dir);
	db = make_db(path);
	exec(db, "BEGIN");
	for (int d = 1; d <= 30; d++) {
		snprintf(label, sizeof(label), "nightly-2026-11-%02d", d);
		for (int k = 0; k < 2; k++)
			add_run(db, 1, "cell=H", label, d, 2, d >= 21 ? 1100 : 1000, 5e8);
	}
	for (int d = 1; d <= 12; d++)	/* unlabelled runs: one point per run */
		add_run(db, 2, "cell=P", "adhoc", d, 3, d >= 7 ? 2000 : 1000, 5e8);
	exec(db, "COMMIT");
	sqlite3_close(db);

	is_u64(run_cmd(cmd_history, argv), 0, "history --json: exit 0");
	idx = atoi(jq("json_extract(j, '$.series[0].change_points[0].index')"));
	snprintf(cp, sizeof(cp), "%s", jq("json_extract(j, '$.series[0].change_points[0].label')"));
	ok(strcmp(jq("json_array_length(j, '$.series')"), "1") == 0 &&
	   strcmp(jq("json_array_length(j, '$.series[0].points')"), "30") == 0 &&
	   strcmp(jq("json_extract(j, '$.series[0].unit')"), "night") == 0,
	   "one series of 30 nights");
	ok(strcmp(jq("json_array_length(j, '$.series[0].change_points')"), "1") == 0 &&
	   idx >= 19 && idx <= 21, "the +10%% step at night 20 (nightly-2026-11-21) is found: #%d %s",
	   idx, cp);
	ok(strcmp(jq("json_extract(j, '$.change_points[0].label') || ' ' ||"
		     " json_extract(j, '$.change_points[0].cell')"), "nightly-2026-11-21 cell=H") == 0 ||
	   idx != 20, "the change points also come flat, with their cell");
	ok(strcmp(jq("json_extract(j, '$.method.p_threshold') || ' ' || json_extract(j, '$.method.window')"),
		  "0.001 50") == 0, "method and parameters recorded");
	is_u64(run_cmd(cmd_history, human), 0, "history, human, every cell: exit 0");
	ok(strstr(slurp(outpath), "change point: 2000 -> 2000") == NULL &&
	   strstr(slurp(outpath), "1 change point: #6 adhoc/uuid-") != NULL,
	   "a cell without nightly labels: one point per run, step at run 6");
	printf("# --- history, human ---\n");
	for (const char *p = slurp(outpath); *p;) {
		size_t l = strcspn(p, "\n");

		printf("# %.*s\n", (int)l, p);
		p += l + (p[l] == '\n');
	}
	is_u64(run_cmd(cmd_history, nometric), 2, "history without --metric: exit 2");
	is_u64(run_cmd(cmd_history, nocell), 3, "history of no matching cell: exit 3");
}

/* Count rows of table in the database at path. */
static int count_rows(const char *path, const char *table)
{
	char sql[128];
	sqlite3 *db;
	sqlite3_stmt *st;
	int n = -1;

	sqlite3_open(path, &db);
	snprintf(sql, sizeof(sql), "SELECT COUNT(*) FROM %s", table);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

static void test_db(void)
{
	char all[160], hist[160], fut[160], want[64];
	char *merge[] = { "db", "merge", dbpath, hist, "-o", all, "--json", NULL };
	char *again[] = { "db", "merge", hist, dbpath, "-o", all, NULL };
	char *future[] = { "db", "merge", dbpath, fut, "-o", all, NULL };
	char *self[] = { "db", "merge", all, "-o", all, NULL };
	char *noout[] = { "db", "merge", dbpath, NULL };
	char *check[] = { "db", "check", "--db", all, NULL };
	char *cmp[] = { "compare", "--db", all, "--baseline", "last-7-nights", "--candidate",
			"tonight", "--json", NULL };
	int runs_t, runs_h;

	snprintf(all, sizeof(all), "%s/all.db", dir);
	snprintf(hist, sizeof(hist), "%s/hist.db", dir);
	snprintf(fut, sizeof(fut), "%s/future.db", dir);
	runs_t = count_rows(dbpath, "run");
	runs_h = count_rows(hist, "run");
	is_u64(run_cmd(cmd_db, merge), 0, "db merge of two databases: exit 0");
	ok(atoi(jq("json_extract(j, '$.total.runs_added')")) == runs_t + runs_h &&
	   atoi(jq("json_extract(j, '$.total.runs_skipped')")) == 0 &&
	   count_rows(all, "run") == runs_t + runs_h, "every run added once (%d + %d)", runs_t, runs_h);
	ok(count_rows(all, "machine") == 2, "machines matched by fingerprint: 2, not 4");
	ok(count_rows(all, "verdict") == 4 && count_rows(all, "value") ==
	   count_rows(dbpath, "value") + count_rows(hist, "value"), "verdicts and values carried");
	is_u64(run_cmd(cmd_db, again), 0, "merging the same databases again: exit 0");
	ok(strstr(slurp(outpath), "merged 2 databases into") &&
	   strstr(slurp(outpath), "0 runs added") && count_rows(all, "run") == runs_t + runs_h &&
	   count_rows(all, "verdict") == 4, "no duplicates: all runs skipped, no verdict twice");
	is_u64(run_cmd(cmd_db, future), 3, "an input of an unknown schema version: exit 3");
	ok(strstr(slurp(errpath), "schema version 99") && count_rows(all, "run") == runs_t + runs_h,
	   "refused before anything was written");
	is_u64(run_cmd(cmd_db, self), 2, "output named as an input: exit 2");
	is_u64(run_cmd(cmd_db, noout), 2, "no -o: exit 2");
	is_u64(run_cmd(cmd_db, check), 0, "db check of the merged database: exit 0");
	snprintf(want, sizeof(want), "schema version %d", store_schema_version());
	ok(strstr(slurp(outpath), "integrity      ok") && strstr(slurp(outpath), want),
	   "db check reports integrity and the schema version");
	is_u64(run_cmd(cmd_compare, cmp), 1, "compare on the merged database finds the regression");
}

/* Remove the scratch directory and the files in it. */
static void remove_dir(const char *d)
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

int main(void)
{
	sqlite3 *db;

	snprintf(dir, sizeof(dir), "%s/sgabench-tc.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return 1;
	snprintf(dbpath, sizeof(dbpath), "%s/t.db", dir);
	snprintf(outpath, sizeof(outpath), "%s/out", dir);
	snprintf(errpath, sizeof(errpath), "%s/err", dir);
	rng_seed(&rng, 1203, 0);
	db = make_db(dbpath);
	exec(db, "BEGIN");
	fill_nightly(db);
	exec(db, "COMMIT");
	test_nightly();
	test_options(db);
	test_sides(db);
	test_one_sided();
	test_errors();
	test_store(db);
	sqlite3_close(db);
	test_history();
	test_db();
	if (!getenv("KEEP"))
		remove_dir(dir);
	return done_testing();
}
