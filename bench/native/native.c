/*
 * native.c - fork the tasks, walk them through the phases together, and
 * collect what they counted.
 *
 * Phases, each closed by a barrier that the parent joins too:
 *   1. attach the SGA at the shared address, pin, open counters, build
 *      the access order (task 0 writes the chase chain); startup-s is
 *      the time from the first fork to the end of this phase;
 *  1b. each task maps its own pages the windows use and reads VmPTE
 *      (the start of sga-pte-bytes): the tool's own work, kept out of
 *      startup-s;
 *   2. first touch: one write per page of the working set;
 *   3. the measured window: only the touch loop runs, counters enabled;
 *      then VmPTE is read while every task is still alive;
 *   4. the parent reads PageTables and /proc/interrupts, then releases
 *      the tasks: teardown, measured (teardown.h): each task detaches and
 *      exits, the parent reaps them, removes the SGA and reads again.
 *
 * This file plans the run and drives it; a task's own life is task.c and
 * the parent's watch over the tasks is supervise.c (internal.h).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "machine/perf_mux.h"
#include "native/internal.h"

volatile sig_atomic_t got_signal;

void on_signal(int sig)
{
	got_signal = sig;
}


/*
 * The windows and the test knob: how many windows are stored one by one,
 * the most repetitions one may take, and SGABENCH_TEST_WORK (extra work
 * per access, read loops only; see touch_read_work). -EINVAL when the
 * order cannot be repeated (too long to pre-generate) or the knob is bad.
 */
static int plan_windows(struct plan *pl, const struct run_cfg *c, char *err, size_t errlen)
{
	uint64_t total = c->rounds * pl->ws_pages;
	const char *work = getenv("SGABENCH_TEST_WORK");

	pl->nwin = c->windows ? (unsigned)c->windows : (c->min_window_ns ? 1 : 0);
	pl->reps_cap = total ? (UINT64_C(1) << 50) / total : 1;
	if (pl->reps_cap < 1)
		pl->reps_cap = 1;
	if (pl->nwin && !(pl->wl->flags & (WL_PERIODIC | WL_DEPENDENT)) && total > PREGEN_MAX) {
		snprintf(err, errlen, "--windows/--min-window repeat the access order, and %llu accesses "
			 "are too many to pre-generate (at most %u): lower --rounds",
			 (unsigned long long)total, PREGEN_MAX);
		return -EINVAL;
	}
	if (work && *work) {
		char *end;
		unsigned long v = strtoul(work, &end, 10);

		if (*end || v > 100000 || c->access != ACCESS_READ || (pl->wl->flags & WL_DEPENDENT)) {
			snprintf(err, errlen, "SGABENCH_TEST_WORK='%s': a number 0..100000, for --access "
				 "read and patterns other than chase", work);
			return -EINVAL;
		}
		pl->work = (unsigned)v;
		pl->knob = 1;
	}
	return 0;
}

/*
 * The teardown counter: instructions, kernel included (a detach is kernel
 * work), or why there is none. Its permission is decided when the tasks
 * open it: counting the kernel needs perf_event_paranoid <= 1.
 */
static void plan_teardown(struct plan *pl, const struct sysinfo *si)
{
	struct perf_spec sp[EV_MAX];
	unsigned n = 0;
	char err[160];

	pl->td_state = EV_UNSUPPORTED;
	if (!si->has_core_pmu)
		pl->td_state = EV_NO_PMU;
	else if (perf_resolve("instructions", si, sp, &n, err, sizeof(err)) == 0 && n == 1) {
		pl->td_spec = sp[0];
		pl->td_spec.needs_kernel = 1;
		pl->td_state = EV_COUNTED;
	}
}

_Static_assert(PLACE_NODE == 4, "run --place's choices follow enum place_mode");

