/*
 * native.c - fork the tasks, walk them through the phases together, and
 * collect what they counted.
 *
 * Phases, each closed by a barrier that the parent joins too:
 *   1. attach the SGA at the shared address, pin, open counters, build
 *      the access order (task 0 writes the chase chain);
 *   2. first touch: one write per page of the working set;
 *   3. the measured window: only the touch loop runs, counters enabled;
 *      then VmPTE is read while every task is still alive;
 *   4. the parent reads PageTables, then releases the tasks to exit.
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
#include "native/barrier.h"
#include "lib/log.h"
#include "native/native.h"
#include "machine/perf.h"
#include "machine/place.h"
#include "native/sga.h"
#include "machine/sysinfo.h"
#include "native/touch.h"
#include "native/window.h"
#include "workloads/workload.h"

#define ERR_LEN 200
#define PREGEN_MAX (16u << 20)	/* accesses generated before the window */

/* Shared between the parent and every task (MAP_SHARED anonymous). */
struct ctl {
	struct barrier bar;
	uint64_t sink;			/* keeps the loads alive */
	int generated_in_window;	/* a stream too long to pre-generate */
	int sharedctx_seen;		/* tasks whose mapping shows the smaps mnemonic */
	char err[ERR_LEN];		/* the first task error */
	int err_status;
	uint32_t ft_turn;		/* whose turn it is to first-touch (serial mode) */
	struct barrier tbar;		/* the tasks alone: calibration steps and windows */
	uint64_t reps;			/* calibrated repetitions of the round sequence */
	struct task_result res[];	/* one per task */
};

/* What every task needs; built by the parent before fork. */
struct plan {
	const struct run_cfg *cfg;
	struct ctl *ctl;
	size_t ctl_len;
	struct sga sga;
	const struct workload_ops *wl;
	uint64_t ws_pages;
	unsigned shift;			/* log2 of the page unit */
	struct perf_spec specs[EV_MAX];
	unsigned nspec;
	int cpu[PLACE_MAX_CPUS];
	int has_core_pmu;
	pid_t parent;
	void *base;			/* thread mode: the worker's attachment */
	unsigned nwin;			/* windows stored one by one; 0: one plain window */
	struct window_result *win;	/* in the ctl mapping: [w * tasks + t] */
	uint64_t *cal_ns;		/* in the ctl mapping: 2 * tasks calibration times */
	uint64_t reps_cap;		/* most repetitions a window may take */
	unsigned work;			/* test knob SGABENCH_TEST_WORK: extra work per access */
};

struct task_arg {
	struct plan *pl;
	unsigned idx;
};

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Record the first error of any task (printf-style) and release everyone. */
__attribute__((format(printf, 3, 4)))
static void task_fail(struct plan *pl, int status, const char *fmt, ...)
{
	struct ctl *c = pl->ctl;
	va_list ap;

	if (__atomic_exchange_n(&c->err_status, status, __ATOMIC_ACQ_REL) == 0) {
		va_start(ap, fmt);
		vsnprintf(c->err, sizeof(c->err), fmt, ap);
		va_end(ap);
	}
	barrier_abort(&c->bar);
}

/* A task's poll: give up if the parent is gone (in thread mode: the worker's parent). */
static int task_poll(void *arg)
{
	struct plan *pl = arg;

	return getppid() != pl->parent;
}

