/* t_store.c - the store: migrations, refusing newer schemas, one-transaction
 * runs (a failure leaves nothing), missing values as NULL, and read-back. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sqlite3.h>
#include "lib/log.h"
#include "store/store.h"
#include "store/query.h"
#include "store/read.h"
#include "store/select.h"
#include "machine/perf_mux.h"
#include "machine/sysinfo.h"
#include "tap.h"

/* One-value integer query. */
static long long q1(struct store *db, const char *sql)
{
	int64_t v = -1;

	return store_scalar(db, sql, &v) ? -1 : (long long)v;
}

/* Store, as another build would, a metric the registry lacks for run 1. Returns 0 or -1. */
static int another_builds_metric(const char *path)
{
	sqlite3 *h;
	int rc = sqlite3_open(path, &h);

	if (rc == SQLITE_OK)
		rc = sqlite3_exec(h, "INSERT INTO metric (run_id, name, value) VALUES (1, 'not-a-registry-row', 3)",
				  NULL, NULL, NULL);
	sqlite3_close(h);
	return rc == SQLITE_OK ? 0 : -1;
}

/* A two-task, two-event result: one counted, one missing (no-pmu); one
 * run metric, one missing with its reason. */
static void make_result(struct run_result *r, struct task_result *tasks, const char *uuid)
{
	memset(r, 0, sizeof(*r));
	memset(tasks, 0, 2 * sizeof(*tasks));
	snprintf(r->uuid, sizeof(r->uuid), "%s", uuid);
	snprintf(r->started_at, sizeof(r->started_at), "2026-12-03T09:00:00Z");
	snprintf(r->backend, sizeof(r->backend), "native");
	snprintf(r->status, sizeof(r->status), "ok");
	r->seed = 7;
	r->nevents = 2;
	snprintf(r->events[0], sizeof(r->events[0]), "page-faults");
	snprintf(r->events[1], sizeof(r->events[1]), "dTLB-load-misses");
	r->ntasks = 2;
	r->task = tasks;
	for (int t = 0; t < 2; t++) {
		tasks[t].cpu = -1;
		tasks[t].vmpte_kb = 12;
		tasks[t].first_touch_faults = 100 + t;
		tasks[t].ev[0].state = EV_COUNTED;
		tasks[t].ev[0].raw = 10 + t;
		tasks[t].ev[0].value = 10 + t;
		tasks[t].ev[0].enabled = tasks[t].ev[0].running = 1000;
		tasks[t].ev[1].state = EV_NO_PMU;
	}
	result_set_metric(r, MET_PTE_BYTES, 24576);
	result_set_metric_missing(r, MET_TEARDOWN_TLB_SHOOTDOWNS, "no-interrupt-line");
}

