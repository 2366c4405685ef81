/*
 * model/backend.c - the TLB model behind struct backend_ops: its option
 * rows (`sgabench sim`), the plan (machine and run, from simrun.c), the
 * simulation, and the names of a run.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "lib/backend.h"
#include "lib/log.h"
#include "model/backend.h"
#include "model/simrun.h"
#include "model/timed.h"
#include "workloads/workload.h"
#include "lib/clock.h"

#define O(f) offsetof(struct sim_cfg, f)

/*
 * --walk-cycles and the timed engine's options: rows of model_opts, and
 * of `table` (which sets them on every cell's run).
 */
const struct opt model_timing_opts[] = {
	{ .name = "walk-cycles", .type = OPT_DOUBLE, .off = O(walk_cycles), .dmin = -1, .dmax = 1e6,
	  .metavar = "X", .def = "-1", .defhelp = "the machine's (--machine list; custom: 30)",
	  .help = "cycles per page walk: the est-* estimates, and a walk's stall with --timing" },
	{ .name = "timing", .type = OPT_FLAG, .off = O(timing), .flags = OPT_IF_SET,
	  .help = "the timed engine: a walk stalls its strand for --walk-cycles while the core's other "
		  "strands go on, fills land when the walk ends, and a timer tick (--hz) runs on every strand",
	  .cell = "timing", .cell_at = 19, .conf = "timing" },
	{ .name = "hz", .type = OPT_UINT, .off = O(hz), .max = 100000, .flags = OPT_IF_SET,
	  .metavar = "N", .defhelp = "0 (no tick)",
	  .help = "with --timing: timer ticks per second (the kernel's HZ), at the machine's clock (sim: --ghz)",
	  .cell = "hz", .cell_at = 19, .conf = "hz" },
	{ .name = "tick-entries", .type = OPT_UINT, .off = O(tick_entries), .max = 1u << 20, .flags = OPT_IF_SET,
	  .metavar = "K", .defhelp = "0",
	  .help = "with --timing: kernel pages (context 0) each tick handler touches in the same TLB",
	  .cell = "tick-entries", .cell_at = 19, .conf = "tick_entries" },
	{ .name = "access-cycles", .type = OPT_UINT, .off = O(access_cycles), .min = 1, .max = 1u << 20,
	  .flags = OPT_IF_SET, .metavar = "N", .defhelp = "1",
	  .help = "with --timing: cycles of an access that hits the first level",
	  .cell = "access-cycles", .cell_at = 19, .conf = "access_cycles" },
	{ .name = "inflight", .type = OPT_CHOICE, .off = O(inflight), .choices = MODEL_INFLIGHT_CHOICES,
	  .def = "walk", .flags = OPT_IF_SET,
	  .help = "with --timing: a walk for an entry another strand is walking: walk too, or wait for it "
		  "(inferred either way)",
	  .cell = "inflight", .cell_at = 19, .conf = "inflight" },
	{ .name = "walk-cycles", .type = OPT_UINT, .off = O(timed_walk), .flags = OPT_DERIVED | OPT_IF_SET,
	  .cell = "walk-cycles", .cell_at = 19, .conf = "timed_walk_cycles" },
	{ NULL },
};

