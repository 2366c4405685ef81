/*
 * compare/compare.h - the state of one 'sgabench compare' and the steps that
 * builtin/compare.c runs in order: build the rows (one per cell x metric with
 * runs on both sides), decide (BH per machine, then stats_decide), print, store.
 */
#ifndef SGA_STATS_COMPARE_H
#define SGA_STATS_COMPARE_H

#include <stdio.h>
#include "store/select.h"
#include "stats/stats.h"

struct store;
struct json;

#define CMP_MAX_LIST 64

/* Most distinct values of one assumed cost listed for one side of a row. */
#define CMP_MAX_COSTS 4

/* The distinct costs one side's runs of an est-* row were priced at. */
struct cmp_costs {
	size_t runs, unknown;		/* the side's runs of the row; of them, with no stored costs */
	unsigned nwalk, nghz;
	double walk[CMP_MAX_COSTS];	/* cycles a page walk (sim --walk-cycles) */
	double ghz[CMP_MAX_COSTS];	/* the clock (sim --ghz) */
};

/* One cell x metric. */
struct cmp_row {
	const char *cell;	/* points into the candidate runset */
	int64_t machine_id;	/* -1 when cross-machine */
	int64_t group;		/* the machine (id and name) its runs share: run_ref.group */
	const char *machine;	/* the machine's name (SGABENCH_MACHINE); NULL when cross-machine */
	const char *metric;	/* points into the run values */
	int higher_better;
	size_t nb, nc;		/* runs with a value */
	size_t nullb, nullc;	/* runs skipped: metric missing (NULL) or absent */
	size_t outb, outc;	/* outliers flagged (kept) */
	double medb, medc;	/* each side's median */
	double quant;		/* the quantile the row compares: 0.5, or for a one-sided metric (cmp_one_sided)
				 * STATS_BEST_QUANTILE when higher is better, else 1 - it */
	double estb, estc;	/* each side's quant-quantile (the medians when quant is 0.5) */
	struct ratio_ci ci;	/* estc / estb with its bootstrap CI */
	struct mwu mwu;		/* p: Mann-Whitney U, or the permutation test when quant != 0.5 */
	double q;		/* Benjamini-Hochberg */
	double threshold;	/* the smallest change this row reports: --metric-threshold, else --threshold */
	double floor;		/* the noise floor the rule uses: max(floor_within, floor_between), NAN if none */
	double floor_within;	/* half-split A/A floor of the baseline's runs (>= 4), at n_base
				 * vs n_cand; else NAN */
	double floor_between;	/* sides that do not interleave: the range of the medians of the
				 * baseline's sessions (labels, >= 2 of >= 2 runs) / its median; else NAN */
	unsigned sessions;	/* labels among the baseline's runs of this row; for sides that do
				 * not interleave, those of >= 2 runs */
	int interleaved;	/* the two sides' runs interleave in time (sweep --ab) */
	double cv;		/* robust relative noise of the runs (stats_robust_cv) */
	double mde;		/* minimum detectable effect: max(bound, stats_mde), INFINITY if none */
	int exact;		/* a deterministic backend's exact answer (compare/exact.c): no test */
	enum verdict v;
	char why[96];
	/* each side's (0 baseline, 1 candidate) runs whose readings of metric were scaled over too
	 * few rotations, or an unknown number, and the fewest rotations among the former (NAN
	 * none): compare/mux.c */
	size_t mux_few[2], mux_unknown[2];
	double mux_fewest[2];
	/* an est-* row: the costs each side's runs were priced at (compare/costs.c) */
	struct cmp_costs costs[2];
	int costs_differ;	/* the sides assumed other costs that the metric depends on */
};

