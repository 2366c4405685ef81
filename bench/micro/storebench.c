/*
 * storebench.c - how fast the store is, measured side by side in one run:
 *   1. runs stored per second by 1 writer and by 8 writers at once (forked
 *      processes, each its own connection, one transaction per run), each
 *      run 8 tasks x 10 events + 6 metrics like a native run;
 *   2. 'compare' (last-7-nights vs tonight) and 'history' (one metric of
 *      every cell) on a database of 10,000 such runs.
 * Medians of REPS repetitions. With two PostgreSQL URIs (scripts/bench
 * starts a throw-away server), the same on the server, interleaved with
 * SQLite sample by sample: SQLite writers get a fresh file per sample,
 * the server's writers add to one database (the uuids differ); the
 * server's 10,000 runs go to the second database.
 *
 * usage: storebench DIR [RUNS_PER_SAMPLE [REPS [PG_URI PG_URI_BIG]]]
 *        (defaults 400 5, SQLite only)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "builtin/builtin.h"
#include "lib/log.h"
#include "machine/sysinfo.h"
#include "store/store.h"
#include "lib/clock.h"

#define NTASKS 8
#define NEVENTS 10
#define NCELLS 50
#define NNIGHTS 20
#define BIG 10000

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A native-like run: NTASKS tasks, NEVENTS events (two missing), 6 metrics. */
static void make_run(struct run_result *r, struct task_result *t, struct run_meta *m,
		     char *cell, size_t cl, char *label, size_t ll, long k, long night, int cellno)
{
	memset(r, 0, sizeof(*r));
	memset(t, 0, NTASKS * sizeof(*t));
	snprintf(r->uuid, sizeof(r->uuid), "%08lx-0000-4000-8000-%012lx", (long)getpid(), k);
	snprintf(r->started_at, sizeof(r->started_at), "2026-11-%02ldT02:%02ld:%02ldZ",
		 1 + night, (k / 60) % 60, k % 60);
	snprintf(r->backend, sizeof(r->backend), "native");
	snprintf(r->status, sizeof(r->status), "ok");
	r->seed = (uint64_t)k;
	r->wall_s = 0.5;
	r->nevents = NEVENTS;
	for (int e = 0; e < NEVENTS; e++)
		snprintf(r->events[e], sizeof(r->events[e]), "event-%d", e);
	r->ntasks = NTASKS;
	r->task = t;
	for (int i = 0; i < NTASKS; i++) {
		t[i].cpu = i;
		t[i].accesses = 1000000;
		t[i].window_ns = 1000000;
		t[i].vmpte_kb = 64;
		t[i].first_touch_faults = 512;
		for (int e = 0; e < NEVENTS; e++) {
			t[i].ev[e].state = e < 2 ? EV_NO_PMU : EV_COUNTED;
			t[i].ev[e].raw = (uint64_t)(1000 + (k * 7919 + e) % 97);
			t[i].ev[e].value = (double)t[i].ev[e].raw;
			t[i].ev[e].enabled = t[i].ev[e].running = 1000000;
		}
	}
	r->nmetrics = 0;
	for (int i = 0; i < 6; i++)
		result_set_metric(r, (enum metric_id)i, 1e6 + (double)((k * 31 + i) % 1000));
	snprintf(cell, cl, "backend=native tasks=%d cell=%d", NTASKS, cellno);
	snprintf(label, ll, "nightly-202611%02ld", 1 + night);
	memset(m, 0, sizeof(*m));
	m->workload = "rounds";
	m->tasks = NTASKS;
	m->page_size = "2m";
	m->align = "pud";
	m->backing = "shm";
	m->sga_bytes = m->working_set_bytes = 1 << 30;
	m->rounds = 100;
	m->cell = cell;
	m->label = label;
	m->config_json = "{}";
}

/* Store runs [from, to) into path in one process. Returns 0 or -1. */
static int store_runs(const char *path, const struct sysinfo *si, long from, long to)
{
	struct task_result t[NTASKS];
	struct run_result r;
	struct run_meta m;
	struct store *s;
	char cell[96], label[32];
	int ret = 0;

	if (store_open(path, &s))
		return -1;
	for (long k = from; k < to && !ret; k++) {
		long night = (k / NCELLS) % NNIGHTS;

		make_run(&r, t, &m, cell, sizeof(cell), label, sizeof(label), k, night,
			 (int)(k % NCELLS));
		ret = store_put_run(s, si, &m, &r, NULL);
	}
	store_close(s);
	return ret;
}

static double timed(int (*fn)(int, char **), char **argv, int *rc);

/*
 * Store runs [0, n) into path with nw forked writers, each its own
 * connection and share. Returns runs per second, or -1.
 */
static double fill(const char *path, const struct sysinfo *si, int nw, long n)
{
	double t0;
	int bad = 0;

	if (store_runs(path, si, 0, 0))	/* create the schema outside the timing */
		return -1;
	t0 = clock_now_s();
	for (int w = 0; w < nw; w++) {
		pid_t p = fork();

		if (p == 0)
			_exit(store_runs(path, si, (long)w * (n / nw), (long)(w + 1) * (n / nw)) ? 1 : 0);
		if (p < 0)
			bad = 1;
	}
	for (int w = 0; w < nw; w++) {
		int st;

		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			bad = 1;
	}
	return bad ? -1 : (double)(n / nw * nw) / (clock_now_s() - t0);
}