/* Validate what can be checked without creating anything; fill pl. */
static int plan_run(struct plan *pl, const struct run_cfg *c, const struct sysinfo *si,
		    char *err, size_t errlen)
{
	/* --place's choices are written in enum place_mode's order */
	struct place_spec ps = { .mode = (enum place_mode)c->place.idx, .node = (int)c->place.n,
				 .cpus = c->cpus.text ? c->cpus.set : NULL, .cpus_text = c->cpus.text };
	struct sga_cfg sc = {
		.size = c->sga_size, .page = c->page, .backing = c->backing, .align = c->align,
		.address = c->address, .hugetlbfs_dir = c->hugetlbfs, .sharedctx = c->sharedctx,
		.mem_node = -1,
	};
	uint64_t unit = c->stride ? c->stride : sga_page_bytes(c->page);
	uint64_t ws = c->working_set ? c->working_set : c->sga_size;
	int ret;

	pl->cfg = c;
	pl->wl = workload_find(c->pattern);
	if (!pl->wl) {
		snprintf(err, errlen, "unknown --pattern '%s' (one of %s)", c->pattern, workload_names());
		return -EINVAL;
	}
	ret = sga_check_size(&sc, err, errlen);
	if (ret)
		return ret;
	if (unit & (unit - 1)) {
		snprintf(err, errlen, "--stride must be a power of two");
		return -EINVAL;
	}
	for (pl->shift = 0; (1ull << pl->shift) < unit; pl->shift++)
		;
	if (ws > c->sga_size || ws % unit) {
		snprintf(err, errlen, "--working-set must be a multiple of the page size (or --stride) and at most --sga-size");
		return -EINVAL;
	}
	pl->ws_pages = ws / unit;
	if (c->rounds > UINT64_MAX / pl->ws_pages) {
		snprintf(err, errlen, "--rounds times pages overflows");
		return -EINVAL;
	}
	ret = perf_resolve(c->events, si, pl->specs, &pl->nspec, err, errlen);
	if (ret)
		return ret;
	for (unsigned k = 0; k < c->require.n; k++) {
		int found = 0;

		for (unsigned i = 0; i < pl->nspec; i++)
			found |= strcmp(pl->specs[i].name, c->require.item[k]) == 0;
		if (!found) {
			snprintf(err, errlen, "--require '%s' is not in --events", c->require.item[k]);
			return -EINVAL;
		}
	}
	ret = place_plan(&ps, (unsigned)c->tasks, pl->cpu, err, errlen);
	if (ret)
		return ret;
	if (c->mem_node >= 0) {
		if (c->mem_node >= place_numa_nodes()) {
			snprintf(err, errlen, "--mem-node '%d': this machine has NUMA nodes 0..%d",
				 c->mem_node, place_numa_nodes() - 1);
			return -EINVAL;
		}
		sc.mem_node = c->mem_node;
	}
	ret = plan_windows(pl, c, err, errlen);
	if (ret)
		return ret;
	pl->has_core_pmu = si->has_core_pmu;
	pl->mux_interval_ms = perf_mux_interval_ms(si->has_core_pmu ? si->core_pmu : NULL,
						   &pl->mux_interval_missing);
	snprintf(pl->boot_id, sizeof(pl->boot_id), "%s", si->boot_id);
	plan_teardown(pl, si);
	pl->sga.cfg = sc;
	return sga_preflight(&sc, err, errlen);
}

/* The parent's readings of the teardown phase. */
struct td_phase {
	struct td_snap before, after;
	struct td_times t;
};

/* Copy what the tasks wrote into r and add the run-level metrics. */
static void collect(struct plan *pl, struct run_result *r, int64_t pt_before, int64_t pt_after,
		    uint64_t startup_ns, const struct td_phase *td)
{
	const struct run_cfg *c = pl->cfg;
	double pte = 0, sga_pte = 0, ftf = 0, maxwin = 0, acc = 0;
	int sga_pte_known = 1;

	r->nevents = pl->nspec;
	r->mux_interval_ms = pl->mux_interval_ms;
	snprintf(r->mux_interval_missing, sizeof(r->mux_interval_missing), "%s",
		 pl->mux_interval_missing ? pl->mux_interval_missing : "");
	snprintf(r->boot_id, sizeof(r->boot_id), "%s", pl->boot_id);
	for (unsigned e = 0; e < pl->nspec; e++)
		snprintf(r->events[e], sizeof(r->events[e]), "%s", pl->specs[e].name);
	for (unsigned t = 0; t < c->tasks; t++) {
		r->task[t] = pl->ctl->res[t];
		if (r->task[t].vmpte_kb > 0 && (!c->threads || t == 0))
			pte += (double)r->task[t].vmpte_kb * 1024;
		if (!c->threads || t == 0) {
			if (r->task[t].vmpte_kb >= 0 && r->task[t].vmpte_start_kb >= 0)
				sga_pte += (double)(r->task[t].vmpte_kb - r->task[t].vmpte_start_kb) * 1024;
			else
				sga_pte_known = 0;
		}
		ftf += (double)r->task[t].first_touch_faults;
		acc += (double)r->task[t].accesses;
		if (r->task[t].window_ns > maxwin)
			maxwin = (double)r->task[t].window_ns;
	}
	result_set_metric(r, MET_PTE_BYTES, pte);
	if (sga_pte_known)
		result_set_metric(r, MET_SGA_PTE_BYTES, sga_pte);
	result_set_metric(r, MET_FIRST_TOUCH_FAULTS, ftf);
	if (pt_before >= 0 && pt_after >= 0)
		result_set_metric(r, MET_PAGETABLES_DELTA_BYTES, (double)(pt_after - pt_before) * 1024);
	result_set_metric(r, MET_STARTUP_S, (double)startup_ns / 1e9);
	if (maxwin > 0) {
		result_set_metric(r, MET_WINDOW_S, maxwin / 1e9);
		result_set_metric(r, MET_ACCESSES_PER_S, acc / (maxwin / 1e9));
	}
	if (pl->nwin) {
		r->win = malloc((size_t)pl->nwin * c->tasks * sizeof(*r->win));
		if (r->win) {
			memcpy(r->win, pl->win, (size_t)pl->nwin * c->tasks * sizeof(*r->win));
			r->nwindows = pl->nwin;
			window_metrics(r);
		}
		result_set_metric(r, MET_WINDOW_ROUNDS, (double)(pl->ctl->reps * c->rounds));
	}
	if (pl->knob)
		result_set_metric(r, MET_TEST_WORK, pl->work);
	if (pl->ctl->generated_in_window)
		result_set_metric(r, MET_GENERATED_IN_WINDOW, 1);
	if (c->sharedctx)
		result_set_metric(r, MET_SHAREDCTX_TASKS, pl->ctl->sharedctx_seen);
	perf_mux_warn(r);
	teardown_metrics(r, &td->before, &td->after, &td->t, pl->td, (unsigned)c->tasks,
			 c->threads ? 1 : (unsigned)c->tasks);
}

