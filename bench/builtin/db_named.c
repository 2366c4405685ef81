/*
 * builtin/db_named.c - the 'db' subcommands through which the shell
 * harness and the report use a database without speaking SQL:
 *
 *   db query [--db PATH] [--json] NAME [ARG...]   a named query: TSV or JSON rows
 *   db exec  [--db PATH] NAME [ARG...]            a named write, one transaction
 *   db exec  [--db PATH] --stdin                  lines "NAME<TAB>ARG...", one transaction
 *   db init  [--db PATH]                          create and migrate a database
 *   db schema [--json]                            the tables and columns this build knows
 *
 * 'db query --list' lists every named statement with its arguments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin/builtin.h"
#include "builtin/db_named.h"
#include "lib/json.h"
#include "lib/log.h"
#include "lib/opt.h"
#include "store/columns.h"
#include "store/merge.h"
#include "store/named.h"
#include "store/store.h"
#include "machine/sysinfo.h"
#include "output/envelope.h"

#define MAX_ARGS 32

struct named_opts {
	struct read_cfg io;
	int list, stdin_rows;
};

static const struct opt named_tab[] = {
	{ .type = OPT_ROWS, .rows = builtin_read_rows, .off = offsetof(struct named_opts, io) },
	{ .name = "list", .type = OPT_FLAG, .off = offsetof(struct named_opts, list),
	  .help = "list the named statements and their arguments" },
	{ .name = "stdin", .type = OPT_FLAG, .off = offsetof(struct named_opts, stdin_rows),
	  .help = "exec: read 'NAME<TAB>ARG...' lines from standard input" },
	{ NULL },
};

/* Print the named statements of one kind (write or not). */
static void list_named(int write)
{
	for (const struct named_stmt *n = store_named; n->name; n++)
		if (n->write == write)
			printf("%-22s %-40s %s\n", n->name, n->args, n->help);
}

/* The statement name of the kind wanted, with nargs arguments; NULL after an error. */
static const struct named_stmt *pick(const char *cmd, const char *name, int write, int nargs)
{
	const struct named_stmt *n = store_named_find(name);

	if (!n || n->write != write) {
		error("db %s: no %s called '%s'", cmd, write ? "named write" : "named query", name);
		hint("sgabench db %s --list", cmd);
		return NULL;
	}
	if (nargs != n->nargs) {
		error("db %s: '%s' takes %d argument%s (%s), not %d", cmd, name, n->nargs,
		      n->nargs == 1 ? "" : "s", n->args, nargs);
		return NULL;
	}
	return n;
}

int db_query(int argc, char **argv)
{
	struct named_opts o = { 0 };
	char *pos[MAX_ARGS + 1];
	const struct named_stmt *q;
	struct store *s;
	int np = MAX_ARGS + 1, ret;

	ret = opt_parse(named_tab, &o, argc, argv, "db query", "[--db PATH] [--json] NAME [ARG...]",
			pos, &np);
	if (ret)
		return ret == OPT_HELP_SHOWN ? EX_OK : ret;
	if (o.list) {
		list_named(0);
		return EX_OK;
	}
	if (np < 1) {
		error("db query: which query");
		hint("sgabench db query --list");
		return EX_USAGE;
	}
	q = pick("query", pos[0], 0, np - 1);
	if (!q)
		return EX_USAGE;
	ret = store_open_ro(o.io.db, &s);
	if (ret)
		return ret;
	ret = store_named_query(s, q, pos + 1, o.io.json, stdout) ? EX_FAIL : EX_OK;
	store_close(s);
	return ret;
}

/* Split line (its newline removed) at tabs into args; returns how many. */
static int split_tabs(char *line, char **args, int max)
{
	int n = 0;

	line[strcspn(line, "\n")] = '\0';
	args[n++] = line;
	for (char *p = line; (p = strchr(p, '\t')) && n < max; p++) {
		*p = '\0';
		args[n++] = p + 1;
	}
	return n;
}

