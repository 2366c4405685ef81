/*
 * table_native.h - one row of the cover-letter table measured natively, by
 * running this very binary's `sgabench run` in a child and reading the
 * dTLB-load-misses total from its CSV. Used by `sgabench table` where the
 * machine can count dTLB misses.
 */
#ifndef SGA_TABLE_NATIVE_H
#define SGA_TABLE_NATIVE_H

#include <stddef.h>
#include <stdint.h>

struct native_row {
	const char *page;	/* run --page-size, e.g. "8m" (sparc64) or "2m" */
	const char *place;	/* run --place: "smt", or "same-cpu" without SMT */
	const char *ws;		/* --working-set, e.g. "552m" */
	const char *sga;	/* --sga-size */
	uint64_t rounds;
	int sharedctx;
	const char *db;		/* --db, or NULL for --no-store */
	const char *label;
};

/*
 * Run the row. On success *misses is the total over both tasks and 0 is
 * returned. Otherwise *misses is NAN, why says what happened (the child's
 * first error line, or the missing reason of the event) and the return is
 * the child's exit status (3 when the event could not be counted), or -1
 * when the child could not be started.
 */
int native_row_run(const struct native_row *nr, double *misses, char *why, size_t whylen);

#endif
