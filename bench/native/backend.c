/*
 * native/backend.c - the native backend behind struct backend_ops: its
 * option rows, the checks `run` makes before anything is mapped, and the
 * names of a run (cell key, configuration JSON, run row, description).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/backend.h"
#include "lib/log.h"
#include "lib/parse.h"
#include "machine/perf.h"
#include "native/backend.h"
#include "native/native.h"
#include "native/runcfg.h"
#include "native/sga.h"
#include "native/window.h"
#include "workloads/workload.h"

#define F(x) offsetof(struct run_cfg, x)

static const struct opt native_opts[] = {
	{ .name = "tasks", .type = OPT_UINT, .off = F(tasks), .min = 1, .max = 4096,
	  .metavar = "N", .def = "8",
	  .help = "tasks sharing the SGA (processes, or threads with --threads)",
	  .cell = "tasks", .cell_at = 3, .conf = "tasks" },
	{ .name = "threads", .type = OPT_FLAG, .off = F(threads),
	  .help = "run the tasks as threads of one process: the one-mm upper bound of sharing",
	  .cell = "threads", .cell_at = 4, .conf = "threads" },
	{ .name = "sga-size", .type = OPT_SIZE, .off = F(sga_size), .min = 4096, .max = 1ULL << 42,
	  .metavar = "SIZE", .def = "1g",
	  .help = "size of the shared area (4k..4t; units k m g t)",
	  .cell = "sga", .cell_at = 5, .conf = "sga_size" },
	{ .name = "page-size", .type = OPT_CHOICE, .off = F(page), .choices = SGA_PAGE_CHOICES,
	  .def = "2m",
	  .help = "4k shmem (the base page), 2m/1g/8m hugetlb (8m: sparc64), thp shmem with transparent huge pages",
	  .cell = "page", .cell_at = 6, .conf = "page_size" },
	{ .name = "backing", .type = OPT_CHOICE, .off = F(backing), .choices = SGA_BACKING_CHOICES,
	  .def = "shm",
	  .help = "SysV SHM_HUGETLB (as Oracle), memfd MFD_HUGETLB, or a hugetlbfs file",
	  .cell = "backing", .cell_at = 7, .conf = "backing" },
	{ .name = "align", .type = OPT_CHOICE, .off = F(align), .choices = SGA_ALIGN_CHOICES,
	  .def = "pud",
	  .help = "pud: 1 GiB-aligned (page tables can be shared); pmd: offset one huge page (cannot)",
	  .cell = "align", .cell_at = 8, .conf = "align" },
	{ .name = "address", .type = OPT_SIZE, .off = F(address), .min = 4096,
	  .metavar = "ADDR",
	  .help = "attach at this exact address (0x... or decimal); must be free",
	  .conf = "address" },
	{ .name = "hugetlbfs", .type = OPT_STR, .off = F(hugetlbfs),
	  .metavar = "DIR",
	  .help = "hugetlbfs mount for --backing file (default: found in /proc/mounts)",
	  .conf = "hugetlbfs" },
	{ .name = "sharedctx", .type = OPT_FLAG, .off = F(sharedctx),
	  .help = "request the sparc64 shared MMU context (MAP_SHAREDCTX/SHM_SHAREDCTX); exit 3 where not offered",
	  .cell = "sharedctx", .cell_at = 9, .conf = "sharedctx" },
	{ .name = "mem-node", .type = OPT_NODE, .off = F(mem_node), .max = 1023,
	  .metavar = "N",
	  .help = "bind the SGA to NUMA node N, prefault it there, verify with numa_maps",
	  .cell = "mem_node", .cell_at = 18, .conf = "mem_node", .unset = "none" },
	{ .name = "pattern", .type = OPT_STR, .off = F(pattern),
	  .metavar = "NAME", .def = "rounds",
	  .help = "access pattern (see 'sgabench workloads')",
	  .cell = "pattern", .cell_at = 2, .conf = "pattern" },
	{ .name = "rounds", .type = OPT_UINT, .off = F(rounds), .min = 1, .max = 1000000000000ULL,
	  .metavar = "N", .def = "100",
	  .help = "rounds; a round is one access per page of the working set",
	  .cell = "rounds", .cell_at = 10, .conf = "rounds" },
	{ .name = "working-set", .type = OPT_SIZE, .off = F(working_set), .min = 4096, .max = 1ULL << 42,
	  .metavar = "SIZE", .defhelp = "the SGA",
	  .help = "bytes of the SGA each task touches, from its start",
	  .cell = "ws", .cell_at = 11, .conf = "working_set" },
	{ .name = "stride", .type = OPT_SIZE, .off = F(stride), .min = 4096, .max = 1ULL << 30,
	  .metavar = "SIZE", .defhelp = "the page size",
	  .help = "bytes between the words a task touches, a power of two (e.g. 4m for T2's 4 MiB TTEs on 8 MiB pages)",
	  .cell = "stride", .cell_at = 12, .conf = "stride" },
	{ .name = "seed", .type = OPT_UINT, .off = F(seed), .max = UINT64_MAX,
	  .metavar = "N", .def = "1",
	  .help = "seed of every random stream (stored with the run)",
	  .conf = "seed" },
	{ .type = OPT_ROWS, .rows_fn = workload_option_rows, .off = F(wl), .cell_at = 19 },
	{ .name = "cpus", .type = OPT_CPUS, .off = F(cpus),
	  .metavar = "LIST",
	  .help = "CPUs tasks may use, e.g. 0-3,8",
	  .cell = "cpus", .cell_at = 17, .conf = "cpus", .unset = "any" },
	{ .name = "place", .type = OPT_CHOICE_N, .off = F(place), .max = 1023,
	  .choices = "none|same-cpu|smt|spread|node:N", .defhelp = "none",
	  .help = "where tasks run: unpinned, one CPU, SMT siblings first, cores first, NUMA node N",
	  .cell = "place", .cell_at = 16, .conf = "place", .unset = "none" },
	{ .name = "measure", .type = OPT_CHOICE, .off = F(measure), .choices = MEASURE_CHOICES,
	  .def = "window",
	  .help = "what the counters cover: the rounds, or the first touch",
	  .cell = "measure", .cell_at = 13, .conf = "measure" },
	{ .name = "access", .type = OPT_CHOICE, .off = F(access), .choices = ACCESS_CHOICES,
	  .def = "read",
	  .help = "loads or stores in the window (first touch always writes)",
	  .cell = "access", .cell_at = 14, .conf = "access" },
	{ .name = "first-touch", .type = OPT_CHOICE, .off = F(first_touch), .choices = FIRST_TOUCH_CHOICES,
	  .def = "serial",
	  .help = "tasks first-touch one after another (deterministic sharing) or all at once",
	  .cell = "first_touch", .cell_at = 15, .conf = "first_touch" },
	{ .name = "events", .type = OPT_STR, .off = F(events),
	  .metavar = "LIST", .def = PERF_DEFAULT_EVENTS,
	  .help = "perf generic or libpfm4 event names, comma-separated; dtlb-walks = this CPU's page-walk event",
	  .conf = "events" },
	{ .name = "require", .type = OPT_LIST, .off = F(require),
	  .metavar = "LIST",
	  .help = "fail (exit 3) unless these events are counted",
	  .conf = "require" },
	{ .name = "timeout", .type = OPT_UINT, .off = F(timeout), .max = 86400,
	  .metavar = "SEC", .defhelp = "0 (none)",
	  .help = "fail the run after this many seconds",
	  .conf = "timeout" },
	{ .name = "min-window", .type = OPT_STR, .off = F(min_window),
	  .metavar = "TIME",
	  .help = "make each measured window last at least TIME (e.g. 200ms): the round sequence is repeated a calibrated number of times, stored as window-rounds",
	  .cell = "min_window", .cell_at = 20, .conf = "min_window", .flags = OPT_IF_SET },
	{ .name = "windows", .type = OPT_UINT, .off = F(windows), .min = 1, .max = WINDOW_MAX,
	  .metavar = "N", .defhelp = "1",
	  .help = "measure N windows after one first touch; counters and times stored per window, the run's window-s and accesses-per-s are their medians",
	  .conf = "windows", .flags = OPT_IF_SET },
	/* derived: cell words of values resolved when the run is named, each
	   under the name of the option it resolves (sgabench CMD --cell-keys) */
	{ .name = "backend", .type = OPT_STR, .off = F(backend), .flags = OPT_DERIVED,
	  .cell = "backend", .cell_at = 1 },
	{ .name = "windows", .type = OPT_UINT, .off = F(windows_cell), .flags = OPT_DERIVED | OPT_IF_SET,
	  .cell = "windows", .cell_at = 21 },
	{ NULL },
};

