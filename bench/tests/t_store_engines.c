/*
 * t_store_engines.c - the store's queries give the same answers on both
 * engines: the same runs are stored into an SQLite file and, when a
 * PostgreSQL URI is given (t0456 starts a server and passes one), into
 * the server; each reader (list, selectors, series, values, verdicts,
 * noise, load, check) is checked against what was stored, computed here
 * by hand, and its whole transcript must be the same on both.
 *
 * usage: t_store_engines [POSTGRESQL_URI]   (the server's database, empty)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/log.h"
#include "machine/sysinfo.h"
#include "store/query.h"
#include "store/read.h"
#include "store/select.h"
#include "store/store.h"
#include "tap.h"

#define NRUNS 12

/* What one engine answered, appended as text lines. */
static char transcript[2][16384];

/* Append a line to transcript e. */
static void say(int e, const char *fmt, double x, const char *s)
{
	size_t n = strlen(transcript[e]);
	char line[256];

	snprintf(line, sizeof(line), fmt, x, s ? s : "");
	snprintf(transcript[e] + n, sizeof(transcript[e]) - n, "%s\n", line);
}

/*
 * Run k: cell-a for even k, cell-b for odd; label nightly-2026120N with
 * N = 1 + k / 4 (so 3 nights of 4 runs); 2 tasks, page-faults = 10k + t
 * per task, dTLB-load-misses missing; metric wall-s = k + 0.5.
 */
static void make_run(int k, struct run_result *r, struct task_result *t, struct run_meta *m,
		     char *label, size_t ll)
{
	memset(r, 0, sizeof(*r));
	memset(t, 0, 2 * sizeof(*t));
	snprintf(r->uuid, sizeof(r->uuid), "%08d-0000-4000-8000-000000000000", 10000000 + k);
	snprintf(r->started_at, sizeof(r->started_at), "2026-12-0%dT02:00:%02dZ", 1 + k / 4, k);
	snprintf(r->backend, sizeof(r->backend), "native");
	snprintf(r->status, sizeof(r->status), "ok");
	r->nevents = 2;
	snprintf(r->events[0], sizeof(r->events[0]), "page-faults");
	snprintf(r->events[1], sizeof(r->events[1]), "dTLB-load-misses");
	r->ntasks = 2;
	r->task = t;
	for (int i = 0; i < 2; i++) {
		t[i].cpu = i;
		t[i].vmpte_kb = -1;
		t[i].first_touch_faults = 5;
		t[i].ev[0].state = EV_COUNTED;
		t[i].ev[0].raw = (uint64_t)(10 * k + i);
		t[i].ev[0].value = 10 * k + i;
		t[i].ev[1].state = EV_NO_PMU;
	}
	result_set_metric(r, MET_WALL_S, k + 0.5);
	snprintf(label, ll, "nightly-2026120%d", 1 + k / 4);
	memset(m, 0, sizeof(*m));
	m->workload = "rounds";
	m->tasks = 2;
	m->page_size = "4k";
	m->sga_bytes = m->working_set_bytes = 1 << 20;
	m->rounds = 2;
	m->cell = k % 2 ? "cell-b" : "cell-a";
	m->label = label;
	m->config_json = "{}";
}

static int count_row(void *ctx, const struct store_run_row *r)
{
	(*(int *)ctx)++;
	return 0;
}

struct series {
	int n, nightly;
	char fp[32];
	int64_t machine;
};

static int add_series(void *ctx, const char *cell, int64_t machine_id, const char *fp,
		      const char *mname, int nightly)
{
	struct series *s = ctx;

	s->n++;
	s->nightly += nightly;
	s->machine = machine_id;
	snprintf(s->fp, sizeof(s->fp), "%s", fp);
	return 0;
}

static int add_point(void *ctx, const char *label, const char *date, const char *uuid,
		     int has_value, double value)
{
	double *sum = ctx;

	sum[0] += has_value ? value : 0;
	sum[1] += 1;
	return 0;
}

