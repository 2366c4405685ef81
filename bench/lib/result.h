/*
 * result.h - what a backend (native or model) hands to the store and the
 * output writers. Both backends fill the same structure, so everything
 * downstream (store, JSON/CSV, reports, compare) treats them alike.
 */
#ifndef SGA_RESULT_H
#define SGA_RESULT_H

#include <stdint.h>
#include "lib/metrics.h"

#define EV_MAX 32
/* A run can hold every metric of the registry. */
#define METRIC_MAX MET_N

/* Why a counter has no value. EV_COUNTED means it has one. */
enum ev_state {
	EV_COUNTED = 0,
	EV_UNSUPPORTED,		/* the PMU has no such event (ENOENT/EOPNOTSUPP/EINVAL) */
	EV_PERMISSION,		/* EACCES/EPERM: perf_event_paranoid or capabilities */
	EV_NO_PMU,		/* a hardware event, and this machine has no core PMU */
	EV_MULTIPLEXED_OUT,	/* opened, but never scheduled on the PMU (running == 0) */
	EV_NOT_MODELLED,	/* the model backend does not simulate this event */
	EV_READS_ZERO,		/* opened, but the PMU counts nothing: cycles or
				 * instructions read 0 while the task ran (a VM
				 * whose virtual PMU is a stub) */
	EV_NO_DRIVER,		/* a generic event on a model without a CPU (a
				 * custom TLB): no Linux driver defines it */
	EV_NSTATES
};

/* "unsupported", "permission", ... as stored in value.missing; NULL for EV_COUNTED. */
const char *ev_state_name(int state);

struct ev_value {
	uint64_t raw;		/* as read */
	uint64_t enabled;	/* ns enabled (TOTAL_TIME_ENABLED); 0 for the model */
	uint64_t running;	/* ns running (TOTAL_TIME_RUNNING); 0 for the model */
	double value;		/* raw * enabled / running; valid only if state == EV_COUNTED */
	int state;		/* enum ev_state */
};

struct task_result {
	int cpu;		/* CPU the task was pinned to, -1 when not pinned */
	uint64_t accesses;	/* accesses done in the measured window */
	uint64_t window_ns;	/* wall time of the task's measured window */
	int64_t vmpte_kb;	/* VmPTE at the end of the window, -1 unknown */
	int64_t vmpte_start_kb;	/* VmPTE just before first touch, -1 unknown (not stored) */
	int64_t first_touch_faults;	/* minor faults taken during first touch, -1 unknown */
	struct ev_value ev[EV_MAX];
};

/* One task's share of one measured window (run --windows / --min-window). */
struct window_result {
	uint64_t accesses;	/* accesses the task did in this window */
	uint64_t window_ns;	/* wall time of the task's window */
	struct ev_value ev[EV_MAX];	/* counters over this window alone */
};

struct metric {
	enum metric_id id;
	const char *name;	/* metric_defs[id].name */
	double value;
};

/*
 * A run metric the run meant to give but could not, and why: a short
 * token such as "no-interrupt-line" or an ev_state name ("no-pmu").
 * Never stored as 0: the JSON output lists it under "missing" with the
 * events that are missing, and the store keeps it as a metric row whose
 * value is NULL and whose missing column holds the reason (schema 6).
 */
struct metric_gap {
	enum metric_id id;
	char reason[48];	/* a copy: a store reads it back from a row */
};