static const struct opt model_opts[] = {
	{ .name = "machine", .type = OPT_STR, .off = O(machine),
	  .metavar = "PRESET|host|custom|list", .defhelp = "ultrasparc-t2; custom with --tlb",
	  .help = "machine preset; 'list' prints them with their sources" },
	{ .name = "machine-json", .type = OPT_STR, .off = O(machine_json), .flags = OPT_DERIVED | OPT_RAW_JSON,
	  .conf = "machine" },
	{ .name = "tlb", .type = OPT_STR, .off = O(tlb),
	  .metavar = "SPEC",
	  .help = "custom levels, e.g. 'l1d:64,full,lru;l2:2048,8way,lru' (replaces the preset's)" },
	{ .name = "tag", .type = OPT_STR, .off = O(tag),
	  .metavar = "ctx2|asid|none",
	  .help = "entry tagging (default: the machine's)",
	  .cell = "tag", .cell_at = 13 },
	{ .name = "pattern", .type = OPT_STR, .off = O(pattern),
	  .metavar = "NAME", .def = "rounds",
	  .help = "access pattern (sgabench workloads)",
	  .cell = "pattern", .cell_at = 5, .conf = "pattern" },
	{ .name = "tasks", .type = OPT_UINT, .off = O(tasks), .min = 1, .max = MODEL_MAX_TASKS,
	  .metavar = "N", .def = "2",
	  .help = "tasks sharing the area",
	  .cell = "tasks", .cell_at = 14, .conf = "tasks" },
	{ .name = "threads", .type = OPT_FLAG, .off = O(threads),
	  .help = "tasks are threads of one address space",
	  .cell = "threads", .cell_at = 15, .conf = "threads" },
	{ .name = "sharedctx", .type = OPT_FLAG, .off = O(sharedctx),
	  .help = "the area's entries carry a shared context (ctx2 machines)",
	  .cell = "sharedctx", .cell_at = 10, .conf = "sharedctx" },
	{ .name = "page-size", .type = OPT_STR, .off = O(page),
	  .metavar = "SIZE", .defhelp = "the machine's (t2: 4m)",
	  .help = "page size of the area, one the machine's architecture maps: "
		  "4k 8k 16k 64k 512k 2m 4m 32m 256m 512m 1g 2g 16g",
	  .cell = "page", .cell_at = 4, .conf = "page_size" },
	/* a second page size: cell words only when used, after page=
	   (ties at 4 keep this order), so older cells stay as they were */
	{ .name = "heap-size", .type = OPT_SIZE, .off = O(heap_size), .def = "0", .flags = OPT_IF_CHANGED,
	  .metavar = "SIZE", .defhelp = "0 (none)",
	  .help = "a private heap per task of SIZE bytes, its pages touched in the run's pattern "
		  "(a stream of its own) between the area's accesses: two page sizes in one run",
	  .cell = "heap", .cell_at = 4, .conf = "heap_size" },
	{ .name = "heap-page-size", .type = OPT_STR, .off = O(heap_page), .def = "4k", .flags = OPT_IF_CHANGED,
	  .metavar = "SIZE",
	  .help = "page size of the heap (with --heap-size)",
	  .cell = "heap-page", .cell_at = 4, .conf = "heap_page_size" },
	{ .name = "heap-share", .type = OPT_UINT, .off = O(heap_share), .min = 1, .max = 99, .def = "25",
	  .flags = OPT_IF_CHANGED, .metavar = "PERCENT",
	  .help = "percent of each task's accesses after start-up that go to its heap (with --heap-size)",
	  .cell = "heap-share", .cell_at = 4, .conf = "heap_share" },
	{ .name = "pages", .type = OPT_UINT, .off = O(pages), .flags = OPT_DERIVED,
	  .conf = "pages" },
	{ .name = "working-set", .type = OPT_SIZE, .off = O(working_set), .min = 1,
	  .metavar = "SIZE", .defhelp = "--sga-size, else 276m",
	  .help = "bytes each task touches per round (276m = 69 T2 4 MiB TTEs, inferred: see README)",
	  .cell = "ws", .cell_at = 17, .conf = "working_set" },
	{ .name = "sga-size", .type = OPT_SIZE, .off = O(sga_size), .min = 1,
	  .metavar = "SIZE", .defhelp = "the working set",
	  .help = "size of the area (recorded; tasks touch the working set from its start)",
	  .cell = "sga", .cell_at = 9, .conf = "sga_size" },
	{ .name = "rounds", .type = OPT_UINT, .off = O(rounds), .min = 1,
	  .metavar = "N", .def = "100",
	  .help = "a round is one access per page of the working set",
	  .cell = "rounds", .cell_at = 8, .conf = "rounds" },
	{ .name = "seed", .type = OPT_UINT, .off = O(seed),
	  .metavar = "N", .def = "1",
	  .help = "seed of every random stream (workloads, random replacement)",
	  .conf = "seed" },
	{ .type = OPT_ROWS, .rows_fn = workload_option_rows, .off = O(wl), .cell_at = 18 },
	{ .name = "quantum", .type = OPT_UINT, .off = O(quantum), .min = 1,
	  .metavar = "N", .def = "100000",
	  .help = "accesses before tasks time-sliced on one strand switch",
	  .cell = "quantum", .cell_at = 7, .conf = "quantum" },
	{ .name = "place", .type = OPT_CHOICE, .off = O(place), .choices = MODEL_PLACE_CHOICES,
	  .def = "smt",
	  .help = "fill a core's strands first, one task per core first, or all on one strand",
	  .cell = "place", .cell_at = 6, .conf = "place" },
	{ .name = "strands", .type = OPT_UINT, .off = O(strands), .min = 1, .max = 4096,
	  .metavar = "N", .defhelp = "all",
	  .help = "strands per core the tasks may use (at most the machine's); a custom TLB has as many "
		  "as given, 2 unless told",
	  .conf = "strands" },
	{ .name = "jitter", .type = OPT_UINT, .off = O(jitter), .max = 1u << 20,
	  .metavar = "N", .defhelp = "0 (lockstep)",
	  .help = "seeded issue order: each strand issues N times per period, shuffled",
	  .cell = "jitter", .cell_at = 3, .conf = "jitter" },
	{ .name = "startup", .type = OPT_UINT, .off = O(startup), .max = 1u << 30,
	  .metavar = "N", .def = "0",
	  .help = "private start-up pages each task touches before its rounds",
	  .cell = "startup", .cell_at = 11, .conf = "startup_pages" },
	{ .name = "simulator", .type = OPT_CHOICE, .off = O(reference), .choices = "fast|reference",
	  .flags = OPT_DERIVED, .conf = "simulator" },
	{ .name = "cores", .type = OPT_UINT, .off = O(cores), .min = 1, .max = 4096,
	  .metavar = "N", .defhelp = "the machine's",
	  .help = "cores of the machine (at most its largest published part)",
	  .cell = "cores", .cell_at = 2 },
	/* --walk-cycles and the timed engine's rows (model_timing_opts) */
	{ .type = OPT_ROWS, .rows = model_timing_opts, .off = 0 },
	/* sim's own, not table's: no cell word (an untimed run's counts do not
	   depend on it; the stored machine says the clock), but see below */
	{ .name = "ghz", .type = OPT_DOUBLE, .off = O(ghz), .dmin = 0.01, .dmax = 100,
	  .metavar = "X", .defhelp = "the machine's (--machine list; custom: 3)",
	  .help = "clock in GHz, 0.01..100: turns est-translation-cycles into est-translation-s, and "
		  "with --timing --hz sets the cycles between ticks" },
	/* with --timing --hz the ticks come every clock / hz cycles: the clock
	   changes the counts, so a timed run with ticks names it in its cell */
	{ .name = "ghz", .type = OPT_DOUBLE, .off = O(timed_ghz), .flags = OPT_DERIVED | OPT_IF_SET,
	  .cell = "ghz", .cell_at = 19, .conf = "timed_ghz" },
	{ .name = "reference", .type = OPT_FLAG, .off = O(reference),
	  .help = "use the brute-force reference simulator (slow)" },
	{ .name = "jobs", .type = OPT_UINT, .off = O(jobs), .min = 1, .max = MODEL_MAX_JOBS,
	  .metavar = "N", .def = "1",
	  .help = "threads that simulate the cores, each core whole (the counts are the same for any N)" },
	{ .name = "sweep-entries", .type = OPT_STR, .off = O(sweep_entries), .metavar = "A..B",
	  .help = "print the first level's misses at every entry count A..B (multiples of its sets when "
		  "set-associative) from one exact pass (LRU; stores nothing)" },
	{ .name = "progress", .type = OPT_FLAG, .off = O(progress),
	  .help = "accesses done, rate and ETA on stderr from 1 s on, and a last line when done (default: when stderr is a terminal, after 2 s)" },
	/* derived: cell words of values resolved when the run is named, each
	   under the name of the option it resolves (sgabench CMD --cell-keys) */
	{ .name = "machine", .type = OPT_STR, .off = O(backend), .flags = OPT_DERIVED,
	  .cell = "backend", .cell_at = 1 },
	{ .name = "strands", .type = OPT_UINT, .off = O(strands_used), .flags = OPT_DERIVED,
	  .cell = "strands", .cell_at = 12 },
	{ .name = "tlb", .type = OPT_STR, .off = O(tlb_text), .flags = OPT_DERIVED,
	  .cell = "tlb", .cell_at = 16 },
	/* after the tlb row: a tie at 16 keeps this order, so "tlb=... words=N ws=..." */
	{ .name = "words", .type = OPT_UINT, .off = O(words), .min = 1, .max = MODEL_MAX_WORDS,
	  .metavar = "N", .def = "1", .flags = OPT_IF_CHANGED,
	  .help = "accesses per page visit, at offsets i * page / N (a power of two): shows split entries",
	  .cell = "words", .cell_at = 16, .conf = "words" },
	{ NULL },
};

