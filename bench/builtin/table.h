/*
 * table.h - `sgabench table` (table.c): its settings, the rows of the 2016
 * cover-letter table, and the model's columns (table_model.c).
 */
#ifndef SGA_TABLE_H
#define SGA_TABLE_H

#include <stdint.h>
#include "model/simrun.h"

#define NROWS 7

/* The rounds of the table's rows: 1 to 1,000,000. */
extern const uint64_t table_rounds[NROWS];

/* --backend, in the order of its choices */
enum table_backend { TABLE_AUTO, TABLE_NATIVE, TABLE_MODEL };
#define TABLE_BACKEND_CHOICES "auto|native|model"

/* --jitter not given: 4096, or 0 with --timing (its issue order is the timing's) */
#define TABLE_JITTER_UNSET UINT64_MAX
#define TABLE_JITTER_DEFAULT 4096

struct table_cfg {
	int backend;		/* enum table_backend */
	int native_normal;	/* try the native normal column even where no PMU is seen */
	int json;
	const char *export_json;	/* --export-json FILE: the JSON there, the table on stdout; or NULL */
	const char *db;
	int no_store;
	uint64_t ws;
	uint64_t jitter;	/* TABLE_JITTER_UNSET until resolved */
	int jitter_given;	/* --jitter was given (the native backend refuses it) */
	uint64_t startup;
	uint64_t seed;
	uint64_t seeds;		/* model: each cell the median over seeds seed..seed+seeds-1 */
	const char *label;
	/* --walk-cycles and the timed engine's options (model_timing_opts),
	 * set on every cell's run */
	struct sim_cfg sim;
};

/* What the timed engine gave one cell (seed tc->seed): NAN when not timed. */
struct table_timing {
	double cycles, stall_cycles, ticks, tick_accesses, tick_misses, tick_walks, merged;
};

struct store;
struct sysinfo;

/*
 * Both model columns: each cell the median over seeds tc->seed ..
 * tc->seed + tc->seeds - 1 of dTLB-load-misses. Stores every run in db
 * (when not NULL); fills the lowest and highest per-seed slope, and
 * tim[row][0] (normal), tim[row][1] (shared) at seed tc->seed. Returns
 * EX_OK or EX_FAIL (reported).
 */
int table_model_rows(const struct table_cfg *tc, const struct sysinfo *si, struct store *db,
		     double *normal, double *shared, double *slope_min, double *slope_max,
		     struct table_timing tim[][2]);

/* Whether the model can run the table's cells as tc sets them (the
 * first cell prepared as sim would): 0, or -EINVAL etc. with the reason
 * in err. */
int table_model_check(const struct table_cfg *tc, const struct sysinfo *si, char *err, size_t errlen);

/* The slope of a normal column: misses per round from the first to the last row. */
double table_slope(const double *normal);

#endif
