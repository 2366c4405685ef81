/*
 * builtin/compare.c - sgabench compare: baseline runs against candidate runs,
 * cell by cell and metric by metric, with the decision rule of stats.h
 * (Mann-Whitney U, bootstrap CI of the ratio of medians, BH across every
 * cell x metric of one machine, max(threshold, A/A noise floor)).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "builtin/builtin.h"
#include "compare/compare.h"
#include "lib/json.h"
#include "lib/log.h"
#include "lib/opt.h"
#include "store/select.h"
#include "stats/stats.h"
#include "store/store.h"

#define SYNOPSIS "--baseline SEL --candidate SEL [options]"

/* What compare parses: the shared --db and --json rows, and the comparison's own. */
struct compare_args {
	struct read_cfg io;
	struct cmp c;
};

static const struct opt compare_opts[] = {
	{ .type = OPT_ROWS, .rows = builtin_read_rows, .off = offsetof(struct compare_args, io) },
	{ .name = "baseline", .type = OPT_STR, .off = offsetof(struct compare_args, c.baseline),
	  .metavar = "SEL",
	  .help = "baseline runs: label:TEXT, tonight, last-N-nights, last-N, uuid:U1,U2, since:DATE,"
		  " kernel:VARIANT" },
	{ .name = "candidate", .type = OPT_STR, .off = offsetof(struct compare_args, c.candidate),
	  .metavar = "SEL",
	  .help = "candidate runs (same selectors)" },
	{ .name = "metric", .type = OPT_STR, .off = offsetof(struct compare_args, c.metrics),
	  .metavar = "M,...", .defhelp = "all with a direction",
	  .help = "metrics to compare, repeatable (a metric whose direction is 'neither' only by name; lower is better then)" },
	{ .name = "machine", .type = OPT_STR, .off = offsetof(struct compare_args, c.machine),
	  .metavar = "NAME", .defhelp = "all, each judged alone",
	  .help = "only the runs of the machine named NAME (SGABENCH_MACHINE when it ran)" },
	{ .name = "config", .type = OPT_STR, .off = offsetof(struct compare_args, c.config),
	  .metavar = "FILE", .defhelp = "none",
	  .help = "judge by a sweep config's rules, as scripts/nightly does: its SWEEP_METRICS"
		  " and SWEEP_COMPARE_ARGS come before the options given here" },
	{ .name = "verbose", .type = OPT_FLAG, .off = offsetof(struct compare_args, c.verbose),
	  .help = "also the notes behind the table" },
	{ .name = "cell", .type = OPT_STR, .off = offsetof(struct compare_args, c.cell),
	  .metavar = "PATTERN", .defhelp = "all",
	  .help = "only cells matching this GLOB pattern" },
	{ .name = "baseline-cell", .type = OPT_STR, .off = offsetof(struct compare_args, c.side_cell[0]),
	  .metavar = "PATTERN", .defhelp = "--cell",
	  .help = "the baseline's cells, in place of --cell (one sweep's design A)" },
	{ .name = "candidate-cell", .type = OPT_STR, .off = offsetof(struct compare_args, c.side_cell[1]),
	  .metavar = "PATTERN", .defhelp = "--cell",
	  .help = "the candidate's cells, in place of --cell (design B)" },
	{ .name = "higher-better", .type = OPT_STR, .off = offsetof(struct compare_args, c.hb_last),
	  .metavar = "M,...", .defhelp = "the registry's (sgabench metrics)",
	  .help = "metrics where higher is better, besides the registry's (repeatable)" },
	{ .name = "one-sided-noise", .type = OPT_STR, .off = offsetof(struct compare_args, c.osn_last),
	  .metavar = "M,...", .defhelp = "the registry's one-way metrics",
	  .help = "noise only makes M worse: compare its best runs, not its median (repeatable)" },
	{ .name = "threshold", .type = OPT_DOUBLE, .off = offsetof(struct compare_args, c.dp.threshold), .dmax = 10,
	  .metavar = "R", .def = "0.02",
	  .help = "smallest relative change reported" },
	{ .name = "metric-threshold", .type = OPT_STR, .off = offsetof(struct compare_args, c.mt_last),
	  .metavar = "M=R", .defhelp = "--threshold",
	  .help = "metric M's own smallest reported change (repeatable)" },
	{ .name = "alpha", .type = OPT_DOUBLE, .off = offsetof(struct compare_args, c.dp.alpha), .dmin = 1e-9, .dmax = 0.5,
	  .metavar = "P", .def = "0.01",
	  .help = "Mann-Whitney U significance level" },
	{ .name = "fdr", .type = OPT_DOUBLE, .off = offsetof(struct compare_args, c.dp.fdr), .dmin = 1e-9, .dmax = 0.5,
	  .metavar = "Q", .def = "0.05",
	  .help = "Benjamini-Hochberg false discovery rate" },
	{ .name = "ignore-axis", .type = OPT_STR, .off = offsetof(struct compare_args, c.ia_last),
	  .metavar = "AXIS,...", .defhelp = "none",
	  .help = "pair cells that differ only in these axes, e.g. tlb for two TLB designs (repeatable)" },
	{ .name = "store-verdicts", .type = OPT_FLAG, .off = offsetof(struct compare_args, c.store),
	  .help = "write the verdicts to the verdict table" },
	{ .name = "cross-machine", .type = OPT_FLAG, .off = offsetof(struct compare_args, c.cross),
	  .help = "pair runs by cell across machines (names and fingerprints)" },
	{ .name = "across-kernels", .type = OPT_FLAG, .off = offsetof(struct compare_args, c.kernels),
	  .defhelp = "on with a kernel:V selector",
	  .help = "pair runs of one machine name across fingerprints: the sides ran different kernels" },
	{ NULL },
};

