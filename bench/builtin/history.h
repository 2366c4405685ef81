/*
 * builtin/history.h - what the parts of 'sgabench history' share: its
 * options, the series of one cell on one machine, and the writers
 * (history_print.c) and the kernel order (history_kernel.c).
 */
#ifndef SGA_BUILTIN_HISTORY_H
#define SGA_BUILTIN_HISTORY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "builtin/builtin.h"
#include "stats/stats.h"

struct store;
struct json;

struct hist_opts {
	struct read_cfg io;
	const char *metric, *cell, *machine, *by;
	const char *kernel;	/* --by kernel: only variants matching this GLOB pattern */
	int per_run;
	int by_kernel;		/* --by kernel */
	uint64_t window;
	double pvalue, min_change;
};

struct point {
	char label[96];		/* night label, or run label / uuid prefix */
	char date[32];		/* started_at of the (first) run */
	double value;		/* the run's value, or the median of the night's runs */
	size_t n;		/* runs behind the point */
	size_t missing;		/* runs of the point with no value */
};

struct series {
	char *cell;
	char fp[17];
	char name[64];		/* the machine's name, '' when the runs have none */
	int64_t machine_id;
	int per_night;		/* a point is a group of runs: a night, or with --by kernel a kernel variant */
	int by_kernel;		/* points are kernel variants; the series spans fingerprints */
	size_t fingerprints, variants;	/* --by kernel: of the machine's runs of the cell */
	struct point *pt;
	size_t n, cap;
	double *z;
	struct change_point cp[64];
	int ncp;
	struct pulse pulse[64];	/* --by kernel: one-variant pulses (stats_pulses), points as indices */
	int npulse;
	size_t skipped;		/* runs without a value for the metric */
	double *rv;		/* per night: every run's value, in order */
	size_t *rnight;		/* the point (night) of rv[i] */
	size_t nr, rcap;
};

/* Where history_add_run collects one series. */
struct loading {
	struct series *s;
	double *vals;		/* values of the current night */
	size_t nv, cap;
};

/*
 * Add one run to l's series: a new point, or one more run of the current
 * group (night or kernel) when label is the current point's. Runs with no
 * value are counted, never read as 0. Returns 0 or -ENOMEM.
 */
int history_add_run(void *ctx, const char *label, const char *date, const char *uuid,
		    int has_value, double v);

/* Print series s as a table with its change points and z-scores. */
void history_print_human(const struct hist_opts *o, const struct series *s, FILE *f);

/* Change point i of series s as an object; with_series adds its cell and machine. */
void history_cp_json(struct json *j, const struct series *s, int i, int with_series);

void history_series_json(struct json *j, const struct hist_opts *o, const struct series *s);
void history_method_json(struct json *j, const struct hist_opts *o);

/*
 * --by kernel: the series of each cell on each machine name (across its
 * fingerprints, which differ by kernel), one point per kernel variant in
 * kvariant_cmp's order (lib/kver.h), each the median of its runs; runs
 * with no variant are left out. Returns 0, -ENOMEM or -EIO.
 */
int history_kernel_series(struct store *db, const struct hist_opts *o, struct series **out, size_t *n);
/*
 * "kernels": every kernel variant of the series s[0..n), each once, in
 * kvariant_cmp's order (the columns of one table across cells). Returns 0
 * or -ENOMEM.
 */
int history_kernels_json(struct json *j, const struct series *s, size_t n);

/* Drop the series without a point (--kernel matched none of their runs); returns how many are left. */
size_t history_drop_empty(struct series *s, size_t *n);

int history_kernel_load(struct store *db, const struct hist_opts *o, struct series *s);

/*
 * --by kernel: the variants of s whose runs differ from both neighbours'
 * (stats_pulses at --pvalue and --min-change, STATS_MIN_RUNS runs a
 * variant), into s->pulse. Returns 0 or -ENOMEM.
 */
int history_kernel_pulses(const struct hist_opts *o, struct series *s);

/* A pulse's verdict, in compare's words: regression, improvement, insufficient, or change (no direction). */
const char *history_pulse_verdict(const char *metric, const struct pulse *p);

/* Pulse i of series s as an object; with_series adds its cell and machine. */
void history_pulse_json(struct json *j, const char *metric, const struct series *s, int i, int with_series);

#endif
