/* builtin.h - one function per subcommand, one file each (bench/builtin/). */
#ifndef SGA_BUILTIN_H
#define SGA_BUILTIN_H

#include "lib/opt.h"

struct backend_ops;

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

/* Where a backend command's results go and how they print (the shared rows). */
struct out_cfg {
	const char *db;
	int no_store;
	const char *label;
	int json;
	int csv;
	int quiet;
};

/* The shared rows: --db, --no-store, --label, --json, --csv, --quiet. */
const struct opt *builtin_out_rows(void);

/*
 * Parse argv for backend be plus the shared rows, prepare, run, store and
 * print one run; returns the exit status (backend_cmd.c).
 */
int backend_cmd(const struct backend_ops *be, int argc, char **argv);

#endif