/*
 * The value of option name ("--x") at argv[*i]: argv[*i + 1] for "--x V"
 * (and *i moves past it), the text after '=' for "--x=V", else NULL.
 */
static const char *option_value(int argc, char **argv, int *i, const char *name)
{
	size_t l = strlen(name);

	if (strcmp(argv[*i], name) == 0 && *i + 1 < argc)
		return argv[++*i];
	if (strncmp(argv[*i], name, l) == 0 && argv[*i][l] == '=')
		return argv[*i] + l + 1;
	return NULL;
}

/* Collect every value of list option name ("--x") into out (*n of max; the option table keeps only the last). */
static void collect_list(const char *name, char **out, size_t *n, int argc, char **argv)
{
	for (int i = 1; i < argc && *n < CMP_MAX_LIST; i++) {
		const char *v;

		if (strcmp(argv[i], "--") == 0)
			break;
		v = option_value(argc, argv, &i, name);
		if (v)
			*n += cmp_split_list(v, out + *n, CMP_MAX_LIST - *n);
	}
}

/*
 * Collect every --metric-threshold value (the option table keeps only the
 * last). Returns 0, or EX_USAGE / EX_FAIL after printing why.
 */
static int collect_metric_thresholds(struct cmp *c, int argc, char **argv)
{
	char why[200];

	for (int i = 1; i < argc; i++) {
		const char *v;
		int ret;

		if (strcmp(argv[i], "--") == 0)
			break;
		v = option_value(argc, argv, &i, "--metric-threshold");
		if (!v)
			continue;
		ret = cmp_add_metric_threshold(c, v, why, sizeof(why));
		if (ret == -ENOMEM) {
			error("compare: out of memory");
			return EX_FAIL;
		}
		if (ret) {
			error("compare: --metric-threshold %s", why);
			hint("see 'sgabench compare --help'");
			return EX_USAGE;
		}
	}
	return 0;
}