struct run_result {
	char uuid[37];
	char started_at[32];	/* ISO 8601 UTC, e.g. 2026-12-03T09:00:00Z */
	char backend[64];	/* "native" or "model:<preset>" */
	char status[16];	/* "ok" or "failed" */
	char reason[256];	/* why it failed, empty when ok */
	double wall_s;		/* whole run, set-up included */
	uint64_t seed;
	unsigned nevents;
	char events[EV_MAX][64];
	unsigned ntasks;
	struct task_result *task;	/* ntasks entries, owned by the caller */
	unsigned nmetrics;
	struct metric metric[METRIC_MAX];
	unsigned nmissing;
	struct metric_gap missing[METRIC_MAX];	/* metrics the run could not give */
	double mux_interval_ms;	/* the core PMU's multiplexing interval; 0 unknown */
	/* why mux_interval_ms is 0 (empty when known): no-pmu, unreadable
	 * (machine/perf_mux.h), not-modelled (the model backend), not-recorded
	 * (stored before schema 7 kept it) */
	char mux_interval_missing[24];
	/* the kernel's boot id of a native run (/proc/sys/kernel/random/boot_id);
	 * empty: a model run, or not known */
	char boot_id[40];
	unsigned nwindows;	/* 0: one plain window, not stored per window */
	struct window_result *win;	/* nwindows * ntasks, [w * ntasks + t]; owned by the caller */
};

/* Add (or replace) run metric id = value; id is a row of lib/metrics.h. */
void result_set_metric(struct run_result *r, enum metric_id id, double value);

/* Record run metric id as missing for reason (copied, cut to a
 * metric_gap's size); it is not also set. A later result_set_metric of id
 * clears the gap. */
void result_set_metric_missing(struct run_result *r, enum metric_id id, const char *reason);

/* The same by name, for a missing metric read back from a store: 0, or
 * -EINVAL when the registry has no metric called name (nothing is set). */
int result_set_metric_missing_named(struct run_result *r, const char *name, const char *reason)
	__attribute__((warn_unused_result));

/*
 * The same by name, for metrics read back from a store: 0, or -EINVAL
 * when the registry has no metric called name (nothing is set then).
 */
int result_set_metric_named(struct run_result *r, const char *name, double value)
	__attribute__((warn_unused_result));

/* Run metric id of r into *value: 0, or -ENOENT when r does not hold it. */
int result_get_metric(const struct run_result *r, enum metric_id id, double *value);

/* Sum of event e over all tasks into *sum; returns 0, or the state of the
 * first task whose value is missing (then *sum is untouched). */
int result_event_total(const struct run_result *r, unsigned e, double *sum);

/* One measured window of a run (run --windows): what the run's metrics take the median of. */
struct window_rates {
	double window_s;	/* the longest task's window, in seconds */
	double accesses;	/* accesses of all tasks */
	double per_s;		/* accesses / window_s; 0 when window_s is 0 */
	double per_cpu_s;	/* accesses / the tasks' task-clock in s; NAN unless counted in every task */
};

/* Window w's rates (w < r->nwindows, r->win set); tc is task-clock's event
 * index in r, or -1. */
void result_window_rates(const struct run_result *r, unsigned w, int tc, struct window_rates *out);

/*
 * Task t's own speed in window w: its accesses / its task-clock in
 * seconds. NAN when tc < 0, task-clock was not counted in that task's
 * window, or it counted no time.
 */
double result_task_rate(const struct run_result *r, unsigned w, unsigned t, int tc);

/* Index of event name in r, or -1. */
int result_event_index(const struct run_result *r, const char *name);

/* Fill uuid (random v4) and started_at (now, UTC). */
void result_stamp(struct run_result *r);

/* The run row's descriptive columns (everything but the per-task values). */
struct run_meta {
	const char *workload;	/* "rounds", ... */
	unsigned tasks;
	const char *page_size;	/* "4k", "2m", "1g", "thp" */
	const char *align;	/* "pud", "pmd", or NULL (model) */
	const char *backing;	/* "shm", "memfd", "file", or NULL (model) */
	int sharedctx;		/* 0/1 */
	int threads;		/* 0 processes, 1 threads of one process */
	uint64_t sga_bytes;
	uint64_t working_set_bytes;	/* working set per task */
	uint64_t rounds;
	const char *cell;	/* canonical key of comparable runs (no seed, no label) */
	const char *label;	/* user tag or NULL */
	const char *config_json;	/* the full configuration, as JSON */
};

#endif