/* Read a "Key:   N kB" line of /proc/self/status or /proc/meminfo; -1 if absent. */
static int64_t read_kb(const char *path, const char *key)
{
	FILE *f = fopen(path, "r");
	char line[256];
	size_t kl = strlen(key);
	int64_t v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, key, kl) == 0 && line[kl] == ':') {
			v = strtoll(line + kl + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/* Minor faults so far of this process or, in thread mode, this thread. */
static int64_t minflt(int threads)
{
	struct rusage ru;

	getrusage(threads ? RUSAGE_THREAD : RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

/* Write the chase chain: each page's word 0 holds the offset of the next. */
static int write_chain(struct plan *pl, char *base)
{
	struct wl_params p = { .pages = pl->ws_pages, .rounds = 1, .seed = pl->cfg->seed,
			       .task = 0, .ntasks = 1, .zipf_theta = pl->cfg->zipf_theta };
	struct wl_stream s;
	uint32_t *order = malloc(pl->ws_pages * sizeof(*order));
	int ret = -ENOMEM;

	if (!order)
		return ret;
	ret = wl_open(&s, pl->wl, &p);
	if (!ret) {
		wl_fill(&s, order, pl->ws_pages);
		for (uint64_t i = 0; i < pl->ws_pages; i++) {
			uint64_t next = order[(i + 1) % pl->ws_pages];

			*(uint64_t *)(base + ((size_t)order[i] << pl->shift)) = next << pl->shift;
		}
		wl_close(&s);
	}
	free(order);
	return ret;
}

/* One pass over idx[0..n): the plain loops, or the test knob's slowed read. */
TOUCH_WINDOW_CODE static uint64_t touch_pass(struct plan *pl, char *base, size_t off, const uint32_t *idx,
			   uint64_t n)
{
	if (pl->cfg->access == ACCESS_WRITE) {
		touch_write(base, pl->shift, off, idx, n);
		return 0;
	}
	if (pl->work)
		return touch_read_work(base, pl->shift, off, idx, n, pl->work);
	return touch_read(base, pl->shift, off, idx, n);
}

/*
 * The measured loop over a pre-built order, or generating in chunks;
 * reps times the whole round sequence (reps > 1 only for orders that are
 * periodic, dependent or pre-generated whole: plan_run checks).
 */
TOUCH_WINDOW_CODE static uint64_t run_window(struct plan *pl, char *base, size_t off, struct wl_stream *s,
			   uint32_t *idx, uint64_t nidx, uint64_t cap, uint64_t reps)
{
	const struct run_cfg *c = pl->cfg;
	uint64_t sum = 0;

	if (pl->wl->flags & WL_DEPENDENT)
		return touch_chase(base, 0, reps * c->rounds * pl->ws_pages);
	if (pl->wl->flags & WL_PERIODIC) {
		for (uint64_t r = 0; r < reps * c->rounds; r++)
			sum += touch_pass(pl, base, off, idx, nidx);
		return sum;
	}
	if (!pl->ctl->generated_in_window) {
		for (uint64_t r = 0; r < reps; r++)
			sum += touch_pass(pl, base, off, idx, nidx);
		return sum;
	}
	/* Pre-generated whole, or (streams too long to keep) refilled in chunks. */
	do {
		sum += touch_pass(pl, base, off, idx, nidx);
		nidx = wl_fill(s, idx, cap);
	} while (nidx);
	return sum;
}

/* Say which explicit groups the PMU could not hold whole (task 0 speaks for all). */
static void warn_split(const struct plan *pl, const struct perf_set *ps)
{
	char names[512];
	size_t o = 0;

	names[0] = '\0';
	for (unsigned i = 0; i < pl->nspec && o < sizeof(names); i++)
		if (ps->split[i])
			o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s", o ? "," : "",
					      pl->specs[i].name);
	if (o)
		warning("the PMU cannot hold the group of '%s' whole: its events are counted and "
			"scaled one by one", names);
}

/* Poll of the tasks-only barrier: the parent is gone or the run was aborted. */
static int tbar_poll(void *arg)
{
	struct plan *pl = arg;

	return getppid() != pl->parent || pl->ctl->bar.abort;
}

/*
 * Task t's timed windows (pl->nwin of them, after one first touch): with
 * --min-window, calibration steps first (every task runs the same reps,
 * counters off, then all agree on the next reps from the longest time);
 * then each window starts together, runs the calibrated reps and, should
 * it still be shorter than --min-window, more round sequences one at a
 * time until it is not; it is counted alone and written to pl->win. Sums over the windows go into the task's result. Returns 0,
 * or -1 when the run was abandoned.
 */
static int timed_windows(struct plan *pl, unsigned t, char *base, size_t off, struct wl_stream *s,
			 uint32_t *idx, uint64_t nidx, uint64_t cap, struct perf_set *ps)
{
	const struct run_cfg *c = pl->cfg;
	struct ctl *ctl = pl->ctl;
	uint64_t reps = 1, sum = 0, t0, t1;
	int done = !c->min_window_ns;

	for (unsigned step = 0; !done; step++) {
		uint64_t *slot = pl->cal_ns + (step % 2) * c->tasks, longest = 0;

		t0 = now_ns();
		sum += run_window(pl, base, off, s, idx, nidx, cap, reps);
		slot[t] = now_ns() - t0;
		if (barrier_wait(&ctl->tbar, tbar_poll, pl))
			return -1;
		for (unsigned u = 0; u < c->tasks; u++)
			if (slot[u] > longest)
				longest = slot[u];
		reps = window_next_reps(reps, longest, c->min_window_ns, pl->reps_cap, &done);
	}
	for (unsigned w = 0; w < pl->nwin; w++) {
		struct window_result *wr = &pl->win[(size_t)w * c->tasks + t];

		if (barrier_wait(&ctl->tbar, tbar_poll, pl))
			return -1;
		uint64_t done_reps = reps;

		t0 = now_ns();
		perf_enable(ps);
		sum += run_window(pl, base, off, s, idx, nidx, cap, reps);
		/* the calibration can overshoot the speed: top up to the time, one sequence at a time */
		while (c->min_window_ns && now_ns() - t0 < c->min_window_ns && done_reps < pl->reps_cap) {
			sum += run_window(pl, base, off, s, idx, nidx, cap, 1);
			done_reps++;
		}
		perf_disable(ps);
		t1 = now_ns();
		perf_read(ps, wr->ev);
		perf_check_dead(pl->specs, wr->ev, pl->nspec);
		wr->accesses = done_reps * c->rounds * pl->ws_pages;
		wr->window_ns = t1 - t0;
	}
	if (t == 0)
		ctl->reps = reps;
	__atomic_fetch_add(&ctl->sink, sum, __ATOMIC_RELAXED);
	window_task_total(pl->win, pl->nwin, (unsigned)c->tasks, t, pl->nspec, &ctl->res[t]);
	return 0;
}

/* Everything one task does, process or thread, from attach to release. */
static int task_body(struct plan *pl, unsigned t, char *base)
{
	const struct run_cfg *c = pl->cfg;
	struct ctl *ctl = pl->ctl;
	struct task_result *tr = &ctl->res[t];
	struct perf_set ps;
	struct wl_stream s;
	struct wl_params p = { .pages = pl->ws_pages, .rounds = c->rounds, .seed = c->seed,
			       .task = t, .ntasks = (unsigned)c->tasks, .zipf_theta = c->zipf_theta };
	uint64_t total = c->rounds * pl->ws_pages, nidx = 0, cap = 0, t0, t1;
	size_t off = 64 * (1 + t % ((1ul << pl->shift) / 64 - 1));
	uint32_t *idx = NULL;
	int64_t f0;
	int ret;

	tr->cpu = pl->cpu[t];
	ret = place_pin(pl->cpu[t]);
	if (ret) {
		task_fail(pl, EX_RESOURCE, "task %u: cannot pin to CPU %d: %s", t, pl->cpu[t], strerror(-ret));
		return EX_RESOURCE;
	}
	ret = wl_open(&s, pl->wl, &p);
	if (ret) {
		task_fail(pl, EX_FAIL, "workload: %s", strerror(-ret));
		return EX_FAIL;
	}
	if (pl->wl->flags & WL_DEPENDENT)
		nidx = 0;
	else if (pl->wl->flags & WL_PERIODIC)
		nidx = pl->ws_pages;
	else
		nidx = total <= PREGEN_MAX ? total : (1u << 20);
	cap = nidx;
	if (nidx) {
		idx = malloc(nidx * sizeof(*idx));
		if (!idx) {
			wl_close(&s);
			task_fail(pl, EX_RESOURCE, "out of memory for the access order");
			return EX_RESOURCE;
		}
		nidx = wl_fill(&s, idx, nidx);	/* touches the buffer: no faults in the window */
		if (!(pl->wl->flags & WL_PERIODIC) && total > PREGEN_MAX)
			ctl->generated_in_window = 1;
	}
	if ((pl->wl->flags & WL_DEPENDENT) && t == 0 && write_chain(pl, base)) {
		task_fail(pl, EX_RESOURCE, "out of memory for the chase chain");
		goto fail;
	}
	if (c->sharedctx && sga_has_sharedctx(base) == 1)
		__atomic_fetch_add(&ctl->sharedctx_seen, 1, __ATOMIC_RELAXED);
	perf_open(&ps, pl->specs, pl->nspec, pl->has_core_pmu);
	if (t == 0)
		warn_split(pl, &ps);
	/* Map every code page the windows execute, so no fault of ours lands in
	 * them: the loops (by section), and one dry enable/read/disable cycle. */
	touch_prefault_text();
	perf_enable(&ps);
	perf_disable(&ps);
	perf_read(&ps, tr->ev);
	if (barrier_wait(&ctl->bar, task_poll, pl))			/* 1: ready */
		goto fail_perf;

	/* Fault in (copy-on-write after fork) the private pages first touch
	 * uses, so first-touch-faults counts SGA pages only. */
	(void)minflt(c->threads);
	(void)now_ns();
	if (c->first_touch == FIRST_TOUCH_SERIAL &&
	    turn_wait(&ctl->ft_turn, t, &ctl->bar, task_poll, pl))
		goto fail_perf;
	f0 = minflt(c->threads);
	t0 = now_ns();
	if (c->measure == MEASURE_FIRST_TOUCH)
		perf_enable(&ps);
	touch_first(base, pl->ws_pages, 1ull << pl->shift, off);
	if (c->measure == MEASURE_FIRST_TOUCH) {
		perf_disable(&ps);
		t1 = now_ns();
		tr->accesses = pl->ws_pages;
		tr->window_ns = t1 - t0;
	}
	tr->ft_minflt = minflt(c->threads) - f0;
	if (c->first_touch == FIRST_TOUCH_SERIAL)
		turn_next(&ctl->ft_turn);
	if (barrier_wait(&ctl->bar, task_poll, pl))			/* 2: all touched */
		goto fail_perf;

	if (c->measure == MEASURE_WINDOW && pl->nwin) {
		if (timed_windows(pl, t, base, off, &s, idx, nidx, cap, &ps))
			goto fail_perf;
	} else {
		if (c->measure == MEASURE_WINDOW) {
			uint64_t sum;

			t0 = now_ns();
			perf_enable(&ps);
			sum = run_window(pl, base, off, &s, idx, nidx, cap, 1);
			perf_disable(&ps);
			t1 = now_ns();
			__atomic_fetch_add(&ctl->sink, sum, __ATOMIC_RELAXED);
			tr->accesses = total;
			tr->window_ns = t1 - t0;
		}
		perf_read(&ps, tr->ev);
		perf_check_dead(pl->specs, tr->ev, pl->nspec);
	}
	tr->vmpte_kb = read_kb("/proc/self/status", "VmPTE");
	if (barrier_wait(&ctl->bar, task_poll, pl))			/* 3: window over */
		goto fail_perf;
	if (barrier_wait(&ctl->bar, task_poll, pl))			/* 4: released */
		goto fail_perf;
	perf_close(&ps);
	wl_close(&s);
	free(idx);
	return EX_OK;
fail_perf:
	perf_close(&ps);
fail:
	wl_close(&s);
	free(idx);
	return ctl->err_status ? ctl->err_status : EX_FAIL;
}

/* A task as a process: die with the parent, attach, run, detach. */
static void task_process(struct plan *pl, unsigned t)
{
	char err[ERR_LEN];
	void *base;
	int ret;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != pl->parent)
		_exit(EX_FAIL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	base = sga_attach(&pl->sga, err, sizeof(err));
	if (!base) {
		task_fail(pl, EX_RESOURCE, "%s", err);
		_exit(EX_RESOURCE);
	}
	ret = task_body(pl, t, base);
	sga_detach(&pl->sga, base);
	_exit(ret);
}

static void *task_thread(void *arg)
{
	struct task_arg *ta = arg;

	return (void *)(intptr_t)task_body(ta->pl, ta->idx, ta->pl->base);
}

/* Thread mode: one worker process attaches once and runs every task as a thread. */
static void worker_threads(struct plan *pl)
{
	unsigned n = (unsigned)pl->cfg->tasks;
	pthread_t *th = calloc(n, sizeof(*th));
	struct task_arg *ta = calloc(n, sizeof(*ta));
	char err[ERR_LEN];
	int ret = EX_OK;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != pl->parent || !th || !ta)
		_exit(EX_FAIL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	pl->base = sga_attach(&pl->sga, err, sizeof(err));
	if (!pl->base) {
		task_fail(pl, EX_RESOURCE, "%s", err);
		_exit(EX_RESOURCE);
	}
	for (unsigned i = 0; i < n; i++) {
		ta[i].pl = pl;
		ta[i].idx = i;
		if (pthread_create(&th[i], NULL, task_thread, &ta[i])) {
			task_fail(pl, EX_RESOURCE, "cannot create thread: %s", strerror(errno));
			_exit(EX_RESOURCE);
		}
	}
	for (unsigned i = 0; i < n; i++) {
		void *rv;

		pthread_join(th[i], &rv);
		if ((intptr_t)rv && ret == EX_OK)
			ret = (int)(intptr_t)rv;
	}
	_exit(ret);
}

/* The parent's view of its tasks while it waits at a barrier. */
struct watch {
	pid_t *pids;
	unsigned n;
	int *reaped;
	uint64_t deadline;	/* ns, 0 = none */
	int status;		/* EX_FAIL or EX_RESOURCE once something went wrong */
	char why[256];
	struct plan *pl;
};

/* Describe how task i ended, into w->why. */
static void describe_exit(struct watch *w, unsigned i, int st)
{
	if (WIFSIGNALED(st))
		snprintf(w->why, sizeof(w->why), "task %u (pid %d) was killed by signal %d (%s)",
			 i, (int)w->pids[i], WTERMSIG(st), strsignal(WTERMSIG(st)));
	else
		snprintf(w->why, sizeof(w->why), "task %u (pid %d) exited with status %d%s%s",
			 i, (int)w->pids[i], WEXITSTATUS(st), w->pl->ctl->err[0] ? ": " : "",
			 w->pl->ctl->err);
}

/* Reap any finished task without blocking; 1 if one ended badly. */
static int reap_some(struct watch *w)
{
	int st;
	pid_t pid;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		for (unsigned i = 0; i < w->n; i++) {
			if (w->pids[i] != pid)
				continue;
			w->reaped[i] = 1;
			if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
				if (!w->status) {
					w->status = WIFEXITED(st) && WEXITSTATUS(st) == EX_RESOURCE ?
						    EX_RESOURCE : EX_FAIL;
					describe_exit(w, i, st);
				}
				return 1;
			}
		}
	}
	return 0;
}

/* Barrier poll for the parent: a task died, a signal came, or time is up. */
static int parent_poll(void *arg)
{
	struct watch *w = arg;

	if (got_signal) {
		w->status = EX_FAIL;
		snprintf(w->why, sizeof(w->why), "interrupted by %s", strsignal(got_signal));
		return 1;
	}
	if (w->deadline && now_ns() > w->deadline) {
		w->status = EX_FAIL;
		snprintf(w->why, sizeof(w->why), "timed out after %llu s (--timeout)",
			 (unsigned long long)w->pl->cfg->timeout);
		return 1;
	}
	return reap_some(w);
}

/* Kill every task not yet reaped and wait for all of them. */
static void kill_and_reap(struct watch *w)
{
	for (unsigned i = 0; i < w->n; i++)
		if (!w->reaped[i] && w->pids[i] > 0)
			kill(w->pids[i], SIGKILL);
	for (unsigned i = 0; i < w->n; i++) {
		if (!w->reaped[i] && w->pids[i] > 0) {
			int st;

			while (waitpid(w->pids[i], &st, 0) < 0 && errno == EINTR)
				;
			w->reaped[i] = 1;
		}
	}
}

/* Wait for every task to exit after release; any bad exit fails the run. */
static void reap_all(struct watch *w)
{
	for (unsigned i = 0; i < w->n; i++) {
		int st;

		if (w->reaped[i] || w->pids[i] <= 0)
			continue;
		while (waitpid(w->pids[i], &st, 0) < 0 && errno == EINTR)
			;
		w->reaped[i] = 1;
		if ((!WIFEXITED(st) || WEXITSTATUS(st) != 0) && !w->status) {
			w->status = EX_FAIL;
			describe_exit(w, i, st);
		}
	}
}

/*
 * The windows and the test knob: how many windows are stored one by one,
 * the most repetitions one may take, and SGABENCH_TEST_WORK (extra work
 * per access, read loops only; see touch_read_work). EX_USAGE when the
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
		return EX_USAGE;
	}
	if (work && *work) {
		char *end;
		unsigned long v = strtoul(work, &end, 10);

		if (*end || v > 100000 || c->access != ACCESS_READ || (pl->wl->flags & WL_DEPENDENT)) {
			snprintf(err, errlen, "SGABENCH_TEST_WORK='%s': a number 0..100000, for --access "
				 "read and patterns other than chase", work);
			return EX_USAGE;
		}
		pl->work = (unsigned)v;
	}
	return 0;
}

/* Validate what can be checked without creating anything; fill pl. */
static int plan_run(struct plan *pl, const struct run_cfg *c, const struct sysinfo *si,
		    char *err, size_t errlen)
{
	struct place_spec ps = { .mode = PLACE_NONE, .node = 0, .cpus = c->cpus };
	struct sga_cfg sc = {
		.size = c->sga_size, .page = c->page, .backing = c->backing, .align = c->align,
		.address = c->address, .hugetlbfs_dir = c->hugetlbfs, .sharedctx = c->sharedctx,
		.mem_node = -1,
	};
	uint64_t unit = c->stride ? c->stride : sga_page_bytes(c->page);
	uint64_t ws = c->ws_size ? c->ws_size : c->sga_size;
	int ret;

	pl->cfg = c;
	pl->wl = workload_find(c->pattern);
	if (!pl->wl) {
		snprintf(err, errlen, "unknown --pattern '%s' (one of %s)", c->pattern, workload_names());
		return EX_USAGE;
	}
	ret = sga_check_size(&sc, err, errlen);
	if (ret)
		return ret;
	if (unit & (unit - 1)) {
		snprintf(err, errlen, "--stride must be a power of two");
		return EX_USAGE;
	}
	for (pl->shift = 0; (1ull << pl->shift) < unit; pl->shift++)
		;
	if (ws > c->sga_size || ws % unit) {
		snprintf(err, errlen, "--working-set must be a multiple of the page size (or --stride) and at most --sga-size");
		return EX_USAGE;
	}
	pl->ws_pages = ws / unit;
	if (c->rounds > UINT64_MAX / pl->ws_pages) {
		snprintf(err, errlen, "--rounds times pages overflows");
		return EX_USAGE;
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
			return EX_USAGE;
		}
	}
	if (c->place && place_parse(c->place, &ps)) {
		snprintf(err, errlen, "--place '%s': must be none|same-cpu|smt|spread|node:N", c->place);
		return EX_USAGE;
	}
	ps.cpus = c->cpus;
	ret = place_plan(&ps, (unsigned)c->tasks, pl->cpu, err, errlen);
	if (ret)
		return ret;
	if (c->mem_node >= 0) {
		if (c->mem_node >= place_numa_nodes()) {
			snprintf(err, errlen, "--mem-node '%d': this machine has NUMA nodes 0..%d",
				 c->mem_node, place_numa_nodes() - 1);
			return EX_USAGE;
		}
		sc.mem_node = c->mem_node;
	}
	ret = plan_windows(pl, c, err, errlen);
	if (ret)
		return ret;
	pl->has_core_pmu = si->has_core_pmu;
	pl->sga.cfg = sc;
	return sga_preflight(&sc, err, errlen);
}