/* Store the runs into db and check every reader; the answers go to transcript e. */
static void check_engine(int e, const char *db, const char *name)
{
	struct sysinfo si;
	struct store *s;
	struct run_result r;
	struct task_result t[2];
	struct run_meta m;
	int nrows = 0;
	struct store_runs_filter f = { .label = "NIGHTLY-20261201", .limit = 100 };
	struct runset rs;
	struct run_values rv;
	struct series ser = { 0 };
	struct stored_run sr;
	struct store_check c;
	struct store_verdict vd = { .baseline = "a", .candidate = "b", .cell = "cell-a",
				    .metric = "wall-s", .machine_id = -1, .n_base = 3, .n_cand = 3,
				    .ratio = 1.5, .ci_lo = NAN, .ci_hi = 2, .p_value = 0.01,
				    .q_value = 0.02, .verdict = "regression", .method = "{}",
				    .noise_floor = NAN, .mde = INFINITY };
	double sum[2] = { 0, 0 }, x;
	const char *why;
	char label[32], fp[32], whybuf[256];
	int64_t id;
	int okruns = 1;

	memset(&si, 0, sizeof(si));
	snprintf(si.fingerprint, sizeof(si.fingerprint), "00000000e9e10001");
	snprintf(si.hostname, sizeof(si.hostname), "engines");
	if (!ok(store_open(db, &s) == 0, "%s: store_open", name))
		return;
	ok(store_columns_match(s, whybuf, sizeof(whybuf)) == 1, "%s: the tables have the columns of columns.h %s",
	   name, whybuf);
	for (int k = 0; k < NRUNS; k++) {
		make_run(k, &r, t, &m, label, sizeof(label));
		okruns &= store_put_run(s, &si, &m, &r, &id) == 0;
	}
	ok(okruns, "%s: %d runs stored", name, NRUNS);
	make_run(0, &r, t, &m, label, sizeof(label));
	ok(store_put_run(s, &si, &m, &r, &id) != 0, "%s: a duplicate uuid is refused", name);

	ok(store_list_runs(s, &f, count_row, &nrows) == 0 && nrows == 4,
	   "%s: runs --label matches without regard to case, 4 runs of the first night", name);
	say(e, "list %g%s", nrows, NULL);

	ok(select_runs(s, "label:nightly-20261202", "cell-[a]*", &rs) == 0 && rs.n == 2,
	   "%s: a label and a cell GLOB select 2 runs", name);
	runset_free(&rs);
	ok(select_runs(s, "tonight", NULL, &rs) == 0 && rs.n == 4 &&
	   strcmp(rs.resolved, "nightly-20261203") == 0, "%s: tonight is the latest night", name);
	say(e, "tonight %g %s", (double)rs.n, rs.resolved);
	runset_free(&rs);
	ok(select_runs(s, "last-2-nights", NULL, &rs) == 0 && rs.n == 8, "%s: last-2-nights", name);
	say(e, "nights %g %s", (double)rs.n, rs.resolved);
	runset_free(&rs);
	ok(select_runs(s, "last-2", NULL, &rs) == 0 && rs.n == 4, "%s: last-2 of each cell", name);
	runset_free(&rs);
	ok(select_runs(s, "uuid:10000003-0000-4000-8000-000000000000,10000005-0000-4000-8000-000000000000",
		       NULL, &rs) == 0 && rs.n == 2, "%s: uuid:A,B", name);
	runset_free(&rs);
	ok(select_runs(s, "since:2026-12-03", NULL, &rs) == 0 && rs.n == 4, "%s: since:DATE", name);
	id = rs.n ? rs.run[0].id : -1;
	runset_free(&rs);
	{
		static const char *const bad[] = { "since:2026-13-45", "since:2026-02-29", "since:2026-04-31",
						   "since:2026-00-10", "since:2026-1-10" };
		char reason[160];
		int refused = 0;

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
			refused += select_check(bad[i], reason, sizeof(reason)) != 0;
		ok(refused == 5 && select_check("since:2024-02-29", reason, sizeof(reason)) == 0,
		   "%s: since: takes calendar dates only (2024-02-29 yes; 2026-02-29, 2026-13-45 no)", name);
	}

	ok(store_list_series(s, "cell-*", "00000000e9", add_series, &ser) == 0 && ser.n == 2 &&
	   ser.nightly == 2, "%s: two series, both nightly, for a fingerprint prefix", name);
	ok(store_series_points(s, "page-faults", "cell-a", ser.machine, NULL, 1, add_point, sum) == 0 &&
	   sum[1] == 6 && sum[0] == 2 * (0 + 20 + 40 + 60 + 80 + 100) + 6,
	   "%s: the series of cell-a sums the tasks' page faults (%g)", name, sum[0]);
	say(e, "series %g%s", sum[0], NULL);

	ok(select_load_values(s, id, &rv) == 0 && rv.n == 3, "%s: a run has 3 metrics", name);
	ok(run_values_get(&rv, "page-faults", &x, &why) == 1 && x == 2 * 80 + 1 &&
	   run_values_get(&rv, "dTLB-load-misses", &x, &why) == 0 && strcmp(why, "no-pmu") == 0 &&
	   run_values_get(&rv, "wall-s", &x, &why) == 1 && x == 8.5,
	   "%s: summed, missing with its reason, and a run metric", name);
	for (size_t i = 0; i < rv.n; i++)
		say(e, "value %.17g %s", rv.value[i], rv.name[i]);
	run_values_free(&rv);

	ok(store_put_verdicts(s, &vd, 1) == 0, "%s: a verdict is stored", name);
	ok(strcmp(store_machine_fingerprint(s, ser.machine, fp, sizeof(fp)), "00000000e9e10001") == 0,
	   "%s: the machine's fingerprint", name);

	ok(store_load_run(s, "10000007", &sr) == 0 && sr.res.ntasks == 2 && sr.res.nevents == 2 &&
	   strcmp(sr.res.events[0], "dTLB-load-misses") == 0 && sr.res.task[1].ev[1].value == 71 &&
	   sr.res.task[0].vmpte_kb == -1 && sr.res.task[1].cpu == 1 && sr.res.metric[0].value == 7.5,
	   "%s: a run loads back by uuid prefix", name);
	say(e, "load %g %s", sr.res.task[1].ev[1].value, sr.cell);
	store_free_run(&sr);
	ok(store_check(s, &c) == 0 && c.rows[1] == NRUNS && c.fk_problems == 0,
	   "%s: db check counts the runs", name);
	say(e, "check %g%s", (double)c.rows[2], NULL);
	store_close(s);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/sgabench-t_store_engines-XXXXXX", path[96];

	log_verbosity = 0;
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/e.db", dir);
	check_engine(0, path, "SQLite");
	if (argc > 1) {
		check_engine(1, argv[1], "PostgreSQL");
		ok(strcmp(transcript[0], transcript[1]) == 0, "both engines answered the same");
		if (strcmp(transcript[0], transcript[1]) != 0)
			printf("# SQLite:\n%s# PostgreSQL:\n%s", transcript[0], transcript[1]);
	} else {
		printf("# PostgreSQL: scripts/t/t0456-store-engines.sh runs this against a server\n");
	}
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path) != 0)
		return 1;
	return done_testing();
}
