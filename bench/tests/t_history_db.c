/*
 * t_history_db.c - sgabench history and db merge/check on throwaway
 * databases of synthetic runs (cmpdb.h): a +10 % step that history must
 * find, and two databases merged without loss or duplicates.
 */
#include "tests/cmpdb.h"
#include "tap.h"

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

int main(void)
{
	sqlite3 *db;

	if (cmpdb_setup("th"))
		return 1;
	db = make_db(dbpath);
	exec(db, "BEGIN");
	fill_nightly(db);
	exec(db, "COMMIT");
	sqlite3_close(db);
	{
		char *store[] = { "compare", "--db", dbpath, "--baseline", "last-7-nights",
				  "--candidate", "tonight", "--store-verdicts", NULL };

		char fut[160];

		is_u64(run_cmd(cmd_compare, store), 1, "set-up: the 4 verdicts of tonight stored");
		snprintf(fut, sizeof(fut), "%s/future.db", dir);	/* a database of a later sgabench */
		sqlite3_open(fut, &db);
		exec(db, "CREATE TABLE x (y); PRAGMA user_version = 99");
		sqlite3_close(db);
	}
	test_history();
	test_db();
	if (!getenv("KEEP"))
		remove_dir(dir);
	return done_testing();
}