/* Run every "NAME<TAB>ARG..." line of standard input; 0 or an exit status. */
static int exec_stdin(struct store *s, long *changes)
{
	char *line = NULL, *args[MAX_ARGS + 1];
	size_t cap = 0;
	int ret = 0, lineno = 0;

	while (!ret && getline(&line, &cap, stdin) > 0) {
		const struct named_stmt *w;
		int n;

		lineno++;
		if (line[0] == '\n')
			continue;
		n = split_tabs(line, args, MAX_ARGS + 1);
		w = pick("exec", args[0], 1, n - 1);
		if (!w) {
			error("db exec: standard input line %d", lineno);
			ret = EX_USAGE;
		} else if (store_named_exec(s, w, args + 1, changes)) {
			ret = EX_FAIL;
		}
	}
	free(line);
	return ret;
}

int db_exec(int argc, char **argv)
{
	struct named_opts o = { 0 };
	char *pos[MAX_ARGS + 1];
	const struct named_stmt *w = NULL;
	struct store *s;
	long changes = 0;
	int np = MAX_ARGS + 1, ret;

	ret = opt_parse(named_tab, &o, argc, argv, "db exec", "[--db PATH] NAME [ARG...] | --stdin",
			pos, &np);
	if (ret)
		return ret == OPT_HELP_SHOWN ? EX_OK : ret;
	if (o.list) {
		list_named(1);
		return EX_OK;
	}
	if (o.stdin_rows == (np > 0)) {
		error("db exec: %s", np ? "give a statement or --stdin, not both" : "which statement");
		hint("sgabench db exec --list");
		return EX_USAGE;
	}
	if (np > 0 && !(w = pick("exec", pos[0], 1, np - 1)))
		return EX_USAGE;
	ret = store_open(o.io.db, &s);
	if (ret)
		return ret;
	ret = store_begin(s) ? EX_FAIL : 0;
	if (!ret)
		ret = w ? (store_named_exec(s, w, pos + 1, &changes) ? EX_FAIL : 0)
			: exec_stdin(s, &changes);
	if (ret)
		store_rollback(s);
	else if (store_commit(s))
		ret = EX_FAIL;
	if (ret)
		error("db exec: nothing written to '%s'", store_path(s));
	store_close(s);
	return ret;
}

int db_init(int argc, char **argv)
{
	struct named_opts o = { 0 };
	struct store *s;
	int ret;

	ret = opt_parse(named_tab, &o, argc, argv, "db init", "[--db PATH]", NULL, NULL);
	if (ret)
		return ret == OPT_HELP_SHOWN ? EX_OK : ret;
	ret = store_open(o.io.db, &s);
	if (ret)
		return ret;
	store_close(s);
	return EX_OK;
}

int db_schema(int argc, char **argv)
{
	struct named_opts o = { 0 };
	static const char *const flag[] = { "rowid", "key", "machine", "run", "newer" };
	struct json j;
	struct sysinfo si;
	int ret;

	ret = opt_parse(named_tab, &o, argc, argv, "db schema", "[--json]", NULL, NULL);
	if (ret)
		return ret == OPT_HELP_SHOWN ? EX_OK : ret;
	if (o.io.json) {
		json_init(&j, stdout, 1);
		json_obj_open(&j, NULL);
		sysinfo_collect(&si);
		envelope_json(&j, &si, "db schema");
		json_arr_open(&j, "tables");
	}
	for (const struct store_table *t = store_tables; t->name; t++) {
		if (o.io.json) {
			json_obj_open(&j, NULL);
			json_str(&j, "name", t->name);
			json_arr_open(&j, "columns");
		}
		for (int i = 0; i < t->ncol; i++) {
			const struct store_column *c = &t->col[i];
			char flags[64] = "";

			for (int f = 0; f < 5; f++)
				if (c->flags & (1u << f))
					snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags),
						 "%s%s", *flags ? "," : "", flag[f]);
			if (!o.io.json) {
				printf("%s\t%s\t%s\t%s\n", t->name, c->name, store_col_type_name(c->type),
				       flags);
				continue;
			}
			json_obj_open(&j, NULL);
			json_str(&j, "name", c->name);
			json_str(&j, "type", store_col_type_name(c->type));
			json_str(&j, "flags", flags);
			json_obj_close(&j);
		}
		if (o.io.json) {
			json_arr_close(&j);
			json_obj_close(&j);
		}
	}
	if (o.io.json) {
		json_arr_close(&j);
		json_obj_close(&j);
		json_end(&j);
	}
	return EX_OK;
}
