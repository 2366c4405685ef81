/* builtin/run.c - sgabench run: the native backend from the command line to the store. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "builtin/builtin.h"
#include "lib/log.h"
#include "native/native.h"
#include "lib/opt.h"
#include "output/output.h"
#include "machine/perf.h"
#include "lib/parse.h"
#include "native/runcfg.h"
#include "native/sga.h"
#include "native/window.h"
#include "store/store.h"
#include "machine/sysinfo.h"
#include "workloads/workload.h"

#define F(x) offsetof(struct run_cfg, x)

static const struct opt run_opts[] = {
	{ "tasks", OPT_UINT, F(tasks), 1, 4096, 0, 0, NULL, "N", "8", "tasks sharing the SGA (processes, or threads with --threads)" },
	{ "threads", OPT_FLAG, F(threads), 0, 0, 0, 0, NULL, NULL, NULL, "run the tasks as threads of one process: the one-mm upper bound of sharing" },
	{ "sga-size", OPT_SIZE, F(sga_size), 4096, 1ULL << 42, 0, 0, NULL, "SIZE", "1g", "size of the shared area (4k..4t; units k m g t)" },
	{ "page-size", OPT_CHOICE, F(page), 0, 0, 0, 0, SGA_PAGE_CHOICES, NULL, "2m", "4k shmem (the base page), 2m/1g/8m hugetlb (8m: sparc64), thp shmem with transparent huge pages" },
	{ "backing", OPT_CHOICE, F(backing), 0, 0, 0, 0, SGA_BACKING_CHOICES, NULL, "shm", "SysV SHM_HUGETLB (as Oracle), memfd MFD_HUGETLB, or a hugetlbfs file" },
	{ "align", OPT_CHOICE, F(align), 0, 0, 0, 0, SGA_ALIGN_CHOICES, NULL, "pud", "pud: 1 GiB-aligned (page tables can be shared); pmd: offset one huge page (cannot)" },
	{ "address", OPT_SIZE, F(address), 4096, 0, 0, 0, NULL, "ADDR", NULL, "attach at this exact address (0x... or decimal); must be free" },
	{ "hugetlbfs", OPT_STR, F(hugetlbfs), 0, 0, 0, 0, NULL, "DIR", NULL, "hugetlbfs mount for --backing file (default: found in /proc/mounts)" },
	{ "sharedctx", OPT_FLAG, F(sharedctx), 0, 0, 0, 0, NULL, NULL, NULL, "request the sparc64 shared MMU context (MAP_SHAREDCTX/SHM_SHAREDCTX); exit 3 where not offered" },
	{ "pattern", OPT_STR, F(pattern), 0, 0, 0, 0, NULL, "NAME", "rounds", "access pattern (see 'sgabench workloads')" },
	{ "rounds", OPT_UINT, F(rounds), 1, 1000000000000ULL, 0, 0, NULL, "N", "100", "rounds; a round is one access per page of the working set" },
	{ "working-set", OPT_SIZE, F(ws_size), 4096, 1ULL << 42, 0, 0, NULL, "SIZE", "the SGA", "bytes of the SGA each task touches, from its start" },
	{ "stride", OPT_SIZE, F(stride), 4096, 1ULL << 30, 0, 0, NULL, "SIZE", "the page size", "bytes between the words a task touches, a power of two (e.g. 4m for T2's 4 MiB TTEs on 8 MiB pages)" },
	{ "seed", OPT_UINT, F(seed), 0, UINT64_MAX, 0, 0, NULL, "N", "1", "seed of every random stream (stored with the run)" },
	{ "zipf-theta", OPT_DOUBLE, F(zipf_theta), 0, 0, 0.01, 5, NULL, "X", "0.99", "skew of --pattern zipf (not 1)" },
	{ "cpus", OPT_STR, F(cpus), 0, 0, 0, 0, NULL, "LIST", NULL, "CPUs tasks may use, e.g. 0-3,8" },
	{ "place", OPT_STR, F(place), 0, 0, 0, 0, NULL, "MODE", "none", "none|same-cpu|smt|spread|node:N" },
	{ "mem-node", OPT_STR, F(mem_node), 0, 0, 0, 0, NULL, "N", NULL, "bind the SGA to NUMA node N, prefault it there, verify with numa_maps" },
	{ "measure", OPT_CHOICE, F(measure), 0, 0, 0, 0, MEASURE_CHOICES, NULL, "window", "what the counters cover: the rounds, or the first touch" },
	{ "access", OPT_CHOICE, F(access), 0, 0, 0, 0, ACCESS_CHOICES, NULL, "read", "loads or stores in the window (first touch always writes)" },
	{ "first-touch", OPT_CHOICE, F(first_touch), 0, 0, 0, 0, FIRST_TOUCH_CHOICES, NULL, "serial", "tasks first-touch one after another (deterministic sharing) or all at once" },
	{ "events", OPT_STR, F(events), 0, 0, 0, 0, NULL, "LIST", "dTLB, iTLB, cycles, instructions, faults, cs, migrations, task-clock", "perf generic or libpfm4 event names, comma-separated; dtlb-walks = this CPU's page-walk event" },
	{ "require", OPT_STR, F(require), 0, 0, 0, 0, NULL, "LIST", NULL, "fail (exit 3) unless these events are counted" },
	{ "timeout", OPT_UINT, F(timeout), 0, 86400, 0, 0, NULL, "SEC", "0 (none)", "fail the run after this many seconds" },
	{ "min-window", OPT_STR, F(min_window), 0, 0, 0, 0, NULL, "TIME", NULL, "make each measured window last at least TIME (e.g. 200ms): the round sequence is repeated a calibrated number of times, stored as window-rounds" },
	{ "windows", OPT_UINT, F(windows), 1, WINDOW_MAX, 0, 0, NULL, "N", "1", "measure N windows after one first touch; counters and times stored per window, the run's window-s and accesses-per-s are their medians" },
	{ "db", OPT_STR, F(db), 0, 0, 0, 0, NULL, "PATH", STORE_DEFAULT_PATH, "SQLite database" },
	{ "no-store", OPT_FLAG, F(no_store), 0, 0, 0, 0, NULL, NULL, NULL, "do not store the run" },
	{ "label", OPT_STR, F(label), 0, 0, 0, 0, NULL, "TEXT", NULL, "tag stored with the run (e.g. nightly-20261203, candidate)" },
	{ "json", OPT_FLAG, F(json), 0, 0, 0, 0, NULL, NULL, NULL, "print the result as JSON" },
	{ "csv", OPT_FLAG, F(csv), 0, 0, 0, 0, NULL, NULL, NULL, "print the result as CSV" },
	{ "quiet", OPT_FLAG, F(quiet), 0, 0, 0, 0, NULL, NULL, NULL, "print nothing but errors (and --json/--csv)" },
	{ NULL, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, NULL },
};

/* The defaults, matching the [..] shown in --help. */
static void run_defaults(struct run_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->tasks = 8;
	c->sga_size = 1ULL << 30;
	c->page = SGA_PAGE_2M;
	c->backing = 0;
	c->align = 0;
	c->pattern = "rounds";
	c->rounds = 100;
	c->seed = 1;
	c->zipf_theta = 0.99;
	c->measure = MEASURE_WINDOW;
	c->access = ACCESS_READ;
	c->events = PERF_DEFAULT_EVENTS;
	c->db = STORE_DEFAULT_PATH;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Check that every --require event was counted in every task. */
static int check_required(const struct run_cfg *c, struct run_result *r)
{
	char buf[1024], *tok, *save = NULL;

	if (!c->require)
		return 0;
	snprintf(buf, sizeof(buf), "%s", c->require);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (unsigned e = 0; e < r->nevents; e++) {
			double sum;
			int st;

			if (strcmp(r->events[e], tok) != 0)
				continue;
			st = result_event_total(r, e, &sum);
			if (st) {
				snprintf(r->status, sizeof(r->status), "failed");
				snprintf(r->reason, sizeof(r->reason), "required event '%s' %s", tok,
					 perf_state_text(st));
				return EX_RESOURCE;
			}
		}
	}
	return 0;
}