struct cmp {
	/* options (builtin/compare.c's table fills these) */
	const char *baseline, *candidate, *metrics, *cell, *hb_last, *mt_last, *osn_last, *ia_last;
	const char *side_cell[2];	/* --baseline-cell, --candidate-cell: in place of --cell */
	const char *machine;		/* --machine NAME: only that machine's runs */
	const char *config;		/* --config FILE: a sweep config's verdict rules */
	int store, cross, verbose;
	int kernels;			/* --across-kernels, or a kernel:V selector: machines by name alone */
	struct decide_params dp;
	char *hb[CMP_MAX_LIST];
	size_t nhb;
	char *osn[CMP_MAX_LIST];		/* --one-sided-noise metrics */
	size_t nosn;
	char *mt_name[CMP_MAX_LIST];	/* --metric-threshold M=R, in the order given */
	double mt_value[CMP_MAX_LIST];
	size_t nmt;
	char *metric[CMP_MAX_LIST];
	size_t nmetric;
	char *ignore[CMP_MAX_LIST];		/* --ignore-axis: cell keys left out of the pairing */
	size_t nignore;
	/* state */
	struct store *db_handle;
	struct runset base, cand;
	struct run_values *bv, *cv;	/* values of base.run[i], cand.run[i] */
	size_t overlap;			/* baseline runs dropped: also in the candidate */
	char **full_base, **full_cand;	/* with --ignore-axis: each run's whole cell (run.cell lacks
					 * the ignored axes); else NULL */
	struct cmp_row *rows;
	size_t nrows;
	char **notes;
	size_t nnotes;
	const char *nv_metric[CMP_MAX_LIST];	/* metrics with no value in any run of a cell */
	const char *nv_why[CMP_MAX_LIST];
	size_t nv_cells[CMP_MAX_LIST], nnv;
	int count[4];			/* rows per enum verdict */
	struct cmp_mux_run *mux[2];	/* per run of base, cand: its scaled events (compare/mux.c) */
	struct cmp_cost_run *cost[2];	/* per run of base, cand: its assumed costs (compare/costs.c) */
	size_t *shown;			/* notes printed without --verbose (a verdict's caveat) */
	size_t nshown;
};

/* The within-baseline floor: seeded half-splits, as scripts/sweep's noise table. */
#define CMP_FLOOR_RESAMPLES	200
#define CMP_FLOOR_SEED		20161216u
/* Fewest runs of a baseline label (night) that count as a session for the range between nights. */
#define CMP_SESSION_MIN_RUNS	2

/*
 * The options a sweep config's rules stand for: "--metric M,... [--higher-better
 * M,...] SWEEP_COMPARE_ARGS..." from its SWEEP_METRICS (NAME:higher|lower ...)
 * and SWEEP_COMPARE_ARGS, as scripts/nightly passes them, into a fresh argv
 * of *n strings (free with cmp_config_free). Returns 0, -ENOENT (no such
 * file), -EINVAL (why in why[0..len-1]) or -ENOMEM.
 */
int cmp_config_args(const char *path, char ***out, int *n, char *why, size_t len);
void cmp_config_free(char **argv, int n);

/*
 * Whether the baseline's and the candidate's runs of the cell interleave
 * in time within one boot (neither side's runs of that boot start after
 * the other side's last run of it started), as sweep --ab's arms do: then
 * drift between sessions falls on both sides alike. Runs of two boots
 * never interleave, even when they ran side by side (the lab's guests):
 * each boot drifts on its own. Runs of unknown boot (run_ref.boot_id '':
 * model runs, runs stored before schema 8) count as one boot.
 */
int cmp_interleaved(const struct cmp *c, const char *cell, int64_t mach);

/*
 * Row r's noise floor, from the baseline's runs of its cell alone (never
 * the candidate's), on the row's quantile r->quant (below, "median" is
 * that quantile): floor_within, the 95th percentile of |median(half 1)
 * / median(half 2) - 1| over CMP_FLOOR_RESAMPLES seeded half-splits of
 * the baseline, scaled from halves of n/2 to this comparison's sizes by
 * sqrt((1/n_base + 1/n_cand) / (1/h1 + 1/h2)) (the spread of a difference
 * of medians), and,
 * when the sides do not interleave (tonight against earlier nights), also
 * floor_between, (max - min) of the medians of the baseline's sessions
 * (labels with >= 2 runs; 0 with fewer than two) / the median of all its
 * runs: tonight must lie beyond the spread of the earlier nights. r->floor
 * is the larger. Needs r->cell, r->metric, r->quant and the loaded values. Returns 0
 * or -ENOMEM. (cmp_decide makes a change of a varying metric against
 * fewer than two such sessions 'insufficient': the drift between nights
 * is not measured then.)
 */
int cmp_row_floor(const struct cmp *c, struct cmp_row *r, int64_t mach);

/* Split a comma list into at most max fresh strings; returns how many. */
size_t cmp_split_list(const char *list, char **out, size_t max);

/*
 * Add one --metric-threshold value "METRIC=R" (R a fraction in [0, 10], as
 * --threshold); a later value for the same metric replaces an earlier one.
 * Returns 0, -EINVAL (why in why[0..len-1]) or -ENOMEM.
 */
int cmp_add_metric_threshold(struct cmp *c, const char *spec, char *why, size_t len);

/* The smallest change rows of metric report: its --metric-threshold, else --threshold. */
double cmp_threshold(const struct cmp *c, const char *metric);

/* Whether higher is better for metric: listed in --higher-better, or so in the registry (lib/metrics.h). */
int cmp_higher_better(const struct cmp *c, const char *metric);

