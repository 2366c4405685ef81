/* builtin.h - one function per subcommand, one file each (bench/builtin/). */
#ifndef SGA_BUILTIN_H
#define SGA_BUILTIN_H

#include <stdint.h>
#include "lib/backend.h"
#include "lib/opt.h"
#include "lib/result.h"

struct store;
struct sysinfo;

/* Each takes the subcommand's own argv (argv[0] is its name) and returns an exit status (log.h). */
int cmd_run(int argc, char **argv);
int cmd_sysinfo(int argc, char **argv);
int cmd_runs(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_workloads(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_db(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_metrics(int argc, char **argv);
int cmd_export_openmetrics(int argc, char **argv);	/* export openmetrics (export.c dispatches) */

/*
 * The exit status (README "Exit status") for ret, a command's or a library
 * function's return: 0 and OPT_HELP_SHOWN are 0; -EINVAL, -ERANGE and the
 * like (a request that cannot be) are 2; -ENOMEM, -ENOENT, -ENODEV,
 * -EACCES, -EOPNOTSUPP, -EPROTONOSUPPORT, -EADDRINUSE and the like (something this
 * machine lacks) are 3; any other -errno is 1; a positive ret is already
 * an exit status and is returned as it is.
 */
int builtin_exit(int ret);

/* The --db row (builtin_db_rows) of a command that opens the store. */
struct db_cfg {
	const char *db;
};

/* The --db and --json rows (builtin_read_rows) of a command that reads the store. */
struct read_cfg {
	const char *db;		/* filled by the --db row of builtin_db_rows */
	int json;
};

extern const struct opt builtin_db_rows[];
extern const struct opt builtin_read_rows[];

/* Where a backend command's results go and how they print (the shared rows). */
struct out_cfg {
	const char *db;
	int no_store;
	const char *label;
	int json;
	int csv;
	int quiet;
	int verbose;
	int cell_keys;
};

/*
 * Parse argv for backend be plus the shared rows, prepare, run, store and
 * print one run; returns the exit status (backend_cmd.c).
 */
int backend_cmd(const struct backend_ops *be, int argc, char **argv);

/* One run of a prepared plan and what became of it (backend_run_plan). */
struct backend_run {
	const char *label;		/* in: stored with the run, or NULL */
	double t0;			/* in: when the command started (clock_now_s), for wall-s */
	struct run_result r;		/* out: the result (backend_run_free frees it) */
	struct run_meta m;		/* out: the run row, pointing into nm */
	struct backend_names nm;	/* out: cell, configuration JSON, description */
	int64_t run_id;			/* out: the stored run's id, 0 when not stored */
	int run_ret;			/* out: what be->run returned */
	int store_ret;			/* out: store_put_run's return, 0 when not stored */
	char err[512];			/* out: why be->run refused or failed */
};

/*
 * Run the prepared plan of be on machine si, name the result, and store it
 * in db when db is not NULL: the part of `run` and `sim` between parsing and
 * printing, shared with `table`'s native rows. br->label and br->t0 are
 * read; everything else in br is written. Returns 0 when the run succeeded
 * and (if asked) was stored; the backend's exit status when it refused to
 * run (then br->r.status is "" and nothing was stored) or failed while
 * running (stored as failed); EX_FAIL when only the store failed. Prints
 * nothing. Free br with backend_run_free, whatever the return.
 */
int backend_run_plan(const struct backend_ops *be, void *plan, const struct sysinfo *si,
		     struct store *db, struct backend_run *br);

/*
 * Release be's plan (when not NULL) and br (allocated with malloc, may be
 * NULL) with the result arrays backend_run_plan allocated in it.
 */
void backend_run_free(const struct backend_ops *be, void *plan, struct backend_run *br);

#endif