/* Check the selectors before touching the database: a bad one is a usage error. */
static int check_selectors(const struct cmp *c)
{
	const char *which[2] = { "--baseline", "--candidate" };
	const char *sel[2] = { c->baseline, c->candidate };
	char why[200];

	for (int i = 0; i < 2; i++) {
		if (!sel[i]) {
			error("compare: %s is required", which[i]);
			hint("e.g. sgabench compare --baseline last-7-nights --candidate tonight");
			return EX_USAGE;
		}
		if (select_check(sel[i], why, sizeof(why))) {
			error("compare: %s '%s': %s", which[i], sel[i], why);
			hint("see 'sgabench compare --help'");
			return EX_USAGE;
		}
	}
	return 0;
}

/* Select both sides; a side with no runs is a missing resource. */
static int select_sides(struct cmp *c)
{
	const char *name[2] = { "baseline", "candidate" }, *sel[2] = { c->baseline, c->candidate };
	struct runset *rs[2] = { &c->base, &c->cand };

	/* the candidate first: last-N-nights are the nights before it on its
	   machines (across machines, each machine's latest nights) */
	for (int i = 1; i >= 0; i--) {
		const char *glob = c->side_cell[i] ? c->side_cell[i] : c->cell;
		int ret = i || c->cross ? select_runs_on(c->db_handle, sel[i], glob, c->machine, rs[i]) :
			  select_baseline_for(c->db_handle, sel[i], glob, c->machine, rs[1], rs[i]);

		if (ret) {
			error("compare: selecting the %s: %s", name[i],
			      ret == -ENOMEM ? "out of memory" : store_errmsg(c->db_handle));
			return EX_FAIL;
		}
		if (rs[i]->n == 0) {
			error("compare: no successful runs match the %s '%s'%s%s%s%s", name[i], sel[i],
			      glob ? " with the cell pattern " : "", glob ? glob : "",
			      c->machine ? " on machine " : "", c->machine ? c->machine : "");
			hint("list the stored runs with 'sgabench runs --db %s'", store_path(c->db_handle));
			return EX_RESOURCE;
		}
	}
	return 0;
}

/*
 * --ignore-axis: gather every value (the option table keeps only the
 * last) into c's keys, then check each is an axis of some selected run.
 * Returns 0, or EX_USAGE / EX_FAIL after printing why.
 */
static int ignore_axes(struct cmp *c, int argc, char **argv)
{
	char why[512];

	for (int i = 1; i < argc; i++) {
		const char *v;

		if (strcmp(argv[i], "--") == 0)
			break;
		v = option_value(argc, argv, &i, "--ignore-axis");
		if (v && cmp_ignore_add(c, v)) {
			error("compare: out of memory");
			return EX_FAIL;
		}
	}
	if (cmp_ignore_check(c, why, sizeof(why))) {
		error("compare: --ignore-axis %s", why);
		hint("an axis is a key of the cells, e.g. tlb, tasks, backend");
		return EX_USAGE;
	}
	return 0;
}

/*
 * With --config FILE among argv, *av becomes argv with the config's
 * options (cmp_config_args) inserted after argv[0], so that the options
 * given on the command line follow them (*extra strings to free);
 * else argv itself. Returns 0, or an exit status after printing why.
 */
static int config_argv(int argc, char **argv, int *ac, char ***av, char ***extra, int *nextra)
{
	const char *path = NULL;
	char why[256];
	int ret;

	*ac = argc;
	*av = argv;
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		const char *v = option_value(argc, argv, &i, "--config");

		if (v)
			path = v;
	}
	if (!path)
		return 0;
	ret = cmp_config_args(path, extra, nextra, why, sizeof(why));
	if (ret) {
		error("compare: --config: %s", why);
		hint("a sweep config: a file, or a shipped one by name (nightly, smoke, ...)");
		return ret == -ENOMEM ? EX_FAIL : EX_USAGE;
	}
	*av = calloc((size_t)(argc + *nextra + 1), sizeof(**av));
	if (!*av) {
		error("compare: out of memory");
		return EX_FAIL;
	}
	(*av)[0] = argv[0];
	memcpy(*av + 1, *extra, (size_t)*nextra * sizeof(**av));
	memcpy(*av + 1 + *nextra, argv + 1, (size_t)(argc - 1) * sizeof(**av));
	*ac = argc + *nextra;
	return 0;
}

