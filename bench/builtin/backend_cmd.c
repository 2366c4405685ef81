/*
 * builtin/backend_cmd.c - `run` and `sim` are one command over two backends
 * (lib/backend.h): parse the backend's rows and the shared output rows,
 * prepare, open the store, run, store, print, and map the outcome to the
 * exit status. Nothing here knows which backend it drives.
 */
#include <signal.h>
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
	{ .name = "cell-keys", .type = OPT_FLAG, .off = OUT(cell_keys),
	  .help = "print OPTION<TAB>KEY for each option that changes the result: its word in the cell; run nothing" },
	{ NULL },
};

/* The database this command created, while a signal may end the process before it holds a run. */
static struct store *volatile fresh_db;

/* The signals that end a run early: the user's Ctrl-C, a kill, a closed terminal. */
static const int end_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NEND (sizeof(end_signals) / sizeof(end_signals[0]))

/*
 * A signal ends the command: remove the database it created (if nothing is
 * stored in it yet), then die of the signal, so the shell sees 128 + its
 * number (130 for SIGINT) and a calling script stops as well.
 */
static void on_end_signal(int sig)
{
	store_remove_created(fresh_db);
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * Catch the end signals for the rest of the command, their old handlers
 * into old; db (NULL for none) is the database this command created, to
 * remove if one comes before a run is stored in it. SIGHUP ignored on
 * entry (nohup) stays ignored; SIGINT and SIGTERM are caught even when
 * ignored, as the native run's are, so that a script can stop a run it put
 * in the background, whether the database is new or not. The native
 * backend sets its own handlers for the run and puts these back after it.
 */
static void watch_end_signals(struct store *db, struct sigaction *old)
{
	struct sigaction sa = { .sa_handler = on_end_signal };

	sigemptyset(&sa.sa_mask);
	fresh_db = db;
	for (size_t i = 0; i < NEND; i++) {
		sigaction(end_signals[i], NULL, &old[i]);
		if (end_signals[i] != SIGHUP || old[i].sa_handler != SIG_IGN)
			sigaction(end_signals[i], &sa, NULL);
	}
}

/* Block the end signals into *old (a write must not be cut between its commit and its record). */
static void block_end_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < NEND; i++)
		sigaddset(&set, end_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/*
 * Close db (NULL is fine), removing it if this command created it and
 * stored nothing in it (a refused or failed run), and put back the
 * handlers watch_end_signals replaced (old NULL: none). A signal that comes
 * meanwhile waits for the old handler.
 */
static void close_db(struct store *db, const struct sigaction *old)
{
	sigset_t mask;

	block_end_signals(&mask);
	if (store_close_unused(db))
		info(2, "removed the database this command created: nothing was stored in it");
	fresh_db = NULL;
	for (size_t i = 0; old && i < NEND; i++)
		sigaction(end_signals[i], &old[i], NULL);
	sigprocmask(SIG_SETMASK, &mask, NULL);
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
			result_set_metric(&br->r, MET_WALL_S, br->r.wall_s);
	}
	be->name_run(plan, &br->r, &br->m, &br->nm);
	br->m.label = label;
	if (db) {
		sigset_t mask;

		block_end_signals(&mask);
		br->store_ret = store_put_run(db, si, &br->m, &br->r, &br->run_id);
		sigprocmask(SIG_SETMASK, &mask, NULL);
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

/*
 * Check the output options of o against each other and set the log level
 * from them. Returns 0 or EX_USAGE after saying why.
 */
static int out_check(const struct backend_ops *be, const struct out_cfg *o)
{
	if (o->json && o->csv) {
		error("%s: --json and --csv exclude each other", be->cmd);
		return EX_USAGE;
	}
	/* --quiet: nothing but errors on stderr either (no warnings, no
	 * automatic progress lines) */
	if (o->quiet && o->verbose) {
		error("%s: --quiet and --verbose exclude each other", be->cmd);
		return EX_USAGE;
	}
	if (o->quiet)
		log_verbosity = 0;
	if (o->verbose)
		log_verbosity = 2;
	return 0;
}

/* Print the run br has done (its outcome in br) as o asks, and say what
 * went wrong after the output: the run's failure, a result not stored. */
static void report_run(const struct backend_ops *be, const struct out_cfg *o, const struct sysinfo *si,
		       struct store *db, const char *shown, struct backend_run *br)
{
	struct run_view v = {
		.meta = &br->m, .res = &br->r, .si = si, .command = be->cmd,
		.fingerprint = si->fingerprint, .machine_name = si->machine_name,
		.kernel_variant = si->kernel_variant[0] ? si->kernel_variant : NULL, .describe = br->nm.describe,
		.groups = br->nm.groups[0] ? br->nm.groups : NULL, .run_id = br->run_id,
		/* Name the database only when the run is in it. */
		.db = db && !br->store_ret ? shown : NULL,
	};

	print_run(be, o, &v);
	if (br->run_ret)
		error("%s: %s", be->cmd, br->r.reason[0] ? br->r.reason : br->err);
	/* Last, so it is the line a reader sees: what happened to the results. */
	if (br->store_ret)
		error("%s: measured and printed above, but not stored in '%s': nothing of this run "
		      "was written (the database error is above)", be->cmd, shown);
}

/* Say why prepare or the run refused (ret, an exit status), with a hint for a usage error. */
static void refused(const struct backend_ops *be, int ret, const char *why)
{
	error("%s: %s", be->cmd, why);
	if (ret == EX_USAGE)
		hint("see 'sgabench %s --help'", be->cmd);
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
	char err[512] = "";
	struct store *db = NULL;
	struct sigaction old_sig[NEND];
	int watching = 0;
	void *plan = NULL;
	double t0 = clock_now_s();
	int ret;

	if (!blk || !br)
		die(EX_RESOURCE, "out of memory");
	ret = opt_parse(tab, blk, argc, argv, be->cmd, "[OPTIONS]", NULL, NULL);
	if (ret || (ret = out_check(be, o)) != 0) {
		ret = builtin_exit(ret);
		goto out;
	}
	if (o->cell_keys) {
		opt_cell_keys(stdout, be->opts);
		goto out;
	}
	/* a run stored under the hostname instead would join another
	   machine's nights, or none: as the scripts, refuse the name */
	if (!o->no_store && getenv("SGABENCH_MACHINE") && *getenv("SGABENCH_MACHINE") &&
	    !sysinfo_name_ok(getenv("SGABENCH_MACHINE"))) {
		error("%s: SGABENCH_MACHINE '%s' is not a machine name", be->cmd, getenv("SGABENCH_MACHINE"));
		hint("1-63 of A-Z a-z 0-9 . _ -, or unset it for the hostname; --no-store stores nothing");
		ret = EX_USAGE;
		goto out;
	}
	sysinfo_collect(&si);
	ret = be->prepare(blk, &si, &plan, err, sizeof(err));
	if (ret == BACKEND_DONE) {
		plan = NULL;
		ret = EX_OK;
		goto out;
	} else if (ret) {
		ret = builtin_exit(ret);
		refused(be, ret, err);
		goto out;
	}
	/* Open the store first: a bad --db fails before any work is done. */
	if (!o->no_store && (ret = store_open(o->db, &db)) != 0) {
		ret = builtin_exit(ret);
		goto out;
	}
	watch_end_signals(store_created(db) ? db : NULL, old_sig);
	watching = 1;
	br->label = o->label;
	br->t0 = t0;
	ret = builtin_exit(backend_run_plan(be, plan, &si, db, br));
	if (ret && !br->r.status[0])
		refused(be, ret, br->err);
	else
		report_run(be, o, &si, db, db ? store_path(db) : o->db, br);
out:
	backend_run_free(be, plan, br);
	close_db(db, watching ? old_sig : NULL);
	free(blk);
	return ret;
}
