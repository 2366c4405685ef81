/*
 * store/query.h - what the builtins and compare ask of the store, by name:
 * run listings, history series, noise floors, verdicts, the check. The
 * SQL behind each lives in bench/store/ and nowhere else.
 */
#ifndef SGA_STORE_QUERY_H
#define SGA_STORE_QUERY_H

#include <stddef.h>
#include <stdint.h>

struct store;

/* One row of 'sgabench runs'. Strings are never NULL (empty when unset). */
struct store_run_row {
	int64_t id;
	const char *uuid, *started_at, *backend, *status, *workload, *page_size, *align,
		*backing, *label, *fingerprint, *reason, *cell;
	const char *machine_name;	/* SGABENCH_MACHINE when it ran ('' unknown) */
	const char *kernel_variant;	/* the kernel it ran on, lib/kver.h ('' unknown) */
	const char *boot_id;	/* the boot it ran in, run.boot_id ('' unknown or a model run) */
	int64_t tasks, rounds;
};

struct store_runs_filter {
	const char *label;	/* SQL LIKE pattern, or NULL */
	const char *backend;	/* SQL LIKE pattern, or NULL */
	int failed;		/* only failed runs */
	uint64_t limit;
	const char *machine;	/* only runs of the machine so named, or NULL */
};

/*
 * Call fn for each run matching f, newest first. fn returns 0 to go on.
 * Returns 0, fn's non-zero return, or -EIO (store_errmsg tells).
 */
int store_list_runs(struct store *s, const struct store_runs_filter *f,
		    int (*fn)(void *ctx, const struct store_run_row *r), void *ctx);

/*
 * Call fn for each name (an event or a run metric: the view run_metric's)
 * that some successful run stores whose cell matches the GLOB cell_glob and
 * whose machine is named machine or whose fingerprint starts with it (NULL:
 * any), once each, in name order. Returns 0, fn's non-zero return, or -EIO.
 */
int store_metric_names(struct store *s, const char *cell_glob, const char *machine,
		       int (*fn)(void *ctx, const char *name), void *ctx);

/*
 * Call fn for each (cell, machine) with successful runs whose cell matches
 * the GLOB cell_glob and whose machine is named machine or whose
 * fingerprint starts with it, ordered by cell, machine name and
 * fingerprint; a machine is a fingerprint and a name (run.machine_name,
 * '' when none); nightly says whether any of the runs has a 'nightly-*'
 * label. Returns 0, fn's non-zero return, or -EIO.
 */
int store_list_series(struct store *s, const char *cell_glob, const char *machine,
		      int (*fn)(void *ctx, const char *cell, int64_t machine_id,
				const char *fp, const char *name, int nightly), void *ctx);

/*
 * Call fn for each successful run of cell on machine_id named name (NULL:
 * any name), with the value of
 * metric (has_value 0 when the run lacks it or it is missing). With
 * per_night, only 'nightly-*' runs, ordered by the night (its first run),
 * then label; otherwise every run in time order. label may be NULL.
 * Returns 0, fn's non-zero return, or -EIO.
 */
int store_series_points(struct store *s, const char *metric, const char *cell,
			int64_t machine_id, const char *name, int per_night,
			int (*fn)(void *ctx, const char *label, const char *date, const char *uuid,
				  int has_value, double value), void *ctx);

/*
 * A run's kernel variant as history and compare read it: run.kernel_variant,
 * else (a run stored before schema 5) V of its label 'kernel:V', else NULL.
 * The recorded variant comes first so that labels are free to name
 * sessions (boots) of one kernel. SQL over run r.
 */
#define STORE_RUN_KERNEL \
	"COALESCE(r.kernel_variant, CASE WHEN r.label GLOB 'kernel:?*' THEN substr(r.label, 8) END)"

/*
 * Call fn for each (cell, machine name) with successful runs of a known
 * kernel variant (STORE_RUN_KERNEL) whose cell matches the GLOB cell_glob
 * and whose machine is named machine (NULL: any), ordered by cell and
 * name, with the number of fingerprints and of variants among them.
 * Returns 0, fn's non-zero return, or -EIO.
 */
int store_list_kernel_series(struct store *s, const char *cell_glob, const char *machine,
			     int (*fn)(void *ctx, const char *cell, const char *name,
				       int64_t fingerprints, int64_t variants), void *ctx);

/*
 * Call fn for each successful run of cell on the machine named name with
 * a known kernel variant, in no particular order (the caller orders the
 * variants, lib/kver.h), with the value of metric as store_series_points.
 * Returns 0, fn's non-zero return, or -EIO.
 */
int store_kernel_points(struct store *s, const char *metric, const char *cell, const char *name,
			int (*fn)(void *ctx, const char *variant, const char *date, const char *uuid,
				  int has_value, double value), void *ctx);

/* One run as the KCIDB export sees it: its machine and kernel. Never NULL. */
struct store_export_row {
	int64_t id;
	const char *uuid, *status, *label, *started_at, *fingerprint, *arch, *kernel, *machine_json;
	const char *machine_name;	/* SGABENCH_MACHINE when it ran; "" when unknown */
};

/*
 * Call fn for every run (ok and failed) ordered by kernel, fingerprint,
 * machine name and start time, so that the runs of one machine on one
 * kernel are adjacent. Returns 0, fn's non-zero return, or -EIO.
 */
int store_list_export(struct store *s, int (*fn)(void *ctx, const struct store_export_row *r),
		      void *ctx);

/* The fingerprint of machine id into buf ("" when unknown). Returns buf. */
char *store_machine_fingerprint(struct store *s, int64_t id, char *buf, size_t len);

/* One verdict of 'compare --store-verdicts'; a NAN number is stored as NULL. */
struct store_verdict {
	const char *baseline, *candidate, *cell, *metric;
	int64_t machine_id;	/* -1: cross-machine, stored as NULL */
	int64_t n_base, n_cand;
	double ratio, ci_lo, ci_hi, p_value, q_value;
	const char *verdict, *method, *reason;
	double noise_floor;	/* the cell's A/A floor used; NAN: none (stored as NULL) */
	double mde;		/* minimum detectable effect; NAN or inf: none (NULL) */
	const char *machine_name;	/* the machine judged (schema 4); NULL across machines */
};

/* Store n verdicts, created now, in one transaction. Returns 0 or -EIO (printed). */
int store_put_verdicts(struct store *s, const struct store_verdict *v, size_t n);

/* What 'db check' reports. */
/* How store_check's integrity starts when nothing could be checked (a
 * PostgreSQL database without amcheck, or a role that may not run it). */
#define STORE_INTEGRITY_UNCHECKED "not checked on PostgreSQL"

struct store_check {
	int schema_version;
	char integrity[256];	/* "ok", or the first problem */
	int64_t fk_problems;
	int64_t failed_runs;
	int64_t rows[16];	/* per table of store_tables[], in that order */
	int text_bytes;		/* 1: text sorts byte by byte, as SQLite's; 0: otherwise (a
				 * server's collation); -1: not known */
	char collation[64];	/* SQLite: "binary"; PostgreSQL: the database's datcollate */
};

/*
 * Whether every table of s has exactly the columns columns.h describes, by
 * name and in order. Returns 1 when it does, 0 with the first difference
 * in why, -EIO on a database error.
 */
int store_columns_match(struct store *s, char *why, size_t len);

/* Fill c for s. Returns 0, or -EIO. */
int store_check(struct store *s, struct store_check *c);

#endif
