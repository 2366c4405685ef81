/*
 * table_native.h - one row of the cover-letter table measured natively: the
 * native backend (native/backend.h) run in this process on the row's
 * options, as `sgabench run` would run them, and the dTLB-load-misses total
 * taken from the result. Used by `sgabench table` where the machine can
 * count dTLB misses.
 */
#ifndef SGA_TABLE_NATIVE_H
#define SGA_TABLE_NATIVE_H

#include <stddef.h>
#include <stdint.h>

struct store;
struct sysinfo;

struct native_row {
	const char *page;	/* run --page-size, e.g. "8m" (sparc64) or "2m" */
	const char *place;	/* run --place: "smt", or "same-cpu" without SMT */
	const char *ws;		/* --working-set, e.g. "552m" */
	const char *sga;	/* --sga-size */
	uint64_t rounds;
	int sharedctx;
	struct store *db;	/* store the run here, or NULL */
	const char *label;
};

/*
 * Run the row on machine si. On success *misses is the total over both
 * tasks and 0 is returned. Otherwise *misses is NAN, why says what happened
 * (the backend's reason, or the missing reason of the event) and the
 * return is an exit status: 3 when the event could not be counted, else
 * what `sgabench run` would have exited with.
 */
int native_row_run(const struct native_row *nr, const struct sysinfo *si, double *misses,
		   char *why, size_t whylen);

#endif
