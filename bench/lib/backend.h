/*
 * backend.h - what `run` (the native backend) and `sim` (the TLB model)
 * have in common, in the style of fio's ioengine ops: a backend brings its
 * option rows and configuration, checks them into a plan, runs the plan
 * into a struct run_result, and names the result (cell key, configuration
 * JSON, run row). builtin/backend_cmd.c does everything around that once:
 * parsing, the store, the output formats and the exit status.
 */
#ifndef SGA_BACKEND_H
#define SGA_BACKEND_H

#include <stddef.h>
#include "lib/opt.h"
#include "lib/result.h"

struct sysinfo;

/* Returned by prepare when it has already done all there is (e.g. `sim --machine list`). */
#define BACKEND_DONE 1000

/* The cell key, configuration JSON and description that name one run. */
struct backend_names {
	char cell[1024];
	char config_json[4096];
	char describe[512];
	char page[16], backing[16], align[16];	/* run row text, "" when not used */
	char groups[512];			/* explicit event groups "{a,b} {c}", "" if none */
};

struct backend_ops {
	const char *name;		/* "native", "model" */
	const char *cmd;		/* the subcommand: "run", "sim" */
	const struct opt *opts;		/* option rows into the configuration */
	size_t cfg_size;		/* bytes of the configuration struct */
	int wall_metric;		/* store the command's wall time as the wall-s metric */

	/*
	 * Check the configuration cfg (filled from opts) on this machine and
	 * build what run needs into *plan. Returns 0, BACKEND_DONE, or an exit
	 * status (EX_USAGE, EX_RESOURCE) with a one-line reason in err. *plan
	 * may be set even on failure; the caller releases a non-NULL plan.
	 */
	int (*prepare)(const void *cfg, const struct sysinfo *si, void **plan, char *err, size_t errlen);

	/*
	 * Run the plan into res (zeroed by the caller). Returns 0, or an exit
	 * status; a run that failed while running sets res->status and
	 * res->reason, so it is stored as failed.
	 */
	int (*run)(void *plan, const struct sysinfo *si, struct run_result *res, char *err, size_t errlen);

	/* Fill m (pointing into nm) and nm for the stored run row and the output. */
	void (*name_run)(const void *plan, const struct run_result *res, struct run_meta *m,
			 struct backend_names *nm);

	/* A line printed after the human output, or NULL. */
	const char *footnote;

	/* Free the plan (NULL is fine). */
	void (*release)(void *plan);
};

#endif