/*
 * Map the control block the tasks share (barriers, per-task and
 * per-window results, calibration times) and the watch's pid lists, with
 * every task's result "not measured". Returns 0 or -ENOMEM.
 */
static int alloc_shared(struct plan *pl, const struct run_cfg *c, struct watch *w, unsigned nproc)
{
	pl->ctl_len = sizeof(struct ctl) + c->tasks * sizeof(struct task_result) +
		      (size_t)pl->nwin * c->tasks * sizeof(struct window_result) +
		      2 * c->tasks * sizeof(uint64_t) + c->tasks * sizeof(struct td_task);
	pl->ctl = mmap(NULL, pl->ctl_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	w->pids = calloc(nproc, sizeof(pid_t));
	w->reaped = calloc(nproc, sizeof(int));
	if (pl->ctl == MAP_FAILED || !w->pids || !w->reaped) {
		pl->ctl = NULL;
		return -ENOMEM;
	}
	barrier_init(&pl->ctl->bar, (uint32_t)c->tasks + 1);
	barrier_init(&pl->ctl->tbar, (uint32_t)c->tasks);
	pl->win = (struct window_result *)(pl->ctl->res + c->tasks);
	pl->cal_ns = (uint64_t *)(pl->win + (size_t)pl->nwin * c->tasks);
	pl->td = (struct td_task *)(pl->cal_ns + 2 * c->tasks);
	for (unsigned t = 0; t < c->tasks; t++) {
		pl->ctl->res[t].vmpte_kb = -1;
		pl->ctl->res[t].vmpte_start_kb = -1;
		pl->ctl->res[t].first_touch_faults = -1;
		pl->ctl->res[t].cpu = -1;
		pl->td[t].ins.state = EV_UNSUPPORTED;	/* until a detach counts it */
	}
	pl->parent = getpid();
	w->n = nproc;
	w->pl = pl;
	if (c->timeout)
		w->deadline = clock_now_ns() + c->timeout * 1000000000ull;
	return 0;
}

/*
 * Test knob SGABENCH_TEST_TEARDOWN_HOLD=FILE: once the tasks are released,
 * create FILE and wait there (up to 60 s) for a signal, so that a test
 * can interrupt the run inside its teardown. Its times mean nothing then.
 */
static void teardown_hold(void)
{
	const char *f = getenv("SGABENCH_TEST_TEARDOWN_HOLD");
	FILE *fp;

	if (!f || !*f || !(fp = fopen(f, "w")))
		return;
	fclose(fp);
	for (int i = 0; i < 6000 && !got_signal; i++)
		nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
}

/*
 * Phase 4, the teardown: snapshot, release the tasks (they detach and
 * exit), reap them all, remove the SGA, snapshot again, with the parent's
 * clock at each step into td. A signal inside it still lets every step
 * run (nothing is left behind) but fails the run.
 */
static void teardown(struct plan *pl, struct watch *w, struct td_phase *td)
{
	teardown_snap_before(&td->before);
	if (barrier_wait(&pl->ctl->bar, parent_poll, w))		/* 4: released */
		return;
	td->t.released = clock_now_ns();
	teardown_hold();
	reap_all(w);
	td->t.reaped = clock_now_ns();
	sga_destroy(&pl->sga);
	td->t.removed = clock_now_ns();
	teardown_snap_after(&td->after);
	if (got_signal && !w->status) {
		w->status = EX_FAIL;
		snprintf(w->why, sizeof(w->why), "interrupted by %s during teardown", strsignal(got_signal));
	}
}

/*
 * Fork the tasks onto the SGA and take the parent's part in the four
 * barriers: the start-up time (fork to barrier 1) into *startup, the
 * system's PageTables while every task is alive (after barrier 3) into
 * *pt_after, and the teardown into td. A fork that fails, a task that
 * fails or a timeout leaves w->status and w->why set, with every task
 * killed and reaped.
 */
static void fork_and_follow(struct plan *pl, const struct run_cfg *c, struct watch *w,
			    uint64_t *startup, int64_t *pt_after, struct td_phase *td)
{
	uint64_t t_fork;

	fflush(NULL);
	t_fork = clock_now_ns();
	for (unsigned i = 0; i < w->n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			if (c->threads)
				worker_threads(pl);
			task_process(pl, i);
		}
		if (pid < 0) {
			w->status = EX_RESOURCE;
			snprintf(w->why, sizeof(w->why), "fork of task %u: %s", i, strerror(errno));
			barrier_abort(&pl->ctl->bar);
			break;
		}
		w->pids[i] = pid;
	}
	if (!w->status && !barrier_wait(&pl->ctl->bar, parent_poll, w)) {	/* 1 */
		/* Until the last arrival, not until this process ran again: 256
		 * tasks released at once can keep it off the CPUs for a while. */
		*startup = pl->ctl->bar.released_ns - t_fork;
		if (!barrier_wait(&pl->ctl->bar, parent_poll, w) &&		/* 1b */
		    !barrier_wait(&pl->ctl->bar, parent_poll, w) &&		/* 2 */
		    !barrier_wait(&pl->ctl->bar, parent_poll, w)) {		/* 3 */
			*pt_after = pagetables_kb();
			teardown(pl, w, td);				/* 4 */
		}
	}
	if (pl->ctl->bar.abort || w->status) {
		barrier_abort(&pl->ctl->bar);
		kill_and_reap(w);
		if (!w->status) {
			w->status = pl->ctl->err_status ? pl->ctl->err_status : EX_FAIL;
			snprintf(w->why, sizeof(w->why), "%s", pl->ctl->err[0] ? pl->ctl->err : "a task failed");
		}
	}
}