int main(void)
{
	char path[] = "/tmp/sgabench-t_store-XXXXXX";
	char dbpath[64];
	struct sysinfo si;
	struct run_meta m = { .workload = "rounds", .tasks = 2, .page_size = "4k", .align = "pud",
			      .backing = "shm", .sga_bytes = 1 << 20, .working_set_bytes = 1 << 20, .rounds = 3,
			      .cell = "cell-a", .label = "t", .config_json = "{\"tasks\":2}" };
	struct task_result tasks[2];
	struct run_result r;
	struct stored_run s;
	struct store *db;
	int64_t id = 0;

	log_verbosity = 0;
	if (!mkdtemp(path))
		return 1;
	snprintf(dbpath, sizeof(dbpath), "%s/s.db", path);
	memset(&si, 0, sizeof(si));
	snprintf(si.fingerprint, sizeof(si.fingerprint), "00112233aabbccdd");
	snprintf(si.hostname, sizeof(si.hostname), "test");

	ok(store_open(dbpath, &db) == 0, "store_open creates and migrates");
	{
		char why[256] = "";

		ok(store_columns_match(db, why, sizeof(why)) == 1,
		   "the migrated tables have exactly the columns of columns.h %s", why);
		ok(store_exec(db, "ALTER TABLE noise ADD COLUMN extra TEXT") == 0 &&
		   store_columns_match(db, why, sizeof(why)) == 0 && strstr(why, "noise"),
		   "a column columns.h lacks is found (%s)", why);
		store_exec(db, "ALTER TABLE noise DROP COLUMN extra");
	}
	is_u64(q1(db, "PRAGMA user_version"), store_schema_version(), "user_version = migrations known");
	ok(q1(db, "SELECT COUNT(*) FROM sqlite_master WHERE name IN ('machine','run','task','value','metric','run_metric','timing','sweep','noise','verdict')") == 10,
	   "all tables and the view exist");
	is_u64(q1(db, "PRAGMA journal_mode = WAL") >= 0, 1, "journal mode set");

	make_result(&r, tasks, "11111111-1111-4111-8111-111111111111");
	/* multiplexed: task 1 counted 20 ms of 100 at a 4 ms interval, 5 rotations */
	r.mux_interval_ms = 4;
	tasks[1].ev[0].enabled = 100000000;
	tasks[1].ev[0].running = 20000000;
	ok(store_put_run(db, &si, &m, &r, &id) == 0 && id == 1, "a run is stored");
	ok(q1(db, "SELECT COUNT(*) FROM run WHERE id = 1 AND mux_interval_ms = 4 AND mux_interval_missing IS NULL") == 1,
	   "with its multiplexing interval, no reason");
	is_u64(q1(db, "SELECT COUNT(*) FROM value"), 4, "two tasks x two events");
	is_u64(q1(db, "SELECT COUNT(*) FROM value WHERE event = 'dTLB-load-misses' AND value IS NULL AND missing = 'no-pmu'"), 2,
	       "a missing counter is NULL with its reason");
	is_u64(q1(db, "SELECT CAST(value AS INTEGER) FROM run_metric WHERE name = 'page-faults'"), 21, "run_metric sums the tasks");
	is_u64(q1(db, "SELECT value IS NULL FROM run_metric WHERE name = 'dTLB-load-misses'"), 1, "run_metric total is NULL when missing");
	is_u64(q1(db, "SELECT CAST(value AS INTEGER) FROM run_metric WHERE name = 'pte-bytes'"), 24576, "run metrics are in the view");
	is_u64(q1(db, "SELECT COUNT(*) FROM metric WHERE name = 'teardown-tlb-shootdowns' AND value IS NULL"
		  " AND missing = 'no-interrupt-line'"), 1, "a missing run metric is NULL with its reason");
	is_u64(q1(db, "SELECT COUNT(*) FROM run_metric WHERE name = 'teardown-tlb-shootdowns' AND value IS NULL"
		  " AND missing = 'no-interrupt-line'"), 1, "and so in the view");
	ok(store_exec(db, "INSERT INTO metric (run_id, name, value) VALUES (1, 'no-value-no-reason', NULL)") != 0,
	   "a metric row with neither a value nor a reason is refused (CHECK)");
	ok(store_exec(db, "INSERT INTO metric (run_id, name, value, missing) VALUES (1, 'both', 1, 'no-pmu')") != 0,
	   "and one with both");

	/* A duplicate uuid fails inside the transaction: nothing of it may remain. */
	make_result(&r, tasks, "11111111-1111-4111-8111-111111111111");
	ok(store_put_run(db, &si, &m, &r, &id) != 0, "a duplicate run uuid is refused");
	is_u64(q1(db, "SELECT COUNT(*) FROM run"), 1, "no second run row");
	is_u64(q1(db, "SELECT COUNT(*) FROM value"), 4, "no stray values");
	/* A failure after the run row (an event value that violates the CHECK) rolls back the row too. */
	make_result(&r, tasks, "22222222-2222-4222-8222-222222222222");
	snprintf(r.events[1], sizeof(r.events[1]), "page-faults");	/* duplicate key in value */
	ok(store_put_run(db, &si, &m, &r, &id) != 0, "a failure while writing values is reported");
	is_u64(q1(db, "SELECT COUNT(*) FROM run"), 1, "and the half-written run is rolled back");
	is_u64(q1(db, "SELECT COUNT(*) FROM task"), 2, "with its tasks");
	make_result(&r, tasks, "33333333-3333-4333-8333-333333333333");
	snprintf(r.mux_interval_missing, sizeof(r.mux_interval_missing), "no-pmu");
	ok(store_put_run(db, &si, &m, &r, &id) == 0 && id > 1, "a second run stores");
	ok(q1(db, "SELECT COUNT(*) FROM run WHERE uuid LIKE '3333%' AND mux_interval_ms IS NULL"
	      " AND mux_interval_missing = 'no-pmu'") == 1, "an unknown interval is NULL with its reason");
	is_u64(q1(db, "SELECT COUNT(*) FROM machine"), 1, "the machine is stored once per fingerprint");
	make_result(&r, tasks, "44444444-4444-4444-8444-444444444444");
	snprintf(r.status, sizeof(r.status), "failed");
	snprintf(r.reason, sizeof(r.reason), "task 1 was killed by signal 9");
	ok(store_put_run(db, &si, &m, &r, &id) == 0, "a failed run is stored");
	is_u64(q1(db, "SELECT COUNT(*) FROM value v JOIN run r ON r.id = v.run_id WHERE r.status = 'failed'")
	       + q1(db, "SELECT COUNT(*) FROM task t JOIN run r ON r.id = t.run_id WHERE r.status = 'failed'")
	       + q1(db, "SELECT COUNT(*) FROM metric x JOIN run r ON r.id = x.run_id WHERE r.status = 'failed'"), 0,
	       "as its row alone: no tasks, values or metrics");
	store_close(db);
	ok(another_builds_metric(dbpath) == 0, "a metric this build's registry lacks is stored beside run 1's");

	ok(store_open_ro(dbpath, &db) == 0, "read-only open of a known schema");
	ok(store_load_run(db, "1", &s) == 0, "load by run id");
	ok(strcmp(s.res.uuid, "11111111-1111-4111-8111-111111111111") == 0 && s.res.ntasks == 2 &&
	   s.res.nevents == 2 && s.res.task[1].ev[1].value == 11 && s.res.task[1].ev[0].state == EV_NO_PMU &&
	   s.res.task[0].first_touch_faults == 100 && strcmp(s.cell, "cell-a") == 0 && s.res.nmetrics == 1,
	   "the run reads back as it was stored (the metric the registry lacks left out)");
	{
		struct perf_mux mx;

		/* page-faults is event 1 once sorted by name */
		ok(s.res.mux_interval_ms == 4 && s.res.mux_interval_missing[0] == '\0' &&
		   perf_mux_event(&s.res, 1, &mx) == 0 && mx.trust == TRUST_FEW_ROTATIONS &&
		   mx.rotations > 4.999 && mx.rotations < 5.001,
		   "the interval reads back: the stored estimate is judged over 5 rotations, as run");
	}
	ok(s.res.nmissing == 1 && s.res.missing[0].id == MET_TEARDOWN_TLB_SHOOTDOWNS &&
	   strcmp(s.res.missing[0].reason, "no-interrupt-line") == 0,
	   "the missing run metric reads back missing, with its reason");
	{
		struct run_values rv = { 0 };
		double x = 0;
		const char *why;

		ok(select_load_values(db, 1, &rv) == 0 && run_values_get(&rv, "not-a-registry-row", &x, &why) == 1 &&
		   x == 3, "the run's values still read it");
		run_values_free(&rv);
	}
	ok(strcmp(s.res.events[0], "dTLB-load-misses") == 0 && strcmp(s.res.events[1], "page-faults") == 0,
	   "its events come back sorted by name, the same on both engines");
	store_free_run(&s);
	ok(store_load_run(db, "33333333-3", &s) == 0 && strcmp(s.res.uuid, "33333333-3333-4333-8333-333333333333") == 0,
	   "load by uuid prefix");
	ok(s.res.mux_interval_ms == 0 && strcmp(s.res.mux_interval_missing, "no-pmu") == 0,
	   "an unknown interval reads back with its reason");
	store_free_run(&s);
	ok(store_load_run(db, "9", &s) == -ENOENT, "an unknown run is not found (-ENOENT)");
	/* An all-digit key that is no run id is a uuid prefix (CI once drew "80835507"). */
	ok(store_load_run(db, "33333333", &s) == 0 && strcmp(s.res.uuid, "33333333-3333-4333-8333-333333333333") == 0,
	   "an all-digit uuid prefix that is no run id finds the run");
	store_free_run(&s);
	ok(store_load_run(db, "3", &s) == 0 && strcmp(s.res.uuid, "44444444-4444-4444-8444-444444444444") == 0,
	   "an all-digit key that is a run id is that run");
	store_free_run(&s);
	ok(store_load_run(db, "4444444_", &s) == -ENOENT, "a prefix is matched literally, not as a LIKE pattern");
	ok(store_load_run(db, "", &s) == -ENOENT, "an empty key finds nothing");
	store_close(db);
	ok(store_open(dbpath, &db) == 0, "reopen for writing");
	make_result(&r, tasks, "3333abcd-3333-4333-8333-333333333333");
	ok(store_put_run(db, &si, &m, &r, &id) == 0, "a run whose uuid shares a prefix is stored");
	ok(store_load_run(db, "3333", &s) == -ENOTUNIQ, "an ambiguous uuid prefix is reported as such (-ENOTUNIQ)");
	ok(store_load_run(db, "3333A", &s) == 0 && strcmp(s.res.uuid, "3333abcd-3333-4333-8333-333333333333") == 0,
	   "a longer prefix, in any case, is unique again");
	store_free_run(&s);
	store_close(db);

	/* A database from a newer sgabench is refused, not migrated. */
	ok(store_open(dbpath, &db) == 0 && store_exec(db, "PRAGMA user_version = 999") == 0,
	   "a later sgabench's schema version is set");
	store_close(db);
	ok(store_open(dbpath, &db) == -EPROTONOSUPPORT, "a newer schema is refused by store_open");
	ok(store_open_ro(dbpath, &db) == -EPROTONOSUPPORT, "and by store_open_ro");
	ok(store_open_ro("/nonexistent/x.db", &db) == -ENOENT, "a missing database is -ENOENT");
	ok(store_open("/nonexistent/dir/x.db", &db) == -ENOENT, "so is a missing directory to store_open");

	/* A database store_open created is removed when nothing was stored in it; another never. */
	{
		char fresh[96], wal[104];

		snprintf(fresh, sizeof(fresh), "%s/fresh.db", path);
		snprintf(wal, sizeof(wal), "%s-wal", fresh);
		ok(store_open(fresh, &db) == 0 && store_created(db) && access(wal, F_OK) == 0,
		   "a new database: store_created says so (its WAL open)");
		ok(store_close_unused(db) == 1 && access(fresh, F_OK) != 0 && access(wal, F_OK) != 0,
		   "closed holding no run: removed with its -wal");
		ok(store_open(fresh, &db) == 0, "created again");
		store_remove_created(db);
		ok(access(fresh, F_OK) != 0, "store_remove_created (a signal handler's) removes it too");
		store_close(db);
		ok(store_open(fresh, &db) == 0, "and again");
		make_result(&r, tasks, "55555555-5555-4555-8555-555555555555");
		ok(store_put_run(db, &si, &m, &r, &id) == 0, "a run stored in it");
		store_remove_created(db);
		ok(store_close_unused(db) == 0 && access(fresh, F_OK) == 0, "then it is kept, by either call");
		ok(store_open(fresh, &db) == 0 && !store_created(db), "an existing one was not created by this open");
		store_exec(db, "DELETE FROM run");
		store_exec(db, "DELETE FROM machine");
		ok(store_close_unused(db) == 0 && access(fresh, F_OK) == 0, "and is kept though empty");
	}

	snprintf(dbpath, sizeof(dbpath), "rm -rf %s", path);
	if (system(dbpath) != 0)
		return 1;
	return done_testing();
}