/* Open the database read-only (or read-write for --store-verdicts); 0 or store_open's -errno. */
static int open_db(struct cmp *c, const char *db)
{
	int ret = store_open_ro(db, &c->db_handle);

	if (ret || !c->store)
		return ret;
	store_close(c->db_handle);
	c->db_handle = NULL;
	return store_open(db, &c->db_handle);
}

/* Whether the selected runs come from more than one machine fingerprint. */
static int several_machines(const struct cmp *c)
{
	const struct runset *rs[2] = { &c->base, &c->cand };
	int64_t first = c->base.n ? c->base.run[0].machine_id : c->cand.run[0].machine_id;

	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < rs[s]->n; i++)
			if (rs[s]->run[i].machine_id != first)
				return 1;
	return 0;
}

/*
 * The machines (by name) with runs on both sides but never on one
 * fingerprint: a kernel update or other hardware between them, which
 * compare, pairing runs of one fingerprint, leaves out. Each is warned of
 * (with what compares it); returns how many.
 */
static int split_machines(const struct cmp *c)
{
	int n = 0;

	for (size_t i = 0; i < c->cand.n; i++) {
		const struct run_ref *r = &c->cand.run[i];
		int seen = 0, named = 0, paired = 0;

		for (size_t k = 0; k < i && !seen; k++)
			seen = strcmp(c->cand.run[k].machine_name, r->machine_name) == 0;
		if (seen || !*r->machine_name)
			continue;
		for (size_t b = 0; b < c->base.n && !paired; b++) {
			const struct run_ref *x = &c->base.run[b];

			if (strcmp(x->machine_name, r->machine_name))
				continue;
			named = 1;
			for (size_t k = i; k < c->cand.n && !paired; k++)
				paired = c->cand.run[k].machine_id == x->machine_id &&
					 strcmp(c->cand.run[k].machine_name, r->machine_name) == 0;
		}
		if (named && !paired) {
			warning("compare: machine '%s' has runs on both sides, but on other fingerprints "
				"(its kernel or hardware changed): not compared; --across-kernels --machine %s "
				"compares it across the change", r->machine_name, r->machine_name);
			n++;
		}
	}
	return n;
}