/*
 * The kernel may accept MAP_SHAREDCTX and still leave a mapping private;
 * only the smaps flag proves sharing. Say loudly when some tasks lack it
 * (the count is stored as the sharedctx-tasks metric).
 */
static void warn_sharedctx(const struct run_cfg *c, const struct run_result *r)
{
	for (unsigned i = 0; i < r->nmetrics; i++)
		if (strcmp(r->metric[i].name, "sharedctx-tasks") == 0 && r->metric[i].value < (double)c->tasks)
			warning("run: only %.0f of %llu tasks got a shared MMU context (smaps flag 'sc'); "
				"the others mapped the SGA privately", r->metric[i].value,
				(unsigned long long)c->tasks);
}

int cmd_run(int argc, char **argv)
{
	struct run_cfg c;
	struct sysinfo si;
	struct run_result r;
	struct run_meta m = { 0 };
	struct run_view v = { 0 };
	char err[512], cfgjson[4096], cell[1024], desc[512], pg[8], bk[8], al[8];
	sqlite3 *db = NULL;
	int64_t run_id = 0;
	double t0 = now_s();
	int ret, sret;

	run_defaults(&c);
	ret = opt_parse(run_opts, &c, argc, argv, "run", "[OPTIONS]", NULL, NULL);
	if (ret)
		return ret == OPT_HELP_SHOWN ? EX_OK : ret;
	if (!workload_find(c.pattern)) {
		error("run: unknown --pattern '%s'", c.pattern);
		hint("one of %s", workload_names());
		return EX_USAGE;
	}
	if (c.json && c.csv) {
		error("run: --json and --csv exclude each other");
		return EX_USAGE;
	}
	if (c.min_window && (window_parse_time(c.min_window, &c.min_window_ns) || !c.min_window_ns)) {
		error("run: --min-window '%s' is not a positive time", c.min_window);
		hint("a number with a unit: 200ms, 0.5s, 1500us");
		return EX_USAGE;
	}
	if ((c.min_window || c.windows) && c.measure != MEASURE_WINDOW) {
		error("run: --min-window and --windows need --measure window");
		return EX_USAGE;
	}
	if (c.zipf_theta == 1.0) {
		error("run: --zipf-theta must not be 1");
		return EX_USAGE;
	}
	sysinfo_collect(&si);
	/* Open the store first: a bad --db fails before any work is done. */
	if (!c.no_store && store_open(c.db, &db))
		return EX_FAIL;

	memset(&r, 0, sizeof(r));
	r.task = calloc(c.tasks, sizeof(*r.task));
	if (!r.task) {
		store_close(db);
		die(EX_RESOURCE, "out of memory for %llu tasks", (unsigned long long)c.tasks);
	}
	r.ntasks = (unsigned)c.tasks;
	r.seed = c.seed;
	result_stamp(&r);
	snprintf(r.backend, sizeof(r.backend), "native");

	ret = native_run(&c, &si, &r, err, sizeof(err));
	if (ret && !r.status[0]) {
		/* Refused before anything ran: nothing to store. */
		error("run: %s", err);
		if (ret == EX_USAGE)
			hint("see 'sgabench run --help'");
		free(r.win);
		free(r.task);
		store_close(db);
		return ret;
	}
	if (!ret)
		ret = check_required(&c, &r);
	if (!ret && c.sharedctx)
		warn_sharedctx(&c, &r);
	r.wall_s = now_s() - t0;
	if (!strcmp(r.status, "ok"))
		result_set_metric(&r, "wall-s", r.wall_s);

	opt_choice_name(SGA_PAGE_CHOICES, c.page, pg, sizeof(pg));
	opt_choice_name(SGA_BACKING_CHOICES, c.backing, bk, sizeof(bk));
	opt_choice_name(SGA_ALIGN_CHOICES, c.align, al, sizeof(al));
	m.workload = c.pattern;
	m.tasks = (unsigned)c.tasks;
	m.page_size = pg;
	m.backing = bk;
	m.align = al;
	m.sharedctx = c.sharedctx;
	m.threads = c.threads;
	m.sga_bytes = c.sga_size;
	m.ws_bytes = c.ws_size ? c.ws_size : c.sga_size;
	m.rounds = c.rounds;
	m.cell = runcfg_cell(&c, cell, sizeof(cell));
	m.label = c.label;
	m.config_json = runcfg_json(&c, cfgjson, sizeof(cfgjson));
	if (db) {
		sret = store_put_run(db, &si, &m, &r, &run_id);
		if (sret && !ret)
			ret = EX_FAIL;
	}
	{
		char a[32], b[32];

		snprintf(desc, sizeof(desc), "%llu %s, %s SGA (%s, %s, %s-aligned), pattern %s, %llu rounds over %s each",
			 (unsigned long long)c.tasks, c.threads ? "threads of one process" : "processes",
			 fmt_size(c.sga_size, a, sizeof(a)), bk, pg, al, c.pattern,
			 (unsigned long long)c.rounds, fmt_size(m.ws_bytes, b, sizeof(b)));
	}
	v.meta = &m;
	v.res = &r;
	v.fingerprint = si.fingerprint;
	v.describe = desc;
	v.run_id = run_id;
	v.db = db ? c.db : NULL;
	if (c.json)
		output_json(stdout, &v);
	else if (c.csv)
		output_csv(stdout, &v);
	else if (!c.quiet)
		output_human(stdout, &v);
	if (ret)
		error("run: %s", r.reason[0] ? r.reason : err);
	free(r.win);
	free(r.task);
	store_close(db);
	return ret;
}
