/*
 * builtin/backend_cmd.c - `run` and `sim` are one command over two backends
 * (lib/backend.h): parse the backend's rows and the shared output rows,
 * prepare, open the store, run, store, print, and map the outcome to the
 * exit status. Nothing here knows which backend it drives.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin/builtin.h"
#include "lib/backend.h"
#include "lib/log.h"
#include "lib/opt.h"
#include "machine/sysinfo.h"
#include "output/output.h"
#include "store/store.h"
#include "lib/clock.h"

/* Where the shared rows' fields start in the parse block: after the backend's configuration. */
#define OUT_ALIGN 16

#define OUT(x) offsetof(struct out_cfg, x)

/* The rows every backend command shares: where results go and how they print. */
static const struct opt out_rows[] = {
	{ .name = "db", .type = OPT_STR, .off = OUT(db),
	  .metavar = "PATH", .def = STORE_DEFAULT_PATH,
	  .help = "database: an SQLite file, or a postgresql:// URI (SGABENCH_DB when not given)" },
	{ .name = "no-store", .type = OPT_FLAG, .off = OUT(no_store),
	  .help = "do not store the run" },
	{ .name = "label", .type = OPT_STR, .off = OUT(label),
	  .metavar = "TEXT",
	  .help = "tag stored with the run (e.g. nightly-20261203, candidate)" },
	{ .name = "json", .type = OPT_FLAG, .off = OUT(json),
	  .help = "print the result as JSON" },
	{ .name = "csv", .type = OPT_FLAG, .off = OUT(csv),
	  .help = "print the result as CSV" },
	{ .name = "quiet", .type = OPT_FLAG, .off = OUT(quiet),
	  .help = "print nothing but errors (and --json/--csv)" },
	{ NULL },
};

const struct opt *builtin_out_rows(void)
{
	return out_rows;
}

/* Print the result of one run in the format asked for. */
static void print_run(const struct backend_ops *be, const struct out_cfg *o, const struct run_view *v)
{
	if (o->json)
		output_json(stdout, v);
	else if (o->csv)
		output_csv(stdout, v);
	else if (!o->quiet) {
		output_human(stdout, v);
		if (be->footnote)
			printf("%s\n", be->footnote);
	}
}

int backend_cmd(const struct backend_ops *be, int argc, char **argv)
{
	size_t out_off = (be->cfg_size + OUT_ALIGN - 1) / OUT_ALIGN * OUT_ALIGN;
	struct opt tab[3] = {
		{ .type = OPT_ROWS, .rows = be->opts, .off = 0 },
		{ .type = OPT_ROWS, .rows = out_rows, .off = out_off },
		{ NULL },
	};
	char *blk = calloc(1, out_off + sizeof(struct out_cfg));
	struct out_cfg *o = (struct out_cfg *)(void *)(blk ? blk + out_off : NULL);
	struct sysinfo si;
	struct run_result r;
	struct run_meta m = { 0 };
	struct run_view v = { 0 };
	struct backend_names nm = { 0 };
	char err[512] = "";
	struct store *db = NULL;
	void *plan = NULL;
	int64_t run_id = 0;
	double t0 = clock_now_s();
	int ret, run_ret, sret = 0;
	const char *shown = o->db;

	if (!blk)
		die(EX_RESOURCE, "out of memory");
	memset(&r, 0, sizeof(r));
	ret = opt_parse(tab, blk, argc, argv, be->cmd, "[OPTIONS]", NULL, NULL);
	if (ret) {
		ret = ret == OPT_HELP_SHOWN ? EX_OK : ret;
		goto out;
	}
	if (o->json && o->csv) {
		error("%s: --json and --csv exclude each other", be->cmd);
		ret = EX_USAGE;
		goto out;
	}
	sysinfo_collect(&si);
	ret = be->prepare(blk, &si, &plan, err, sizeof(err));
	if (ret) {
		if (ret == BACKEND_DONE) {
			plan = NULL;
			ret = EX_OK;
			goto out;
		}
		error("%s: %s", be->cmd, err);
		if (ret == EX_USAGE)
			hint("see 'sgabench %s --help'", be->cmd);
		goto out;
	}
	/* Open the store first: a bad --db fails before any work is done. */
	if (!o->no_store && (ret = store_open(o->db, &db)) != 0)
		goto out;
	if (db)
		shown = store_path(db);
	ret = be->run(plan, &si, &r, err, sizeof(err));
	if (ret && !r.status[0]) {
		/* Refused before anything ran: nothing to store. */
		error("%s: %s", be->cmd, err);
		if (ret == EX_USAGE)
			hint("see 'sgabench %s --help'", be->cmd);
		goto out;
	}
	if (be->wall_metric) {
		r.wall_s = clock_now_s() - t0;
		if (!strcmp(r.status, "ok"))
			result_set_metric(&r, "wall-s", r.wall_s);
	}
	be->name_run(plan, &r, &m, &nm);
	m.label = o->label;
	run_ret = ret;
	if (db) {
		sret = store_put_run(db, &si, &m, &r, &run_id);
		if (sret && !ret)
			ret = EX_FAIL;
	}
	v.meta = &m;
	v.res = &r;
	v.si = &si;
	v.command = be->cmd;
	v.fingerprint = si.fingerprint;
	v.describe = nm.describe;
	v.groups = nm.groups[0] ? nm.groups : NULL;
	v.run_id = run_id;
	/* Name the database only when the run is in it. */
	v.db = db && !sret ? shown : NULL;
	print_run(be, o, &v);
	if (run_ret)
		error("%s: %s", be->cmd, r.reason[0] ? r.reason : err);
	/* Last, so it is the line a reader sees: what happened to the results. */
	if (sret)
		error("%s: measured and printed above, but not stored in '%s': nothing of this run "
		      "was written (the database error is above)", be->cmd, shown);
out:
	if (plan)
		be->release(plan);
	free(r.win);
	free(r.task);
	store_close(db);
	free(blk);
	return ret;
}