/*
 * Check what can be checked without the machine; the plan is a copy of the
 * configuration with --min-window parsed.
 */
static int native_prepare(const void *cfg, const struct sysinfo *si, void **plan, char *err,
			  size_t errlen)
{
	struct run_cfg *c;

	c = malloc(sizeof(*c));
	if (!c) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	*c = *(const struct run_cfg *)cfg;
	*plan = c;
	if (c->min_window && (window_parse_time(c->min_window, &c->min_window_ns) || !c->min_window_ns)) {
		snprintf(err, errlen, "--min-window '%s' is not a positive time (a number with a unit: "
			 "200ms, 0.5s, 1500us)", c->min_window);
		return -EINVAL;
	}
	if ((c->min_window || c->windows) && c->measure != MEASURE_WINDOW) {
		snprintf(err, errlen, "--min-window and --windows need --measure window");
		return -EINVAL;
	}
	if (!workload_find(c->pattern)) {
		snprintf(err, errlen, "unknown --pattern '%s' (one of %s)", c->pattern, workload_names());
		return -EINVAL;
	}
	return workload_check_args(&c->wl, err, errlen);
}

/*
 * Check that every --require event was counted in every task; a missing
 * one fails the run (stored as failed, exit 3).
 */
static int check_required(const struct run_cfg *c, struct run_result *r)
{
	for (unsigned k = 0; k < c->require.n; k++) {
		const char *name = c->require.item[k];

		for (unsigned e = 0; e < r->nevents; e++) {
			double sum;
			int st;

			if (strcmp(r->events[e], name) != 0)
				continue;
			st = result_event_total(r, e, &sum);
			if (st) {
				snprintf(r->status, sizeof(r->status), "failed");
				snprintf(r->reason, sizeof(r->reason), "required event '%s' %s", name,
					 perf_state_text(st));
				return -ENODEV;
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
	double n;

	if (result_get_metric(r, MET_SHAREDCTX_TASKS, &n) == 0 && n < (double)c->tasks)
		warning("run: only %.0f of %llu tasks got a shared MMU context (smaps flag 'sc'); "
			"the others mapped the SGA privately", n, (unsigned long long)c->tasks);
}

/* Fork the tasks and count (native.c); then the run's own checks. */
static int native_backend_run(void *plan, const struct sysinfo *si, struct run_result *r,
			      char *err, size_t errlen)
{
	const struct run_cfg *c = plan;
	int ret;

	r->task = calloc(c->tasks, sizeof(*r->task));
	if (!r->task) {
		snprintf(err, errlen, "out of memory for %llu tasks", (unsigned long long)c->tasks);
		return -ENOMEM;
	}
	r->ntasks = (unsigned)c->tasks;
	r->seed = c->seed;
	result_stamp(r);
	snprintf(r->backend, sizeof(r->backend), "native");
	ret = native_run(c, si, r, err, errlen);
	if (!ret)
		ret = check_required(c, r);
	if (!ret && c->sharedctx)
		warn_sharedctx(c, r);
	return ret;
}

static void native_name_run(const void *plan, const struct run_result *r, struct run_meta *m,
			    struct backend_names *nm)
{
	const struct run_cfg *c = plan;
	struct run_cfg v = *c;
	char a[32], b[32], t[32];

	opt_choice_name(SGA_PAGE_CHOICES, c->page, nm->page, sizeof(nm->page));
	opt_choice_name(SGA_BACKING_CHOICES, c->backing, nm->backing, sizeof(nm->backing));
	opt_choice_name(SGA_ALIGN_CHOICES, c->align, nm->align, sizeof(nm->align));
	m->workload = c->pattern;
	m->tasks = (unsigned)c->tasks;
	m->page_size = nm->page;
	m->backing = nm->backing;
	m->align = nm->align;
	m->sharedctx = c->sharedctx;
	m->threads = c->threads;
	m->sga_bytes = c->sga_size;
	m->working_set_bytes = c->working_set ? c->working_set : c->sga_size;
	m->rounds = c->rounds;
	v.backend = "native";
	v.min_window = c->min_window_ns ? window_fmt_time(c->min_window_ns, t, sizeof(t)) : NULL;
	v.windows_cell = c->windows > 1 ? c->windows : 0;
	if (opt_render(native_opts, &v, nm->cell, sizeof(nm->cell), nm->config_json, sizeof(nm->config_json)))
		warning("run: the run's cell or configuration is cut short");
	m->cell = nm->cell;
	m->config_json = nm->config_json;
	perf_group_text(c->events, nm->groups, sizeof(nm->groups));
	snprintf(nm->describe, sizeof(nm->describe),
		 "%llu %s, %s SGA (%s, %s, %s-aligned), pattern %s, %llu rounds over %s each",
		 (unsigned long long)c->tasks, c->threads ? "threads of one process" : "processes",
		 fmt_size(c->sga_size, a, sizeof(a)), nm->backing, nm->page, nm->align, c->pattern,
		 (unsigned long long)c->rounds, fmt_size(m->working_set_bytes, b, sizeof(b)));
}

static void native_release(void *plan)
{
	free(plan);
}

const struct backend_ops native_backend = {
	.name = "native",
	.cmd = "run",
	.opts = native_opts,
	.cfg_size = sizeof(struct run_cfg),
	.wall_metric = 1,
	.prepare = native_prepare,
	.run = native_backend_run,
	.name_run = native_name_run,
	.release = native_release,
};