/* What one model run needs: the settings, the machine and the run. */
struct model_plan {
	struct sim_cfg cfg;
	struct model_machine m;
	struct model_run r;
};

/* With --verbose (log level 2): the machine and run the model will
 * simulate, on stderr, before it starts. Prints nothing otherwise. */
static void model_describe(const struct model_plan *p)
{
	const struct model_machine *m = &p->m;
	const struct model_run *r = &p->r;
	char tlb[512], tag[16], place[16], org[160], costs[160];
	unsigned strands = r->strands && r->strands < m->strands ? r->strands : m->strands;

	if (log_verbosity < 2)
		return;
	info(2, "sim: machine %s: %s", m->name, m->desc);
	info(2, "sim: TLB levels %s; tags %s; %u cores x %u strands (%u used per core)",
	     model_tlb_str(m, tlb, sizeof(tlb)), opt_choice_name(MODEL_TAG_CHOICES, m->tag, tag, sizeof(tag)),
	     m->cores, m->strands, strands);
	for (unsigned k = 0; k < m->nlevels; k++)
		if (model_level_org(&m->level[k], org, sizeof(org)))
			info(2, "sim: level %s: %s", m->level[k].name, org);
	if (m->inferred[0])
		info(2, "sim: inferred, not published: %s", m->inferred);
	info(2, "sim: costs: %s (est-*: assumed, not measured)", model_costs_str(m, costs, sizeof(costs)));
	info(2, "sim: %u tasks (%s), placed %s; %llu pages of %s per task, %llu rounds, %llu start-up pages, "
	     "quantum %llu, jitter %u, seed %llu", r->ntasks, r->threads ? "threads of one process" : "processes",
	     opt_choice_name(MODEL_PLACE_CHOICES, r->place, place, sizeof(place)), (unsigned long long)r->pages,
	     model_psz_name(r->psz), (unsigned long long)r->rounds, (unsigned long long)r->startup,
	     (unsigned long long)r->quantum, r->jitter, (unsigned long long)r->seed);
	if (r->heap_pages)
		info(2, "sim: and a private heap per task: %llu pages of %s, %u%% of the accesses after start-up",
		     (unsigned long long)r->heap_pages, model_psz_name(r->heap_psz), r->heap_share);
	info(2, "sim: simulator: %s", p->cfg.reference ? "the brute-force reference (one access at a time)"
	     : r->heap_pages ? "the fast one (with a heap: multi.c, no period skipping)"
	     : "the fast one (exact period skipping)");
}