/* Copy what the tasks wrote into r and add the run-level metrics. */
static void collect(struct plan *pl, struct run_result *r, int64_t pt_before, int64_t pt_after,
		    uint64_t startup_ns)
{
	const struct run_cfg *c = pl->cfg;
	double pte = 0, ftf = 0, maxwin = 0, acc = 0;

	r->nevents = pl->nspec;
	for (unsigned e = 0; e < pl->nspec; e++)
		snprintf(r->events[e], sizeof(r->events[e]), "%s", pl->specs[e].name);
	for (unsigned t = 0; t < c->tasks; t++) {
		r->task[t] = pl->ctl->res[t];
		if (r->task[t].vmpte_kb > 0 && (!c->threads || t == 0))
			pte += (double)r->task[t].vmpte_kb * 1024;
		ftf += (double)r->task[t].ft_minflt;
		acc += (double)r->task[t].accesses;
		if (r->task[t].window_ns > maxwin)
			maxwin = (double)r->task[t].window_ns;
	}
	result_set_metric(r, "pte-bytes", pte);
	result_set_metric(r, "first-touch-faults", ftf);
	if (pt_before >= 0 && pt_after >= 0)
		result_set_metric(r, "pagetables-delta-bytes", (double)(pt_after - pt_before) * 1024);
	result_set_metric(r, "startup-s", (double)startup_ns / 1e9);
	if (maxwin > 0) {
		result_set_metric(r, "window-s", maxwin / 1e9);
		result_set_metric(r, "accesses-per-s", acc / (maxwin / 1e9));
	}
	if (pl->nwin) {
		r->win = malloc((size_t)pl->nwin * c->tasks * sizeof(*r->win));
		if (r->win) {
			memcpy(r->win, pl->win, (size_t)pl->nwin * c->tasks * sizeof(*r->win));
			r->nwindows = pl->nwin;
			window_metrics(r);
		}
		result_set_metric(r, "window-rounds", (double)(pl->ctl->reps * c->rounds));
	}
	if (pl->work)
		result_set_metric(r, "test-work", pl->work);
	if (pl->ctl->generated_in_window)
		result_set_metric(r, "generated-in-window", 1);
	if (c->sharedctx)
		result_set_metric(r, "sharedctx-tasks", pl->ctl->sharedctx_seen);
}

