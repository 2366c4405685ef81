/* native/task.c - one task of the native backend, process or thread: attach the SGA, pin, open the counters, first touch, the measured windows (internal.h). */
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
#include "native/internal.h"

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
int64_t read_kb(const char *path, const char *key)
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
			       .task = 0, .ntasks = 1, .args = &pl->cfg->wl };
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
	if (pl->knob)
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

/*
 * Map, before the VmPTE reading that starts sga-pte-bytes, everything of
 * the task's own that the windows may touch for the first time: every page
 * of the shared control block (fork does not copy a shared mapping's page
 * tables, so the first access to a slot faults it in) and 64 KiB of stack
 * below this frame. With ASLR either can sit across a 2 MiB boundary and
 * need a page-table page of its own, which would be counted as the SGA's.
 */
static __attribute__((noinline)) void settle_page_tables(const struct plan *pl)
{
	volatile char stack[64 * 1024];
	const volatile char *p = (const volatile char *)pl->ctl;
	long page = sysconf(_SC_PAGESIZE);

	for (size_t i = 0; i < sizeof(stack); i += (size_t)page)
		stack[i] = 0;
	for (size_t i = 0; i < pl->ctl_len; i += (size_t)page)
		(void)p[i];
	(void)read_kb("/proc/self/status", "VmPTE");	/* stdio's buffers */
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

		t0 = clock_now_ns();
		sum += run_window(pl, base, off, s, idx, nidx, cap, reps);
		slot[t] = clock_now_ns() - t0;
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

		t0 = clock_now_ns();
		perf_enable(ps);
		sum += run_window(pl, base, off, s, idx, nidx, cap, reps);
		/* the calibration can overshoot the speed: top up to the time, one sequence at a time */
		while (c->min_window_ns && clock_now_ns() - t0 < c->min_window_ns && done_reps < pl->reps_cap) {
			sum += run_window(pl, base, off, s, idx, nidx, cap, 1);
			done_reps++;
		}
		perf_disable(ps);
		t1 = clock_now_ns();
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

/*
 * Pin task t, open its stream s and pre-generate what of its access order
 * can be (*idx, *nidx of *cap; none for a dependent workload). Returns
 * EX_OK, or the exit status after task_fail (s is then closed).
 */
static int task_order(struct plan *pl, unsigned t, struct wl_stream *s, uint32_t **idx,
		      uint64_t *nidx, uint64_t *cap)
{
	const struct run_cfg *c = pl->cfg;
	struct wl_params p = { .pages = pl->ws_pages, .rounds = c->rounds, .seed = c->seed,
			       .task = t, .ntasks = (unsigned)c->tasks, .args = &c->wl };
	uint64_t total = c->rounds * pl->ws_pages, n;
	int ret;

	ret = wl_open(s, pl->wl, &p);
	if (ret) {
		task_fail(pl, EX_FAIL, "workload: %s", strerror(-ret));
		return EX_FAIL;
	}
	if (pl->wl->flags & WL_DEPENDENT)
		n = 0;
	else if (pl->wl->flags & WL_PERIODIC)
		n = pl->ws_pages;
	else
		n = total <= PREGEN_MAX ? total : (1u << 20);
	*cap = *nidx = n;
	if (!n)
		return EX_OK;
	*idx = malloc(n * sizeof(**idx));
	if (!*idx) {
		wl_close(s);
		task_fail(pl, EX_RESOURCE, "out of memory for the access order");
		return EX_RESOURCE;
	}
	*nidx = wl_fill(s, *idx, n);	/* touches the buffer: no faults in the window */
	if (!(pl->wl->flags & WL_PERIODIC) && total > PREGEN_MAX)
		pl->ctl->generated_in_window = 1;
	return EX_OK;
}

/*
 * Phase 2, between barriers 1 and 2: task t writes one word of every page
 * of its working set (in turn with --first-touch serial), counting its
 * minor faults, and the counters with --measure first-touch. Returns 0,
 * or -1 when the run is failing.
 */
static int task_first_touch(struct plan *pl, unsigned t, char *base, size_t off, struct perf_set *ps)
{
	const struct run_cfg *c = pl->cfg;
	struct ctl *ctl = pl->ctl;
	struct task_result *tr = &ctl->res[t];
	uint64_t t0, t1;
	int64_t f0;

	/* Fault in (copy-on-write after fork) the private pages first touch
	 * uses, so first-touch-faults counts SGA pages only. */
	(void)minflt(c->threads);
	(void)clock_now_ns();
	if (c->first_touch == FIRST_TOUCH_SERIAL &&
	    turn_wait(&ctl->ft_turn, t, &ctl->bar, task_poll, pl))
		return -1;
	f0 = minflt(c->threads);
	t0 = clock_now_ns();
	if (c->measure == MEASURE_FIRST_TOUCH)
		perf_enable(ps);
	touch_first(base, pl->ws_pages, 1ull << pl->shift, off);
	if (c->measure == MEASURE_FIRST_TOUCH) {
		perf_disable(ps);
		t1 = clock_now_ns();
		tr->accesses = pl->ws_pages;
		tr->window_ns = t1 - t0;
	}
	tr->first_touch_faults = minflt(c->threads) - f0;
	if (c->first_touch == FIRST_TOUCH_SERIAL)
		turn_next(&ctl->ft_turn);
	return barrier_wait(&ctl->bar, task_poll, pl) ? -1 : 0;	/* 2: all touched */
}

/* Phase 3 without --windows: one measured window (or none, with
 * --measure first-touch), then the counters read. */
static void task_one_window(struct plan *pl, unsigned t, char *base, size_t off, struct wl_stream *s,
			    uint32_t *idx, uint64_t nidx, uint64_t cap, struct perf_set *ps)
{
	const struct run_cfg *c = pl->cfg;
	struct task_result *tr = &pl->ctl->res[t];

	if (c->measure == MEASURE_WINDOW) {
		uint64_t sum, t0, t1;

		t0 = clock_now_ns();
		perf_enable(ps);
		sum = run_window(pl, base, off, s, idx, nidx, cap, 1);
		perf_disable(ps);
		t1 = clock_now_ns();
		__atomic_fetch_add(&pl->ctl->sink, sum, __ATOMIC_RELAXED);
		tr->accesses = c->rounds * pl->ws_pages;
		tr->window_ns = t1 - t0;
	}
	perf_read(ps, tr->ev);
	perf_check_dead(pl->specs, tr->ev, pl->nspec);
}

/* Everything one task does, process or thread, from attach to release; tps: its
 * teardown counter, opened after start-up (NULL for a thread: its worker detaches). */
static int task_body(struct plan *pl, unsigned t, char *base, struct perf_set *tps)
{
	const struct run_cfg *c = pl->cfg;
	struct ctl *ctl = pl->ctl;
	struct task_result *tr = &ctl->res[t];
	struct perf_set ps;
	struct wl_stream s;
	uint64_t nidx = 0, cap = 0;
	size_t off = 64 * (1 + t % ((1ul << pl->shift) / 64 - 1));
	uint32_t *idx = NULL;
	int ret;

	tr->cpu = pl->cpu[t];
	ret = place_pin(pl->cpu[t]);
	if (ret) {
		task_fail(pl, EX_RESOURCE, "task %u: cannot pin to CPU %d: %s", t, pl->cpu[t], strerror(-ret));
		return EX_RESOURCE;
	}
	if (barrier_wait(&ctl->bar, task_poll, pl))			/* 1: attached */
		return ctl->err_status ? ctl->err_status : EX_FAIL;
	if (tps)
		td_open(pl, tps);
	/* From here to barrier 1b the task readies itself: the tool's own work,
	 * kept out of startup-s, which ends at barrier 1 and measures the
	 * kernel's fork and attach. Before barrier 1 it would also compete for
	 * the CPUs with the parent still forking the later tasks. */
	ret = task_order(pl, t, &s, &idx, &nidx, &cap);
	if (ret)
		return ret;
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

	/* Page tables before any task's first touch (threads share one mm);
	 * the stdio calls before it settle the heap, so only the SGA's own
	 * page tables come between this and the end of the window. */
	(void)minflt(c->threads);
	settle_page_tables(pl);
	/* Threads share one mm: all settle before any reads. */
	if (c->threads && barrier_wait(&ctl->tbar, tbar_poll, pl))
		goto fail_perf;
	tr->vmpte_start_kb = read_kb("/proc/self/status", "VmPTE");
	if (barrier_wait(&ctl->bar, task_poll, pl))			/* 1b: settled */
		goto fail_perf;
	if (task_first_touch(pl, t, base, off, &ps))
		goto fail_perf;
	if (c->measure == MEASURE_WINDOW && pl->nwin) {
		if (timed_windows(pl, t, base, off, &s, idx, nidx, cap, &ps))
			goto fail_perf;
	} else {
		task_one_window(pl, t, base, off, &s, idx, nidx, cap, &ps);
	}
	tr->vmpte_kb = read_kb("/proc/self/status", "VmPTE");
	if (barrier_wait(&ctl->bar, task_poll, pl))			/* 3: window over */
		goto fail_perf;
	/* The tool's own clean-up, before the teardown phase measures the kernel's. */
	perf_close(&ps);
	wl_close(&s);
	free(idx);
	if (barrier_wait(&ctl->bar, task_poll, pl))			/* 4: released */
		return ctl->err_status ? ctl->err_status : EX_FAIL;
	pl->td[t].released_ns = clock_now_ns();
	return EX_OK;
fail_perf:
	perf_close(&ps);
fail:
	wl_close(&s);
	free(idx);
	return ctl->err_status ? ctl->err_status : EX_FAIL;
}

/* A task as a process: die with the parent, attach, run, detach. */
void task_process(struct plan *pl, unsigned t)
{
	char err[ERR_LEN];
	struct perf_set tps = { .n = 0 };
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
	ret = task_body(pl, t, base, &tps);
	if (ret == EX_OK)
		td_detach(pl, &tps, base, &pl->td[t]);
	else
		sga_detach(&pl->sga, base);
	_exit(ret);
}

static void *task_thread(void *arg)
{
	struct task_arg *ta = arg;

	return (void *)(intptr_t)task_body(ta->pl, ta->idx, ta->pl->base, NULL);
}

/* Thread mode: one worker process attaches once and runs every task as a thread. */
void worker_threads(struct plan *pl)
{
	unsigned n = (unsigned)pl->cfg->tasks;
	pthread_t *th = calloc(n, sizeof(*th));
	struct task_arg *ta = calloc(n, sizeof(*ta));
	char err[ERR_LEN];
	struct perf_set tps;
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
	td_open(pl, &tps);
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
	if (ret == EX_OK)
		td_detach(pl, &tps, pl->base, &pl->td[0]);
	_exit(ret);
}