/* Build the machine and the run (simrun.c); `--machine list` prints and is done. */
static int model_prepare(const void *cfg, const struct sysinfo *si, void **plan, char *err,
			 size_t errlen)
{
	struct model_plan *p;
	char b[16];
	int ret;

	p = calloc(1, sizeof(*p));
	if (!p) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	p->cfg = *(const struct sim_cfg *)cfg;
	if (!p->cfg.machine)
		p->cfg.machine = p->cfg.tlb ? "custom" : "ultrasparc-t2";
	if (strcmp(p->cfg.machine, "list") == 0) {
		sim_list_machines(stdout);
		free(p);
		return BACKEND_DONE;
	}
	if (p->cfg.sweep_entries) {
		/* builtin/sim.c runs sweeps itself: a caller that comes here has none */
		snprintf(err, errlen, "--sweep-entries is an option of `sgabench sim` alone");
		free(p);
		return -EINVAL;
	}
	ret = sim_prepare(&p->cfg, si, &p->m, &p->r, err, errlen);
	if (!ret)
		ret = sim_timing_check(&p->cfg, &p->m, &p->r, err, errlen);
	if (ret) {
		free(p);
		return ret;
	}
	if (p->r.sharedctx && p->m.tag != TAG_CTX2) {
		warning("sim: --sharedctx: tag '%s' cannot share TLB entries between address spaces "
			"(only ctx2 can), so the run is stored as not shared (sharedctx=0)",
			opt_choice_name(MODEL_TAG_CHOICES, p->m.tag, b, sizeof(b)));
		p->r.sharedctx = 0;
	}
	model_describe(p);
	*plan = p;
	return 0;
}

