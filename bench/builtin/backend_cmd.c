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
	{ .type = OPT_ROWS, .rows = builtin_db_rows, .off = OUT(db) },
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
	{ .name = "verbose", .type = OPT_FLAG, .off = OUT(verbose),
	  .help = "also say on stderr how the run was set up (native: the SGA's address)" },
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

int backend_run_plan(const struct backend_ops *be, void *plan, const struct sysinfo *si,
		     struct store *db, struct backend_run *br)
{
	const char *label = br->label;
	double t0 = br->t0;
	int ret;

	memset(br, 0, sizeof(*br));
	br->label = label;
	br->t0 = t0;
	ret = br->run_ret = be->run(plan, si, &br->r, br->err, sizeof(br->err));
	if (ret && !br->r.status[0])
		return ret;	/* refused before anything ran: nothing to store */
	if (be->wall_metric) {
		br->r.wall_s = clock_now_s() - t0;
		if (!strcmp(br->r.status, "ok"))
			result_set_metric(&br->r, "wall-s", br->r.wall_s);
	}
	be->name_run(plan, &br->r, &br->m, &br->nm);
	br->m.label = label;
	if (db) {
		br->store_ret = store_put_run(db, si, &br->m, &br->r, &br->run_id);
		if (br->store_ret && !ret)
			ret = EX_FAIL;
	}
	return ret;
}

void backend_run_free(const struct backend_ops *be, void *plan, struct backend_run *br)
{
	if (plan)
		be->release(plan);
	if (br) {
		free(br->r.win);
		free(br->r.task);
	}
	free(br);
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
	struct backend_run *br = calloc(1, sizeof(*br));
	struct sysinfo si;
	struct run_view v = { 0 };
	char err[512] = "";
	struct store *db = NULL;
	void *plan = NULL;
	double t0 = clock_now_s();
	int ret;
	const char *shown;

	if (!blk || !br)
		die(EX_RESOURCE, "out of memory");
	ret = opt_parse(tab, blk, argc, argv, be->cmd, "[OPTIONS]", NULL, NULL);
	if (ret) {
		ret = builtin_exit(ret);
		goto out;
	}
	if (o->json && o->csv) {
		error("%s: --json and --csv exclude each other", be->cmd);
		ret = EX_USAGE;
		goto out;
	}
	/* --quiet: nothing but errors on stderr either (no warnings, no
	 * automatic progress lines) */
	if (o->quiet && o->verbose) {
		error("%s: --quiet and --verbose exclude each other", be->cmd);
		ret = EX_USAGE;
		goto out;
	}
	if (o->quiet)
		log_verbosity = 0;
	if (o->verbose)
		log_verbosity = 2;
	sysinfo_collect(&si);
	ret = be->prepare(blk, &si, &plan, err, sizeof(err));
	if (ret) {
		if (ret == BACKEND_DONE) {
			plan = NULL;
			ret = EX_OK;
			goto out;
		}
		ret = builtin_exit(ret);
		error("%s: %s", be->cmd, err);
		if (ret == EX_USAGE)
			hint("see 'sgabench %s --help'", be->cmd);
		goto out;
	}
	/* Open the store first: a bad --db fails before any work is done. */
	if (!o->no_store && (ret = store_open(o->db, &db)) != 0)
		goto out;
	shown = db ? store_path(db) : o->db;
	br->label = o->label;
	br->t0 = t0;
	ret = builtin_exit(backend_run_plan(be, plan, &si, db, br));
	if (ret && !br->r.status[0]) {
		error("%s: %s", be->cmd, br->err);
		if (ret == EX_USAGE)
			hint("see 'sgabench %s --help'", be->cmd);
		goto out;
	}
	v.meta = &br->m;
	v.res = &br->r;
	v.si = &si;
	v.command = be->cmd;
	v.fingerprint = si.fingerprint;
	v.machine_name = si.machine_name;
	v.describe = br->nm.describe;
	v.groups = br->nm.groups[0] ? br->nm.groups : NULL;
	v.run_id = br->run_id;
	/* Name the database only when the run is in it. */
	v.db = db && !br->store_ret ? shown : NULL;
	print_run(be, o, &v);
	if (br->run_ret)
		error("%s: %s", be->cmd, br->r.reason[0] ? br->r.reason : br->err);
	/* Last, so it is the line a reader sees: what happened to the results. */
	if (br->store_ret)
		error("%s: measured and printed above, but not stored in '%s': nothing of this run "
		      "was written (the database error is above)", be->cmd, shown);
out:
	backend_run_free(be, plan, br);
	store_close(db);
	free(blk);
	return ret;
}