/* Whether noise only makes metric worse: listed in --one-sided-noise, or NOISE_ONE_WAY in the registry. */
int cmp_one_sided(const struct cmp *c, const char *metric);

/*
 * The quantile rows of metric compare: for a one-sided metric
 * (cmp_one_sided), its best decile (STATS_BEST_QUANTILE when higher is
 * better, else 1 - STATS_BEST_QUANTILE), else 0.5 (the median).
 */
double cmp_quantile(const struct cmp *c, const char *metric);

/* Whether any row compares a quantile other than the median (a one-sided metric). */
int cmp_any_one_sided(const struct cmp *c);

/*
 * --ignore-axis (compare/axes.c). cmp_ignore_add adds the cell keys of a
 * comma list of axes (a key, or a sweep axis naming one: machine, sga-size,
 * working-set, page-size, layout); returns 0 or -ENOMEM. cmp_ignore_check:
 * 0 when every ignored key is in some selected run's cell, else -EINVAL
 * with why. cmp_ignore_apply (after the overlap is dropped): each run's
 * cell loses the ignored keys, so runs pair by the rest; the whole cell
 * stays in full_base/full_cand. Returns 0 or -ENOMEM.
 */
int cmp_ignore_add(struct cmp *c, const char *list);
int cmp_ignore_check(const struct cmp *c, char *why, size_t len);
int cmp_ignore_apply(struct cmp *c);

/* Run i's whole cell on side (0 baseline, 1 candidate). */
const char *cmp_full_cell(const struct cmp *c, int side, size_t i);

/*
 * Side's values of the ignored axes among row r's runs, "key=value ..."
 * (values that differ between its runs joined by " | ") into buf.
 */
void cmp_ignored_values(const struct cmp *c, const struct cmp_row *r, int side, char *buf, size_t len);

/*
 * The ignored axes and both sides' values: with header, the lines after
 * the table's header (the values too when every row has the same); else,
 * after the table, each cell's when they differ.
 */
void cmp_print_ignored(const struct cmp *c, FILE *f, int header);

/* The ignored axes (r NULL: "ignore_axes") or row r's values of them ("ignored"), as JSON. */
void cmp_ignored_json(const struct cmp *c, struct json *j, const struct cmp_row *r);

/* Keys whose values differ entirely between the sides ("tlb,cores"), for the hint. */
void cmp_suggest_axes(const struct cmp *c, char *buf, size_t len);

/* The tokens of cell that differ between rows (print.c: the table's cell column). */
void cmp_cell_varying(const struct cmp *c, const char *cell, char *buf, size_t len);

/*
 * Exact answers (compare/exact.c). A row is exact when each side has a
 * run and every run of the row, on both sides, is of a deterministic
 * backend (the model: backend=model:*), the metric is not read from a
 * clock (cmp_clock_metric) and each side's values are all equal: one run
 * a side is then the answer. cmp_row_exact tells (a note when a model
 * row's runs differ); cmp_exact_fill sets the row's ratio (its CI
 * collapsed onto it), p and q NAN (no test), floor 0; cmp_decide_exact
 * judges the ratio against the threshold alone.
 */
int cmp_row_exact(struct cmp *c, const char *cell, int64_t mach, const char *metric,
		  const double *xb, size_t nb, const double *xc, size_t nc);
void cmp_exact_fill(struct cmp_row *r, double b, double cv);
void cmp_decide_exact(struct cmp_row *r);
int cmp_clock_metric(const char *metric);
/*
 * Whether both sides of the group cell/mach have runs and all are of a
 * deterministic backend. Its clocks then time the simulator, not the
 * simulated machine: compare judges them only when asked by name.
 */
int cmp_group_deterministic(const struct cmp *c, const char *cell, int64_t mach);

/* The exact method's JSON fields: for row r, or (r NULL) the comparison's when it has exact rows. */
void cmp_exact_method(const struct cmp *c, const struct cmp_row *r, struct json *j);

/* A line after the summary when some rows are exact. */
void cmp_print_exact(const struct cmp *c, FILE *f);

/*
 * Multiplexed estimates (compare/mux.c). cmp_mux_alloc (once the runsets
 * are final) makes room for each run's scaled events, read on first need;
 * cmp_row_mux adds a note when row r's metric is an event whose readings,
 * on either side, were scaled over fewer than PERF_MUX_MIN_ROTATIONS
 * rotations or over an unknown number (machine/perf_mux.h): nothing for
 * exact readings or enough rotations; it sets r's mux_* fields (the
 * JSON row's "multiplexing"). The note is a caveat on a verdict:
 * the text prints it without --verbose too. Return 0, -ENOMEM or -EIO.
 */
