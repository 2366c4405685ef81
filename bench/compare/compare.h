/*
 * compare/compare.h - the state of one 'sgabench compare' and the steps that
 * builtin/compare.c runs in order: build the rows (one per cell x metric with
 * runs on both sides), decide (BH, then stats_decide), print, store.
 */
#ifndef SGA_STATS_COMPARE_H
#define SGA_STATS_COMPARE_H

#include <stdio.h>
#include "store/select.h"
#include "stats/stats.h"

struct store;

#define CMP_MAX_LIST 64

/* One cell x metric. */
struct cmp_row {
	const char *cell;	/* points into the candidate runset */
	int64_t machine_id;	/* -1 when cross-machine */
	const char *metric;	/* points into the run values */
	int higher_better;
	size_t nb, nc;		/* runs with a value */
	size_t nullb, nullc;	/* runs skipped: metric missing (NULL) or absent */
	size_t outb, outc;	/* outliers flagged (kept) */
	double medb, medc;
	struct ratio_ci ci;
	struct mwu mwu;
	double q;		/* Benjamini-Hochberg */
	double floor;		/* A/A noise floor from the noise table, NAN if none */
	double cv;		/* robust relative noise of the runs (stats_robust_cv) */
	double mde;		/* minimum detectable effect: max(bound, stats_mde), INFINITY if none */
	enum verdict v;
	char why[96];
};

struct cmp {
	/* options (builtin/compare.c's table fills these) */
	const char *baseline, *candidate, *db, *metrics, *cell, *hb_last;
	int json, store, cross;
	struct decide_params dp;
	char *hb[CMP_MAX_LIST];
	size_t nhb;
	char *metric[CMP_MAX_LIST];
	size_t nmetric;
	/* state */
	struct store *db_handle;
	struct runset base, cand;
	struct run_values *bv, *cv;	/* values of base.run[i], cand.run[i] */
	size_t overlap;			/* baseline runs dropped: also in the candidate */
	struct cmp_row *rows;
	size_t nrows;
	char **notes;
	size_t nnotes;
	const char *nv_metric[CMP_MAX_LIST];	/* metrics with no value in any run of a cell */
	const char *nv_why[CMP_MAX_LIST];
	size_t nv_cells[CMP_MAX_LIST], nnv;
	int count[4];			/* rows per enum verdict */
};

/* Split a comma list into at most max fresh strings; returns how many. */
size_t cmp_split_list(const char *list, char **out, size_t max);

/* Whether higher is better for metric: --higher-better, else names ending "-per-s". */
int cmp_higher_better(const struct cmp *c, const char *metric);

/* Add a note (shown after the table and in the JSON). */
void cmp_note(struct cmp *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Pair the runs by cell (and machine) and compute every row. Returns 0 or an exit status. */
int cmp_build_rows(struct cmp *c);

/* BH over all rows, then a verdict for each; returns the number of regressions or -1. */
int cmp_decide(struct cmp *c);

/* The method and parameters behind row r (or the whole comparison when r is NULL), as JSON. */
void cmp_method_json(const struct cmp *c, const struct cmp_row *r, FILE *f);

/* Write every row to the verdict table in one transaction. Returns 0 or -1 (printed). */
int cmp_store_verdicts(struct cmp *c);

void cmp_print_human(const struct cmp *c, FILE *f);
void cmp_print_json(const struct cmp *c, FILE *f);
void cmp_print_notes(const struct cmp *c, FILE *f);

void cmp_free(struct cmp *c);

#endif
