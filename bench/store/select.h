/*
 * select.h - run selectors for compare and history: which stored runs
 * (status 'ok' only) form the baseline or the candidate.
 *
 *   label:TEXT        runs whose label is exactly TEXT
 *   tonight           runs of the most recent 'nightly-*' label (by its latest run)
 *   last-N-nights     runs of the N most recent 'nightly-*' labels before tonight's
 *                     (compare's baseline: before the candidate's, select_baseline_for)
 * Nights are each machine's own (run.machine_name): machine A's tonight is
 * A's latest nightly label, whatever B ran since.
 *   last-N            the N most recent runs of each cell on each machine
 *   uuid:U1,U2,...    those runs
 *   since:YYYY-MM-DD  runs started on or after that day (UTC)
 *   kernel:V          runs of kernel variant V (lib/kver.h): recorded so
 *                     (run.kernel_variant), or without one labelled 'kernel:V';
 *                     kernel:V1|V2 the runs of either (two boots of one
 *                     kernel, each a session, measure the drift between boots)
 */
#ifndef SGA_SELECT_H
#define SGA_SELECT_H

#include <stddef.h>
#include <stdint.h>

struct store;

struct run_ref {
	int64_t id;
	int64_t machine_id;
	char *cell;
	char *label;		/* may be NULL */
	char *started_at;
	char *uuid;
	char *machine_name;	/* SGABENCH_MACHINE of the run (schema 4) */
	char *kernel_variant;	/* the kernel it ran on (schema 5); '' unknown */
	char *boot_id;		/* the boot it ran in (schema 8); '' unknown or a model run */
	int64_t group;		/* the same for runs of one machine_id and machine_name (compare) */
};

struct runset {
	struct run_ref *run;	/* ordered by cell, machine, start time */
	size_t n;
	char *resolved;		/* what the selector meant here, e.g. "label nightly-2026-12-03" */
};

/*
 * Check the syntax of selector sel. Returns 0, or -EINVAL with a short
 * reason in why.
 */
int select_check(const char *sel, char *why, size_t whylen);

/*
 * Fill out with the runs sel selects whose cell matches the GLOB pattern
 * cell_glob (NULL: every cell). Returns 0, -EINVAL for a bad selector,
 * -EIO on a database error (store_errmsg tells), -ENOMEM.
 */
int select_runs(struct store *s, const char *sel, const char *cell_glob, struct runset *out);

/* Whether sel selects runs by kernel variant (kernel:V). */
int select_is_kernel(const char *sel);

/* As select_runs, only the runs of the machine named machine (NULL: every machine). */
int select_runs_on(struct store *s, const char *sel, const char *cell_glob, const char *machine,
		   struct runset *out);

/*
 * The baseline sel selects for the candidate cand: as select_runs_on,
 * except that last-N-nights means, for each machine of cand, the N
 * latest nightly labels of that machine begun before the candidate's
 * first run there, the candidate's own labels left out: tonight's
 * baseline when cand is tonight, a past night's when cand is that night.
 */
int select_baseline_for(struct store *s, const char *sel, const char *cell_glob, const char *machine,
			const struct runset *cand, struct runset *out);

/* Free what run ref r holds (not r itself). */
void run_ref_free(struct run_ref *r);

void runset_free(struct runset *rs);

/* One run's per-run metrics, from the view run_metric. */
struct run_values {
	size_t n;
	char **name;
	double *value;		/* NAN when missing */
	char **missing;		/* why it is missing (NULL when present) */
};

/* Load every metric of run run_id. Returns 0, -EIO or -ENOMEM. */
int select_load_values(struct store *s, int64_t run_id, struct run_values *out);

/* The value of metric name in v: 1 present (*x set), 0 missing (*why set), -1 absent. */
int run_values_get(const struct run_values *v, const char *name, double *x, const char **why);

void run_values_free(struct run_values *v);

/*
 * The costs run run_id's est-* metrics were priced at, as its model
 * machine was stored (config machine walk_cycles and ghz: sim
 * --walk-cycles and --ghz, else the preset's): *walk_cycles cycles a
 * page walk, at *ghz GHz. Returns 0; -ENOENT when the run stored none (a
 * native run, or a model run stored before they were); -EIO.
 */
int select_run_costs(struct store *s, int64_t run_id, double *walk_cycles, double *ghz);

#endif