/* Progress lines of a long simulation, on stderr. */
struct progress {
	double t0, last;	/* start, last line */
	double after;		/* first line after this many seconds */
	int tty;		/* rewrite one line with \r */
	int shown;
};

/* Seconds as "42 s", "3 min 20 s" or "2 h 5 min". */
static void fmt_eta(double s, char *buf, size_t len)
{
	uint64_t n = s < 0 ? 0 : (uint64_t)(s + 0.5);

	if (n < 60)
		snprintf(buf, len, "%llu s", (unsigned long long)n);
	else if (n < 3600)
		snprintf(buf, len, "%llu min %llu s", (unsigned long long)(n / 60), (unsigned long long)(n % 60));
	else
		snprintf(buf, len, "%llu h %llu min", (unsigned long long)(n / 3600),
			 (unsigned long long)(n / 60 % 60));
}

/* One progress line for done of total accesses at time now. */
static void progress_line(struct progress *p, double now, uint64_t done, uint64_t total)
{
	double el = now - p->t0, rate = el > 0 ? (double)done / el : 0;
	char eta[32];

	p->last = now;
	fmt_eta(rate > 0 ? (double)(total - done) / rate : 0, eta, sizeof(eta));
	fprintf(stderr, "%ssim: %llu of %llu accesses (%.1f%%), %.3g accesses/s, ETA %s%s",
		p->tty ? "\r" : "", (unsigned long long)done, (unsigned long long)total,
		total ? 100.0 * (double)done / (double)total : 100.0, rate, eta, p->tty ? "  " : "\n");
	p->shown = 1;
}

/* model_progress_fn: at most two lines a second on a terminal, one every 5 s elsewhere. */
static void show_progress(void *arg, uint64_t done, uint64_t total)
{
	struct progress *p = arg;
	double now = clock_now_s();

	if (now - p->t0 < p->after || now - p->last < (p->tty ? 0.5 : 5))
		return;
	progress_line(p, now, done, total);
}

/*
 * When the first progress line may come: with --progress after 1 s, on a
 * terminal unasked after 2 s, so a short run stays quiet. Tests only:
 * SGABENCH_TEST_PROGRESS_AFTER (seconds) replaces both, so a test need not
 * guess how fast this machine simulates.
 */
static double progress_after(int asked)
{
	const char *t = getenv("SGABENCH_TEST_PROGRESS_AFTER");

	return t && *t ? atof(t) : asked ? 1 : 2;
}

/* Simulate (fast or reference) and turn the counts into a result; progress
 * on stderr with --progress, or when stderr is a terminal and the command
 * is not --quiet (log_verbosity 0). */
static int model_run_plan(void *plan, const struct sysinfo *si, struct run_result *res,
			  char *err, size_t errlen)
{
	struct model_plan *p = plan;
	struct model_stats st;
	struct model_timed_totals tot;
	double t0 = clock_now_s();
	clock_t cpu0 = clock();
	int ret;
	struct progress prog = { .t0 = t0, .after = progress_after(p->cfg.progress > 0), .tty = isatty(2) };

	if (p->cfg.timing)
		ret = sim_timed_run(&p->m, &p->r, &p->cfg, &st, &tot);
	else if (p->cfg.reference)
		ret = model_reference(&p->m, &p->r, &st);
	else if (p->cfg.progress > 0 || (p->cfg.progress == 0 && prog.tty && log_verbosity > 0))
		ret = model_simulate_jobs(&p->m, &p->r, &st, show_progress, &prog, (unsigned)p->cfg.jobs);
	else
		ret = model_simulate_jobs(&p->m, &p->r, &st, NULL, NULL, (unsigned)p->cfg.jobs);
	/* asked for: the last line says it is done, however short the run */
	if (!ret && p->cfg.progress > 0 && !p->cfg.reference)
		progress_line(&prog, clock_now_s(), model_total_accesses(&st), model_total_accesses(&st));
	if (prog.shown && prog.tty)
		fputc('\n', stderr);
	if (ret) {
		snprintf(err, errlen, "the model failed: %s", strerror(-ret));
		return -EIO;
	}
	ret = sim_result(&p->m, &p->r, &st, clock_now_s() - t0, res);
	if (!ret)
		result_set_metric(res, MET_MODEL_CPU_S, (double)(clock() - cpu0) / CLOCKS_PER_SEC);
	if (!ret && p->cfg.timing) {
		sim_timed_result(&tot, res);
		if (p->cfg.progress >= 0)
			sim_timed_print(&p->m, &p->cfg, &tot);
	}
	model_stats_free(&st);
	if (ret) {
		snprintf(err, errlen, "out of memory");
		return -EIO;
	}
	return 0;
}

