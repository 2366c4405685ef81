/* main.c - sgabench: dispatch to a subcommand from one table (perf/git style). */
#include <stdio.h>
#include <string.h>
#include "builtin/builtin.h"
#include "lib/log.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct command commands[] = {
	{ "run",       cmd_run,       "fork N tasks onto one SGA, count per task, store the run" },
	{ "sim",       cmd_sim,       "run a workload on the software TLB model" },
	{ "table",     cmd_table,     "reproduce the 2016 cover-letter table (native or model)" },
	{ "runs",      cmd_runs,      "list stored runs" },
	{ "show",      cmd_show,      "show one stored run in full" },
	{ "compare",   cmd_compare,   "baseline vs candidate: Mann-Whitney U, bootstrap CI, BH" },
	{ "history",   cmd_history,   "change points of one metric over time" },
	{ "db",        cmd_db,        "database: merge, check, init, schema, query, exec" },
	{ "export",    cmd_export,    "stored runs in another format: kcidb" },
	{ "metrics",   cmd_metrics,   "the run metrics: unit, which way is better, noise, meaning" },
	{ "stats",     cmd_stats,     "medians and A/A noise floors of KEY<TAB>VALUE lines (for the harness)" },
	{ "sysinfo",   cmd_sysinfo,   "what this machine is (TLB geometry, pools, PMU, fingerprint)" },
	{ "workloads", cmd_workloads, "list the access patterns" },
	{ NULL, NULL, NULL },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: sgabench [--version] [--help] COMMAND [ARGS]\n\ncommands:\n");
	for (const struct command *c = commands; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->help);
	fprintf(f, "\n'sgabench COMMAND --help' shows a command's options.\n"
		"exit status: 0 ok, 1 failure or regression, 2 usage error, 3 resource missing\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EX_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return EX_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		printf("sgabench %s\n", SGA_VERSION);
		return EX_OK;
	}
	for (const struct command *c = commands; c->name; c++)
		if (strcmp(argv[1], c->name) == 0)
			return builtin_exit(c->fn(argc - 1, argv + 1));
	error("unknown command '%s'", argv[1]);
	hint("run 'sgabench --help' for the list of commands");
	return EX_USAGE;
}