int native_run(const struct run_cfg *c, const struct sysinfo *si, struct run_result *r,
	       char *err, size_t errlen)
{
	unsigned nproc = c->threads ? 1 : (unsigned)c->tasks;
	struct plan *pl = calloc(1, sizeof(*pl));
	struct watch w = { 0 };
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term, old_hup;
	int64_t pt_before, pt_after = -1;
	uint64_t startup = 0;
	struct td_phase td = { 0 };
	int ret;

	if (!pl) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = plan_run(pl, c, si, err, errlen);
	if (ret)
		goto out_free;
	ret = alloc_shared(pl, c, &w, nproc);
	if (ret) {
		snprintf(err, errlen, "out of memory for %llu tasks", (unsigned long long)c->tasks);
		goto out_free;
	}

	got_signal = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);

	pt_before = pagetables_kb();
	ret = sga_create(&pl->sga, &pl->sga.cfg, err, errlen);
	if (ret)
		goto out_signals;
	info(2, "sga: %s", pl->sga.desc);
	fork_and_follow(pl, c, &w, &startup, &pt_after, &td);
	sga_destroy(&pl->sga);
	if (w.status) {
		snprintf(r->status, sizeof(r->status), "failed");
		snprintf(r->reason, sizeof(r->reason), "%s", w.why);
		snprintf(err, errlen, "%s", w.why);
		ret = w.status;
	} else {
		snprintf(r->status, sizeof(r->status), "ok");
		collect(pl, r, pt_before, pt_after, startup, &td);
		ret = EX_OK;
	}
out_signals:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
out_free:
	if (pl->ctl)
		munmap(pl->ctl, pl->ctl_len);
	free(w.pids);
	free(w.reaped);
	free(pl);
	return ret;
}