static void model_name_run(const void *plan, const struct run_result *res, struct run_meta *m,
			   struct backend_names *nm)
{
	const struct model_plan *p = plan;
	const struct model_run *r = &p->r;
	uint64_t ws = r->pages * model_psz_bytes(r->psz);
	double skipped = 0, total = 0;
	char b[16];
	struct sim_cfg v = p->cfg;
	char backend[64], tlb[512], tag[16], machine[4096], heap[96] = "", costs[160];

	/* sim_result() always sets these two */
	result_get_metric(res, MET_MODEL_SKIPPED_ACCESSES, &skipped);
	result_get_metric(res, MET_MODEL_ACCESSES, &total);
	snprintf(nm->page, sizeof(nm->page), "%s", model_psz_name(r->psz));
	/* the values as simulated: defaults resolved against the machine */
	snprintf(backend, sizeof(backend), "model:%s", p->m.name);
	v.backend = backend;
	v.tlb_text = model_tlb_str(&p->m, tlb, sizeof(tlb));
	v.machine_json = sim_machine_json(&p->m, machine, sizeof(machine));
	v.tag = opt_choice_name(MODEL_TAG_CHOICES, p->m.tag, tag, sizeof(tag));
	v.cores = p->m.cores;
	v.strands_used = r->strands && r->strands < p->m.strands ? r->strands : p->m.strands;
	v.sharedctx = r->sharedctx;	/* as simulated: an asid machine stores 0 */
	v.pattern = r->ops->name;
	v.page = nm->page;
	v.pages = r->pages;
	v.working_set = ws;
	v.sga_size = p->cfg.sga_size ? p->cfg.sga_size : ws;
	v.timed_walk = p->cfg.timing ? sim_timed_walk(&p->m) : 0;
	v.timed_ghz = p->cfg.timing && p->cfg.hz ? p->m.ghz : 0;
	if (opt_render(model_opts, &v, nm->cell, sizeof(nm->cell), nm->config_json, sizeof(nm->config_json)))
		warning("sim: the run's cell or configuration is cut short");
	*m = (struct run_meta){
		.workload = r->ops->name, .tasks = r->ntasks, .page_size = nm->page,
		.sharedctx = r->sharedctx, .threads = r->threads,
		.sga_bytes = p->cfg.sga_size ? p->cfg.sga_size : ws,
		.working_set_bytes = ws, .rounds = r->rounds,
		.cell = nm->cell,
		.config_json = nm->config_json,
	};
	if (r->heap_pages)
		snprintf(heap, sizeof(heap), " and a private heap of %llu x %s pages (%u%% of accesses)",
			 (unsigned long long)r->heap_pages, model_psz_name(r->heap_psz), r->heap_share);
	snprintf(nm->describe, sizeof(nm->describe), "model %s (%s tags): %u tasks, %llu x %s pages each%s, %s%s; "
		 "%.0f of %.0f accesses skipped exactly by period; est-* at %s",
		 p->m.name, opt_choice_name(MODEL_TAG_CHOICES, p->m.tag, b, sizeof(b)), r->ntasks,
		 (unsigned long long)r->pages, model_psz_name(r->psz), heap,
		 r->sharedctx ? "shared context" : "private contexts",
		 r->threads ? ", threads" : "", skipped, total, model_costs_str(&p->m, costs, sizeof(costs)));
}

static void model_release(void *plan)
{
	free(plan);
}

const struct backend_ops model_backend = {
	.name = "model",
	.cmd = "sim",
	.opts = model_opts,
	.cfg_size = sizeof(struct sim_cfg),
	.prepare = model_prepare,
	.run = model_run_plan,
	.name_run = model_name_run,
	.footnote = "  est-* metrics are estimates from assumed cycle costs, not measurements",
	.release = model_release,
};