int native_run(const struct run_cfg *c, const struct sysinfo *si, struct run_result *r,
	       char *err, size_t errlen)
{
	unsigned nproc = c->threads ? 1 : (unsigned)c->tasks;
	struct plan *pl = calloc(1, sizeof(*pl));
	struct watch w = { 0 };
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term, old_hup;
	int64_t pt_before, pt_after = -1;
	uint64_t t_fork, startup = 0;
	int ret;

	if (!pl) {
		snprintf(err, errlen, "out of memory");
		return EX_RESOURCE;
	}
	ret = plan_run(pl, c, si, err, errlen);
	if (ret)
		goto out_free;
	pl->ctl_len = sizeof(struct ctl) + c->tasks * sizeof(struct task_result) +
		      (size_t)pl->nwin * c->tasks * sizeof(struct window_result) +
		      2 * c->tasks * sizeof(uint64_t);
	pl->ctl = mmap(NULL, pl->ctl_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	w.pids = calloc(nproc, sizeof(pid_t));
	w.reaped = calloc(nproc, sizeof(int));
	if (pl->ctl == MAP_FAILED || !w.pids || !w.reaped) {
		snprintf(err, errlen, "out of memory for %llu tasks", (unsigned long long)c->tasks);
		ret = EX_RESOURCE;
		pl->ctl = NULL;
		goto out_free;
	}
	barrier_init(&pl->ctl->bar, (uint32_t)c->tasks + 1);
	barrier_init(&pl->ctl->tbar, (uint32_t)c->tasks);
	pl->win = (struct window_result *)(pl->ctl->res + c->tasks);
	pl->cal_ns = (uint64_t *)(pl->win + (size_t)pl->nwin * c->tasks);
	for (unsigned t = 0; t < c->tasks; t++) {
		pl->ctl->res[t].vmpte_kb = -1;
		pl->ctl->res[t].ft_minflt = -1;
		pl->ctl->res[t].cpu = -1;
	}
	pl->parent = getpid();
	w.n = nproc;
	w.pl = pl;
	if (c->timeout)
		w.deadline = now_ns() + c->timeout * 1000000000ull;

	got_signal = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);

	pt_before = read_kb("/proc/meminfo", "PageTables");
	ret = sga_create(&pl->sga, &pl->sga.cfg, err, errlen);
	if (ret)
		goto out_signals;
	info(2, "sga: %s", pl->sga.desc);

	fflush(NULL);
	t_fork = now_ns();
	for (unsigned i = 0; i < nproc; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			if (c->threads)
				worker_threads(pl);
			task_process(pl, i);
		}
		if (pid < 0) {
			w.status = EX_RESOURCE;
			snprintf(w.why, sizeof(w.why), "fork of task %u: %s", i, strerror(errno));
			barrier_abort(&pl->ctl->bar);
			break;
		}
		w.pids[i] = pid;
	}
	if (!w.status && !barrier_wait(&pl->ctl->bar, parent_poll, &w)) {	/* 1 */
		startup = now_ns() - t_fork;
		if (!barrier_wait(&pl->ctl->bar, parent_poll, &w) &&		/* 2 */
		    !barrier_wait(&pl->ctl->bar, parent_poll, &w)) {		/* 3 */
			pt_after = read_kb("/proc/meminfo", "PageTables");
			if (!barrier_wait(&pl->ctl->bar, parent_poll, &w))	/* 4 */
				reap_all(&w);
		}
	}
	if (pl->ctl->bar.abort || w.status) {
		barrier_abort(&pl->ctl->bar);
		kill_and_reap(&w);
		if (!w.status) {
			w.status = pl->ctl->err_status ? pl->ctl->err_status : EX_FAIL;
			snprintf(w.why, sizeof(w.why), "%s", pl->ctl->err[0] ? pl->ctl->err : "a task failed");
		}
	}
	sga_destroy(&pl->sga);
	if (w.status) {
		snprintf(r->status, sizeof(r->status), "failed");
		snprintf(r->reason, sizeof(r->reason), "%s", w.why);
		snprintf(err, errlen, "%s", w.why);
		ret = w.status;
	} else {
		snprintf(r->status, sizeof(r->status), "ok");
		collect(pl, r, pt_before, pt_after, startup);
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
