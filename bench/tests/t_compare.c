/*
 * t_compare.c - sgabench compare on throwaway databases filled with
 * synthetic runs whose truth is known: a 5 % regression in one cell,
 * unchanged cells, a missing counter, a second machine (cmpdb.h).
 */
#include "tests/cmpdb.h"
#include "tap.h"

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
	char *uuids[] = { "compare", "--db", dbpath, "--baseline", "label:nightly-2026-11-29", "--candidate",
			  "uuid:uuid-0003,uuid-0004", "--json", "--metric", "minor-faults", NULL };
	/* the first night's runs: no night before them to be their last-7-nights */
	char *first[] = { "compare", "--db", dbpath, "--baseline", "last-7-nights", "--candidate",
			  "uuid:uuid-0003,uuid-0004", "--json", "--metric", "minor-faults", NULL };

	is_u64(run_cmd(cmd_compare, since), 1, "since:2026-11-23 vs tonight: exit 1");
	ok(strcmp(jq("(SELECT group_concat(json_extract(value, '$.n_base'), ' ') FROM json_each(j, '$.rows'))"),
		  "15 14") == 0, "since: takes the runs from that day on (14, and the ad-hoc run of A)");
	is_u64(run_cmd(cmd_compare, uuids), 0, "uuid:U1,U2 as the candidate: exit 0");
	ok(strcmp(jq("(SELECT group_concat(json_extract(value, '$.n_cand') || json_extract(value, '$.verdict'), ' ')"
		     " FROM json_each(j, '$.rows'))"), "1insufficient 1insufficient") == 0,
	   "two uuids, one per cell: insufficient in both");
	is_u64(run_cmd(cmd_compare, first), 3, "last-7-nights of the first night's runs: none before them, exit 3");
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

/*
 * Boots: arms bA (boot-1, 5e8 accesses/s) and bB (boot-2, 6 % slower),
 * 8 runs each, alternating hour by hour: interleaved in time, as the
 * lab's guests run side by side, but each arm a boot of its own. A
 * third arm bC (boot-3, 8 % below bA) at the same hours makes a baseline
 * of two boots with bA.
 */
static void test_boots(void)
{
	char path[160], base2[512];
	char *ab[] = { "compare", "--db", path, "--baseline", "label:bA", "--candidate", "label:bB",
		       "--json", "--metric", "accesses-per-s", NULL };
	char *two[] = { "compare", "--db", path, "--baseline", base2, "--candidate", "label:bB",
			"--json", "--metric", "accesses-per-s", NULL };
	const char *row = "(SELECT json_extract(value, '$.interleaved') || ' ' ||"
			  " json_extract(value, '$.verdict') || ' ' || COALESCE(json_extract(value,"
			  " '$.floor_between') BETWEEN 0.07 AND 0.1, 'null') FROM json_each(j, '$.rows'))";
	char got[64];
	int first = nrun + 1, n = 0;
	sqlite3 *db;

	snprintf(path, sizeof(path), "%s/boots.db", dir);
	db = make_db(path);
	exec(db, "BEGIN");
	for (int i = 0; i < 8; i++) {
		add_run(db, 1, "cell=B", "bA", 20, 2 * i, 1000, 5e8);
		add_run(db, 1, "cell=B", "bB", 20, 2 * i + 1, 1000, 4.7e8);
		add_run(db, 1, "cell=B", "bC", 20, 2 * i, 1000, 4.6e8);
	}
	exec(db, "UPDATE run SET boot_id = CASE label WHEN 'bA' THEN 'boot-1' WHEN 'bB' THEN 'boot-2'"
		 " ELSE 'boot-3' END; COMMIT");
	n = snprintf(base2, sizeof(base2), "uuid:");
	for (int id = first; id < first + 24; id++)
		if ((id - first) % 3 != 1)
			n += snprintf(base2 + n, sizeof(base2) - (size_t)n, "%suuid-%04d", n > 5 ? "," : "", id);
	/* a row is "interleaved verdict floor-between-in-[7 %, 10 %]" (null: not measured) */
	is_u64(run_cmd(cmd_compare, ab), 0, "two boots side by side, 6 % apart: exit 0");
	snprintf(got, sizeof(got), "%s", jq(row));
	ok(strcmp(got, "0 insufficient null") == 0,
	   "not interleaved (two boots): one baseline boot cannot tell the shift from boot drift (%s)", got);
	is_u64(run_cmd(cmd_compare, two), 0, "a baseline of two boots 8 % apart, the candidate 2 % below: exit 0");
	snprintf(got, sizeof(got), "%s", jq(row));
	ok(strcmp(got, "0 no-change 1") == 0,
	   "the range between the baseline's boots is its floor: no change (%s)", got);
	exec(db, "UPDATE run SET boot_id = 'boot-1'");
	is_u64(run_cmd(cmd_compare, ab), 1, "the same runs in one boot: exit 1");
	snprintf(got, sizeof(got), "%s", jq(row));
	ok(strcmp(got, "1 regression null") == 0, "interleaved in one boot: regression (%s)", got);
	exec(db, "UPDATE run SET boot_id = NULL");
	is_u64(run_cmd(cmd_compare, ab), 1, "boots unknown (stored before schema 8): exit 1");
	snprintf(got, sizeof(got), "%s", jq(row));
	ok(strcmp(got, "1 regression null") == 0, "unknown boots count as one, as before (%s)", got);
	sqlite3_close(db);
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

int main(void)
{
	sqlite3 *db;

	if (cmpdb_setup("tc"))
		return 1;
	db = make_db(dbpath);
	exec(db, "BEGIN");
	fill_nightly(db);
	exec(db, "COMMIT");
	test_nightly();
	test_options(db);
	test_sides(db);
	test_one_sided();
	test_boots();
	test_errors();
	test_store(db);
	sqlite3_close(db);
	if (!getenv("KEEP"))
		remove_dir(dir);
	return done_testing();
}