/*
 * Runs per second of nw writers storing n runs in all: into a fresh SQLite
 * file under dir, or into the server at uri.
 */
static double writers(const char *dir, const char *uri, const struct sysinfo *si, int nw, long n,
		      int rep)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/w%d-%d.db", dir, nw, rep);
	return fill(uri ? uri : path, si, nw, n);
}

/* Median seconds of compare and history on the database db, interleaved with the other engine by the caller. */
static int time_cmds(char *db, double *tc, double *th)
{
	char *c[] = { "compare", "--db", db, "--baseline", "last-7-nights", "--candidate",
		      "tonight", "--metric", "metric-0,event-5", NULL };
	char *h[] = { "history", "--db", db, "--metric", "metric-0", NULL };
	int rc, rh;

	*tc = timed(cmd_compare, c, &rc);
	*th = timed(cmd_history, h, &rh);
	if (rc > 1 || rh != 0) {	/* compare: 0 no regression, 1 regression */
		fprintf(stderr, "storebench: on %s compare exited %d, history %d\n", db, rc, rh);
		return -1;
	}
	return 0;
}

/* Seconds one builtin takes with its output thrown away; *rc gets its exit status. */
static double timed(int (*fn)(int, char **), char **argv, int *rc)
{
	int argc = 0, so = dup(1), null = open("/dev/null", O_WRONLY);
	double t0;

	while (argv[argc])
		argc++;
	fflush(stdout);
	dup2(null, 1);
	t0 = clock_now_s();
	*rc = fn(argc, argv);
	fflush(stdout);
	t0 = clock_now_s() - t0;
	dup2(so, 1);
	close(so);
	close(null);
	return t0;
}

/* Print the medians of the writer samples of one engine. */
static void print_writers(const char *engine, double *w1, double *w8, long n, int reps)
{
	printf("runs stored per second (%s, %d tasks x %d events + 6 metrics per run, %ld runs"
	       " per sample, median of %d)\n", engine, NTASKS, NEVENTS, n, reps);
	printf("  1 writer   %8.0f runs/s\n", median(w1, reps));
	printf("  8 writers  %8.0f runs/s   (8 writers / 1 writer: %.2f)\n", median(w8, reps),
	       median(w8, reps) / median(w1, reps));
}

/* Print the medians of compare and history on one engine. */
static void print_cmds(const char *engine, double *tc, double *th, int reps)
{
	printf("on %d runs (%d cells x %d nights x %d runs; %s, median of %d)\n", BIG, NCELLS,
	       NNIGHTS, BIG / NCELLS / NNIGHTS, engine, reps);
	printf("  compare last-7-nights vs tonight, 2 metrics  %7.3f s\n", median(tc, reps));
	printf("  history, one metric, %d cells               %7.3f s\n", NCELLS, median(th, reps));
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : NULL;
	long n = argc > 2 ? atol(argv[2]) : 400;
	int reps = argc > 3 ? atoi(argv[3]) : 5;
	char *pg = argc > 5 ? argv[4] : NULL, *pg_big = argc > 5 ? argv[5] : NULL;
	double w1[32], w8[32], p1[32], p8[32], tc[32], th[32], pc[32], ph[32];
	char big[512];
	struct sysinfo si;

	if (!dir || n < 8 || reps < 1 || reps > 32 || argc == 5 || argc > 6) {
		fprintf(stderr, "usage: storebench DIR [RUNS_PER_SAMPLE [REPS [PG_URI PG_URI_BIG]]]\n");
		return 2;
	}
	log_verbosity = 0;
	memset(&si, 0, sizeof(si));
	snprintf(si.fingerprint, sizeof(si.fingerprint), "00000000be9c4000");
	snprintf(si.hostname, sizeof(si.hostname), "storebench");
	for (int i = 0; i < reps; i++) {	/* interleaved: 1, 8, 1, 8, ..., each engine in turn */
		w1[i] = writers(dir, NULL, &si, 1, n, i);
		w8[i] = writers(dir, NULL, &si, 8, n, i);
		p1[i] = pg ? writers(dir, pg, &si, 1, n, i) : 0;
		p8[i] = pg ? writers(dir, pg, &si, 8, n, i) : 0;
		if (w1[i] < 0 || w8[i] < 0 || p1[i] < 0 || p8[i] < 0) {
			fprintf(stderr, "storebench: storing runs failed\n");
			return 1;
		}
	}
	print_writers("SQLite", w1, w8, n, reps);
	if (pg)
		print_writers("PostgreSQL, local server", p1, p8, n, reps);

	snprintf(big, sizeof(big), "%s/big.db", dir);
	if (store_runs(big, &si, 0, BIG) || (pg_big && fill(pg_big, &si, 4, BIG) < 0)) {
		fprintf(stderr, "storebench: building the %d-run databases failed\n", BIG);
		return 1;
	}
	for (int i = 0; i < reps; i++)
		if (time_cmds(big, &tc[i], &th[i]) || (pg_big && time_cmds(pg_big, &pc[i], &ph[i])))
			return 1;
	print_cmds("SQLite", tc, th, reps);
	if (pg_big)
		print_cmds("PostgreSQL, local server", pc, ph, reps);
	return 0;
}