/* When no cell pairs: the axes in which the sides differ entirely, to pair across. */
static void no_pairs_hint(const struct cmp *c)
{
	char keys[256];

	cmp_suggest_axes(c, keys, sizeof(keys));
	if (keys[0])
		hint("the sides' cells differ in %s: to pair cells across %s, add --ignore-axis %s",
		     keys, strchr(keys, ',') ? "them" : "it", keys);
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args *a = calloc(1, sizeof(*a));
	struct cmp *c = a ? &a->c : NULL;
	char **extra = NULL, **orig = argv;
	int ret, regressions, nextra = 0, split;

	if (!c) {
		error("compare: out of memory");
		return EX_FAIL;
	}
	stats_decide_defaults(&c->dp);
	ret = config_argv(argc, orig, &argc, &argv, &extra, &nextra);
	if (ret)
		goto out;
	ret = opt_parse(compare_opts, a, argc, argv, "compare", SYNOPSIS, NULL, NULL);
	if (ret == OPT_HELP_SHOWN) {
		printf("\nThe output leads with one line per regression or improvement, then for each\n"
		       "machine without a regression the smallest change its rows could resolve.\n"
		       "Runs are paired by cell on one machine: one name (SGABENCH_MACHINE when they\n"
		       "ran) and one fingerprint; 'tonight' and 'last-N-nights' are each machine's\n"
		       "own nights. Across kernels (a kernel:VARIANT selector, or --across-kernels)\n"
		       "a machine is its name alone, since its fingerprint holds the kernel release\n"
		       "and command line; the header names each side's kernels. A cell/metric is a\n"
		       "regression when its p <= alpha (Mann-Whitney U; below for one-sided noise),\n"
		       "its Benjamini-Hochberg q (over the rows of its machine, each machine\n"
		       "alone; over all rows with --cross-machine) <= fdr, and the ratio\n"
		       "median(cand)/median(base) lies beyond\n"
		       "max(threshold (or the metric's --metric-threshold), the cell's A/A noise\n"
		       "floor) on the bad side (its bootstrap 95%% CI is reported, not required to\n"
		       "clear it);\n"
		       "improvements are the mirror image; 'insufficient' when a side has < %d runs\n"
		       "or the sizes cannot reach alpha. A deterministic backend (the model) needs one\n"
		       "run a side: on a metric not read from a clock, with each side's runs equal, the\n"
		       "verdict is exact (p 'exact'): the ratio, judged against the threshold alone.\n"
		       "--ignore-axis AXIS pairs cells that differ only in AXIS (a cell key such as tlb;\n"
		       "or the sweep axes machine, sga-size, working-set, page-size, layout) and shows\n"
		       "each side's values of it. Lower is better unless --higher-better or the\n"
		       "metric registry (sgabench metrics) says higher.\n"
		       "One-sided noise (--one-sided-noise M, or noise 'one-way' in the registry):\n"
		       "for a metric that noise only ever makes worse (a timing on a busy machine,\n"
		       "or whose host preempts the vCPUs), compare each\n"
		       "side's %.0fth percentile (%.0fth when lower is better) in place of the median:\n"
		       "in the ratio, its CI, the A/A floor and the MDE; p then comes from a\n"
		       "permutation test (%d relabellings) on that percentile.\n"
		       "exit: 0 no regression, 1 regression, 2 usage error, 3 no database, unknown\n"
		       "schema or no runs to compare\n", STATS_MIN_RUNS, 100 * STATS_BEST_QUANTILE,
		       100 * (1 - STATS_BEST_QUANTILE), STATS_PERM_RESAMPLES);
		ret = EX_OK;
		goto out;
	}
	if (ret || (ret = check_selectors(c)) || (ret = collect_metric_thresholds(c, argc, argv)))
		goto out;
	if (select_is_kernel(c->baseline) || select_is_kernel(c->candidate))
		c->kernels = 1;
	collect_list("--higher-better", c->hb, &c->nhb, argc, argv);
	collect_list("--one-sided-noise", c->osn, &c->nosn, argc, argv);
	collect_list("--metric", c->metric, &c->nmetric, argc, argv);
	if ((ret = open_db(c, a->io.db)) || (ret = select_sides(c)) ||
	    (ret = ignore_axes(c, argc, argv)))
		goto out;
	ret = cmp_build_rows(c);
	if (ret)
		goto out;
	split = c->cross || c->kernels ? 0 : split_machines(c);
	ret = cmp_check_metrics(c);
	if (ret) {
		if (ret == -EINVAL && c->config)
			hint("--config %s: its SWEEP_METRICS are --metric names too", c->config);
		if (ret == -ENOMEM)
			error("compare: out of memory");
		ret = ret == -EINVAL ? EX_USAGE : EX_FAIL;
		goto out;
	}
	if (c->nrows == 0) {
		error("compare: no cell has runs on both sides%s",
		      c->cross ? "" : " on the same machine");
		if (split)
			hint("a machine's kernel changed between the sides: add --across-kernels");
		else if (!c->cross && several_machines(c))
			hint("to compare across machine fingerprints, add --cross-machine");
		no_pairs_hint(c);
		cmp_print_notes(c, stderr);
		ret = EX_RESOURCE;
		goto out;
	}
	regressions = cmp_decide(c);
	if (regressions < 0) {
		error("compare: out of memory");
		ret = EX_FAIL;
		goto out;
	}
	if (a->io.json)
		cmp_print_json(c, stdout);
	else
		cmp_print_human(c, stdout);
	if (c->store && cmp_store_verdicts(c)) {
		ret = EX_FAIL;
		goto out;
	}
	ret = regressions ? EX_FAIL : EX_OK;
out:
	if (argv != orig)
		free(argv);
	cmp_config_free(extra, nextra);
	if (c)
		cmp_release(c);
	free(a);
	return ret;
}
