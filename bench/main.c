/* main.c - sgabench: dispatch to a subcommand from one table (perf/git style). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
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
	{ "export",    cmd_export,    "stored runs in another format: kcidb, openmetrics" },
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
	fprintf(f, "\n'sgabench COMMAND --help' shows a command's options, 'sgabench help COMMAND'"
		" its manual.\n"
		"exit status: 0 ok, 1 failure or regression, 2 usage error, 3 resource missing\n");
}

static const struct command *find_command(const char *name)
{
	for (const struct command *c = commands; c->name; c++)
		if (strcmp(name, c->name) == 0)
			return c;
	return NULL;
}

/*
 * Find page (e.g. "sgabench-run") beside this binary: in build/doc/man of
 * the checkout it was built in (make doc), or in share/man of the prefix
 * it is installed in (gzipped or not). Writes the path to buf; returns 0
 * or -1.
 */
static int local_page(const char *page, char *buf, size_t len)
{
	static const char sections[] = "157";
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct stat st;
	char *slash;

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	slash[1] = '\0';
	for (const char *s = sections; *s; s++) {
		snprintf(buf, len, "%s../build/doc/man/%s.%c", exe, page, *s);
		if (stat(buf, &st) == 0)
			return 0;
		snprintf(buf, len, "%s../share/man/man%c/%s.%c", exe, *s, page, *s);
		if (stat(buf, &st) == 0)
			return 0;
		/* as a package installs them */
		snprintf(buf, len, "%s../share/man/man%c/%s.%c.gz", exe, *s, page, *s);
		if (stat(buf, &st) == 0)
			return 0;
	}
	return -1;
}

/* The manual pages that are topics, not commands (Documentation/
 * sgabench-TOPIC.adoc; t0930 checks the list against them). */
static const char *const help_topics[] = {
	"bisect", "config", "kernel", "lab", "model", "nightly", "statistics", "sweep", NULL,
};

static int is_topic(const char *name)
{
	for (const char *const *t = help_topics; *t; t++)
		if (strcmp(name, *t) == 0)
			return 1;
	return 0;
}

/*
 * sgabench help NAME: the manual page sgabench-NAME (a command's, or a
 * topic's: config, metrics, model, ...) through man(1) when man is
 * installed and finds it (beside this binary or on its MANPATH); else a
 * command's --help. Returns an exit status; does not return when man runs.
 */
static int help(const char *name)
{
	const struct command *c = find_command(name);
	char page[64], path[4200], cmd[160], topics[256];
	int has_man = system("command -v man >/dev/null 2>&1") == 0;

	if (strspn(name, "abcdefghijklmnopqrstuvwxyz-") != strlen(name) || strlen(name) > 40) {
		error("help: no command or topic '%s'", name);
		return EX_USAGE;
	}
	snprintf(page, sizeof(page), "sgabench-%s", name);
	if (has_man && local_page(page, path, sizeof(path)) == 0) {
		execlp("man", "man", "-l", path, (char *)NULL);
	} else if (has_man) {
		snprintf(cmd, sizeof(cmd), "man -w %s >/dev/null 2>&1", page);
		if (system(cmd) == 0)
			execlp("man", "man", page, (char *)NULL);
	}
	if (c) {
		char *av[] = { (char *)c->name, (char *)"--help", NULL };

		fprintf(stderr, "sgabench: no manual page %s%s here: its --help follows ('make doc' builds the "
			"pages from a checkout)\n", page, has_man ? "" : " (man is not installed)");
		return builtin_exit(c->fn(2, av));
	}
	if (is_topic(name)) {
		if (has_man)
			error("help: the manual page %s is not built here", page);
		else
			error("help: man is not installed, so the manual page %s cannot be shown", page);
		hint("%s; or read Documentation/%s.adoc in a checkout", has_man ?
		     "'make doc' builds the pages from a checkout (Debian's asciidoctor)" :
		     "apt-get install man-db", page);
		return EX_RESOURCE;
	}
	error("help: no command or topic '%s'", name);
	topics[0] = '\0';
	for (const char *const *t = help_topics; *t; t++)
		snprintf(topics + strlen(topics), sizeof(topics) - strlen(topics), "%s%s", *t, t[1] ? ", " : "");
	hint("a topic is one of: %s; 'sgabench --help' lists the commands", topics);
	return EX_USAGE;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EX_USAGE;
	}
	if (strcmp(argv[1], "help") == 0 && argc > 2)
		return help(argv[2]);
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return EX_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		printf("sgabench %s\n", SGA_VERSION);
		return EX_OK;
	}
	if (find_command(argv[1]))
		return builtin_exit(find_command(argv[1])->fn(argc - 1, argv + 1));
	error("unknown command '%s'", argv[1]);
	hint("run 'sgabench --help' for the list of commands");
	return EX_USAGE;
}