struct cmp_mux_run;
int cmp_mux_alloc(struct cmp *c);
int cmp_row_mux(struct cmp *c, struct cmp_row *r);
void cmp_mux_free(struct cmp *c);
/* Row r's "multiplexing" object when a side had such runs; nothing else. */
void cmp_row_mux_json(struct json *j, const struct cmp_row *r);

/*
 * Assumed costs (compare/costs.c). An est-* metric (kind estimate) prices
 * a run's counts at the walk cost and clock its model machine assumed
 * (sim --walk-cycles, --ghz; select_run_costs): two sides that assumed
 * others differ by that assumption, whatever the design. cmp_cost_alloc
 * (once the runsets are final) makes room for each run's costs, read on
 * first need. cmp_row_costs fills r->costs for an est-* row and, when the
 * sides assumed other costs the metric depends on (the walk cost; the
 * clock too, but for est-*-cycles), sets r->costs_differ and adds a note
 * that the text prints without --verbose. Return 0, -ENOMEM or -EIO.
 */
struct cmp_cost_run;
int cmp_cost_alloc(struct cmp *c);
int cmp_row_costs(struct cmp *c, struct cmp_row *r);
void cmp_cost_free(struct cmp *c);
/*
 * Row r's assumption in words, when its sides' differ ("the sides assume
 * 2 GHz and 4 GHz: an assumption, not a design change"), into buf; ''
 * otherwise.
 */
void cmp_costs_words(const struct cmp *c, const struct cmp_row *r, char *buf, size_t len);
/* Row r's "assumed_costs" object for an est-* row with stored costs; nothing else. */
void cmp_row_costs_json(const struct cmp *c, struct json *j, const struct cmp_row *r);

/* Add a note (shown after the table and in the JSON). */
void cmp_note(struct cmp *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Pair the runs by cell (and machine) and compute every row. Returns 0,
 * -ENOMEM, or -EIO when the store could not be read (message printed). */
int cmp_build_rows(struct cmp *c);

/*
 * Each --metric name is a metric (lib/metrics.h: metric_check): a registry
 * row, or a name some selected run stores. Needs the loaded values
 * (cmp_build_rows). Returns 0, -EINVAL (the first unknown name's error
 * printed) or -ENOMEM.
 */
int cmp_check_metrics(const struct cmp *c);

/*
 * BH over each machine's rows alone (all rows across machines with
 * --cross-machine), then a verdict for each; returns the number of
 * regressions or -1.
 */
int cmp_decide(struct cmp *c);

/* The method and parameters behind row r (or the whole comparison when r is NULL), as JSON. */
void cmp_method_json(const struct cmp *c, const struct cmp_row *r, FILE *f);

/* Write every row to the verdict table in one transaction. Returns 0 or -1 (printed). */
int cmp_store_verdicts(struct cmp *c);

/*
 * The tokens of cell that differ between c's rows (common 0), or those
 * every row shares (common 1), into buf.
 */
void cmp_cell_tokens(const struct cmp *c, const char *cell, int common, char *buf, size_t len);

/* Row r's change in words ("4.40 times slower (95 % CI 4.2-4.6, p 5e-05)") into buf. */
void cmp_change_words(const struct cmp_row *r, char *buf, size_t len);

/*
 * The answer first: "regression: machine A, CELL: METRIC WORDS" for each
 * regression and improvement, then for each machine without a regression
 * "no regression on A; the smallest change each cell could resolve ...".
 */
void cmp_print_headlines(const struct cmp *c, FILE *f);

void cmp_print_human(const struct cmp *c, FILE *f);

struct json;

/*
 * compare/sides.c. The kernel variants of side rs in first-seen order,
 * space-separated into buf ("unknown" for runs without one); with j, also
 * as the JSON array key.
 */
void cmp_side_kernels(const struct runset *rs, char *buf, size_t len, struct json *j, const char *key);

/*
 * Side rs's runs by machine and fingerprint, a line each ("  NAME, kernel
 * K, fingerprint F: LABEL... (N runs)", ": not compared (why)" when the
 * comparison did not pair them), when that says more than the side's
 * line: across kernels, a machine on several fingerprints, or a group not
 * compared. cmp_groups_json: always, as the array "groups".
 */
void cmp_print_groups(const struct cmp *c, const struct runset *rs, FILE *f);
void cmp_groups_json(const struct cmp *c, const struct runset *rs, struct json *j);
void cmp_print_json(const struct cmp *c, FILE *f);
void cmp_print_notes(const struct cmp *c, FILE *f);

/* Free what c holds (not c itself) and close its store. */
void cmp_release(struct cmp *c);

#endif
