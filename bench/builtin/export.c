/*
 * builtin/export.c - sgabench export kcidb [SELECTOR] --origin NAME: the
 * stored runs as a KernelCI KCIDB v5.3 JSON document (output/kcidb.c).
 * Without a selector every run; with one (as compare takes them) the runs
 * it selects, and the failed runs carrying the same labels.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin/builtin.h"
#include "lib/log.h"
#include "lib/opt.h"
#include "output/kcidb.h"
#include "store/select.h"
#include "store/store.h"

struct export_opts {
	struct db_cfg io;
	const char *origin, *output;
};

static const struct opt export_tab[] = {
	{ .name = "origin", .type = OPT_STR, .off = offsetof(struct export_opts, origin),
	  .metavar = "NAME",
	  .help = "the KCIDB origin (CI system name): lower-case letters, digits, _" },
	{ .type = OPT_ROWS, .rows = builtin_db_rows, .off = offsetof(struct export_opts, io) },
	{ .name = "output", .type = OPT_STR, .off = offsetof(struct export_opts, output),
	  .metavar = "FILE", .def = "-",
	  .help = "write the document here instead of standard output" },
	{ NULL },
};

/* Whether run id (label, status) belongs to the selection in ctx (a runset). */
static int selected(void *ctx, int64_t id, const char *label, const char *status)
{
	const struct runset *rs = ctx;

	for (size_t i = 0; i < rs->n; i++) {
		if (rs->run[i].id == id)
			return 1;
		if (strcmp(status, "ok") != 0 && *label && rs->run[i].label &&
		    strcmp(rs->run[i].label, label) == 0)
			return 1;
	}
	return 0;
}

int cmd_export(int argc, char **argv)
{
	struct export_opts o = { 0 };
	struct runset rs = { 0 };
	struct store *s = NULL;
	char *pos[3], why[160];
	int np = 3, ret;
	FILE *f = stdout;

	if (argc > 1 && strcmp(argv[1], "openmetrics") == 0)
		return cmd_export_openmetrics(argc - 1, argv + 1);
	ret = opt_parse(export_tab, &o, argc, argv, "export", "kcidb [SELECTOR] --origin NAME [options]",
			pos, &np);
	if (ret)
		return ret == OPT_HELP_SHOWN ? EX_OK : ret;
	if (np < 1 || strcmp(pos[0], "kcidb") != 0 || np > 2) {
		error("export: %s", np < 1 ? "which format" : np > 2 ? "one selector at most"
		      : "unknown format");
		hint("sgabench export kcidb [SELECTOR] --origin NAME, or export openmetrics [SELECTOR]");
		return EX_USAGE;
	}
	if (!kcidb_origin_ok(o.origin)) {
		error("export: %s", o.origin ? "the origin must match ^[a-z0-9_]+$" : "--origin is required");
		hint("e.g. --origin sgabench_lab");
		return EX_USAGE;
	}
	if (np == 2 && select_check(pos[1], why, sizeof(why))) {
		error("export: bad selector '%s': %s", pos[1], why);
		return EX_USAGE;
	}
	ret = store_open_ro(o.io.db, &s);
	if (ret)
		return ret;
	if (np == 2 && select_runs(s, pos[1], NULL, &rs)) {
		error("export: selecting '%s': %s", pos[1], store_errmsg(s));
		store_close(s);
		return EX_FAIL;
	}
	if (o.output && strcmp(o.output, "-") != 0 && !(f = fopen(o.output, "w"))) {
		error("export: cannot write '%s'", o.output);
		ret = EX_FAIL;
		goto out;
	}
	ret = kcidb_write(s, o.origin, np == 2 ? selected : NULL, &rs, f) ? EX_FAIL : EX_OK;
	if (f != stdout && fclose(f) != 0)
		ret = EX_FAIL;
out:
	runset_free(&rs);
	store_close(s);
	return ret;
}
