/*
 * native/internal.h - what the files of the native backend share and
 * nothing else includes: the control block every task maps, the plan the
 * parent builds before fork, and the functions each file offers the others.
 *   native.c     plan the run, fork, collect (native_run)
 *   task.c       one task's life: attach, first touch, the windows, exit
 *   supervise.c  the parent's watch over its tasks: reap, kill, time out
 */
#ifndef SGA_NATIVE_INTERNAL_H
#define SGA_NATIVE_INTERNAL_H

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>
#include "lib/clock.h"
#include "native/barrier.h"
#include "lib/log.h"
#include "native/native.h"
#include "machine/perf.h"
#include "machine/place.h"
#include "native/sga.h"
#include "native/teardown.h"
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
	int knob;			/* SGABENCH_TEST_WORK is set (even to 0): the knob's read loop */
	struct td_task *td;		/* in the ctl mapping: one per task (teardown.h) */
	struct perf_spec td_spec;	/* instructions, kernel included, over a detach */
	int td_state;			/* EV_COUNTED: td_spec resolved; else why not */
	double mux_interval_ms;		/* the core PMU's multiplexing interval; 0 unknown */
	const char *mux_interval_missing;	/* why it is unknown (perf_mux.h), else NULL */
	char boot_id[40];		/* the boot the run ran in (sysinfo.h), "" unknown */
};

struct task_arg {
	struct plan *pl;
	unsigned idx;
};

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

/* The signal (INT, TERM, HUP) the parent caught while it watched, or 0. */
extern volatile sig_atomic_t got_signal;

/* Record the signal for the parent's watch (a sigaction handler). */
void on_signal(int sig);

/* The value in kB of "key:" in a /proc file such as /proc/meminfo, or -1. */
int64_t read_kb(const char *path, const char *key);

/*
 * The teardown counter of the calling thread (instructions, kernel
 * included), opened disabled; ps->n is 0 when td_spec did not resolve
 * (task.c).
 */
void td_open(const struct plan *pl, struct perf_set *ps);

/*
 * Detach base, the teardown's first step, with the teardown counter tps
 * enabled around it: its instructions and the time the detach returned go
 * to td. Closes tps (teardown.c).
 */
void td_detach(struct plan *pl, struct perf_set *tps, void *base, struct td_task *td);

/* Task t as a process: its whole life, then _exit (task.c). */
void task_process(struct plan *pl, unsigned t) __attribute__((noreturn));

/* Thread mode: one process whose threads are the tasks; then _exit (task.c). */
void worker_threads(struct plan *pl) __attribute__((noreturn));

/* Barrier poll of the parent: a task died, a signal, or the deadline (supervise.c). */
int parent_poll(void *arg);

/* Kill every task still alive and reap them all (supervise.c). */
void kill_and_reap(struct watch *w);

/* Reap every task, waiting for each (supervise.c). */
void reap_all(struct watch *w);

#endif
