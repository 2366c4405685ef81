/*
 * builtin/sim.c - `sgabench sim`: run a workload on the software TLB model
 * (model/backend.c) and store it like a native run (backend model:<machine>).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "builtin/builtin.h"
#include "lib/json.h"
#include "lib/log.h"
#include "lib/opt.h"
#include "lib/parse.h"
#include "machine/sysinfo.h"
#include "model/backend.h"
#include "model/curve.h"
#include "model/simrun.h"
#include "output/envelope.h"

/* Append ", TEXT" to took (k bytes used of len). */
#define TOOK(...) \
	(k += k < len ? (size_t)snprintf(took + k, len - k, ", " __VA_ARGS__) : 0)

/*
 * The settings a custom TLB (--tlb, no preset) took by default rather than
 * from the command line, as sim options with their values, into took
 * ("" when none): the machine and run sim_prepare built from c: those that
 * change the counts, and the costs behind the est-* estimates.
 */
static void custom_defaults(const struct sim_cfg *c, const struct model_machine *m,
			    const struct model_run *r, char *took, size_t len)
{
	size_t k = 0;
	char tag[16];

	took[0] = '\0';
	if (!c->working_set && !c->sga_size)
		TOOK("--working-set %llum (inferred for the T2: 69 of its 4 MiB entries)",
		     (unsigned long long)(r->pages * model_psz_bytes(r->psz) >> 20));
	if (!c->page)
		TOOK("--page-size %s", model_psz_name(r->psz));
	if (!c->cores && !c->strands)
		TOOK("--cores %u --strands %u", m->cores, m->strands);
	else if (!c->cores)
		TOOK("--cores %u", m->cores);
	else if (!c->strands)
		TOOK("--strands %u", m->strands);
	if (!c->cores || !c->strands)
		k += k < len ? (size_t)snprintf(took + k, len - k, " (%u tasks on %u strands%s)", r->ntasks,
						m->cores * m->strands, r->ntasks > m->cores * m->strands ?
						": they take turns every --quantum accesses" : "") : 0;
	if (c->walk_cycles < 0 && !c->ghz)
		TOOK("--walk-cycles %g --ghz %g (what est-* assume: a walk's cycles and the clock, hits free "
		     "unless hit=)", m->walk_cycles, m->ghz);
	else if (c->walk_cycles < 0)
		TOOK("--walk-cycles %g (what est-* assume: a walk's cycles, hits free unless hit=)", m->walk_cycles);
	else if (!c->ghz)
		TOOK("--ghz %g (what est-* assume: the clock)", m->ghz);
	if (!c->tag)
		TOOK("--tag %s", opt_choice_name(MODEL_TAG_CHOICES, m->tag, tag, sizeof(tag)));
}

/*
 * Prepare as the model does; then, for a custom TLB, say on stderr which
 * settings it took by default: they come from no machine of the vendor's
 * (the working set is the one inferred for the T2), and they change every
 * count.
 */
static int prepare(const void *cfg, const struct sysinfo *si, void **plan, char *err, size_t errlen)
{
	struct sim_cfg c = *(const struct sim_cfg *)cfg;
	int ret = model_backend.prepare(cfg, si, plan, err, errlen);
	struct model_machine *m;
	struct model_run r;
	char took[512];
	int custom = !c.machine || strcmp(c.machine, "custom") == 0;

	if (ret || !c.tlb)
		return ret;
	if (custom)
		c.machine = "custom";
	m = calloc(1, sizeof(*m));
	if (m && !sim_prepare(&c, si, m, &r, err, errlen)) {
		/* a level whose entries its ways do not divide: the rest is not modelled */
		for (unsigned k = 0; k < m->nlevels; k++)
			if (model_level_modelled(&m->level[k]) < m->level[k].entries)
				warning("sim: level '%s': %u entries in %u ways are %u sets; %u of its entries "
					"are not modelled", m->level[k].name, m->level[k].entries, m->level[k].ways,
					model_level_sets(&m->level[k]),
					m->level[k].entries - model_level_modelled(&m->level[k]));
		if (custom)
			custom_defaults(&c, m, &r, took, sizeof(took));
		if (custom && took[0])
			warning("sim: the custom TLB took these defaults: %s; give them to choose", took + 2);
	}
	free(m);
	return ret;
}

/* `sim --sweep-entries`: the model's rows and these; nothing is stored. */
struct sweep_cfg {
	struct sim_cfg sim;
	int json, csv, quiet, no_store, verbose, cell_keys;
	const char *label, *db;
};

#define SW(f) offsetof(struct sweep_cfg, f)
static const struct opt sweep_out_rows[] = {
	{ .name = "json", .type = OPT_FLAG, .off = SW(json), .help = "print the curve as JSON" },
	{ .name = "csv", .type = OPT_FLAG, .off = SW(csv), .help = "print the curve as CSV" },
	{ .name = "quiet", .type = OPT_FLAG, .off = SW(quiet), .help = "print nothing but errors (and --json/--csv)" },
	{ .name = "no-store", .type = OPT_FLAG, .off = SW(no_store), .help = "accepted: a sweep stores nothing" },
	/* sim's options for a stored run: parsed so that they are refused by name */
	{ .name = "label", .type = OPT_STR, .off = SW(label) },
	{ .name = "db", .type = OPT_STR, .off = SW(db) },
	{ .name = "verbose", .type = OPT_FLAG, .off = SW(verbose) },
	{ .name = "cell-keys", .type = OPT_FLAG, .off = SW(cell_keys) },
	{ NULL },
};

/*
 * The options a sweep cannot honour, as "--a" or "--a, --b and --c" into
 * buf: those of a stored run, and the timed engine's (model_timing_opts but
 * --walk-cycles, which only prices est-*: a sweep's one pass is the untimed
 * model's). Returns how many.
 */
static unsigned sweep_refused(const struct sweep_cfg *w, char *buf, size_t n)
{
	const char *name[40];
	unsigned k = 0;

	for (const struct opt *o = model_timing_opts; o->name && k < 32; o++)
		if (!(o->flags & OPT_DERIVED) && strcmp(o->name, "walk-cycles") != 0 &&
		    !opt_is_default(o, &w->sim))
			name[k++] = o->name;
	if (w->label)
		name[k++] = "label";
	if (w->db)
		name[k++] = "db";
	if (w->verbose)
		name[k++] = "verbose";
	if (w->cell_keys)
		name[k++] = "cell-keys";
	opt_join_names(name, k, buf, n);
	return k;
}

/* "A..B" into lo, hi. Returns 0 or -EINVAL. */
static int parse_range(const char *s, unsigned *lo, unsigned *hi)
{
	const char *dots = strstr(s, "..");
	char a[32];
	uint64_t x, y;

	if (!dots || (size_t)(dots - s) >= sizeof(a))
		return -EINVAL;
	memcpy(a, s, (size_t)(dots - s));
	a[dots - s] = '\0';
	if (parse_count(a, &x) || parse_count(dots + 2, &y) || x > UINT32_MAX || y > UINT32_MAX)
		return -EINVAL;
	*lo = (unsigned)x;
	*hi = (unsigned)y;
	return 0;
}

/* The curve's misses at point j: over all tasks. */
static uint64_t curve_total(const struct model_curve *cv, unsigned j)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < cv->ntasks; i++)
		n += cv->misses[(size_t)i * cv->n + j];
	return n;
}

static void print_curve(const struct sweep_cfg *w, const struct sysinfo *si, const struct model_machine *m,
			const struct model_run *r, const struct model_curve *cv, double cpu_s)
{
	const struct model_level *lv = &m->level[cv->level];
	uint64_t acc = 0;
	struct json j;
	char tlb[1024];

	for (unsigned i = 0; i < cv->ntasks; i++)
		acc += cv->accesses[i];
	if (w->json) {
		json_init(&j, stdout, 0);
		json_obj_open(&j, NULL);
		envelope_json(&j, si, "sim");
		json_str(&j, "backend", "model");
		json_str(&j, "machine", m->name);
		json_str(&j, "tlb", model_tlb_str(m, tlb, sizeof(tlb)));
		json_str(&j, "level", lv->name);
		json_u64(&j, "sets", cv->sets);
		json_bool(&j, "fully_associative", lv->ways == 0);
		json_str(&j, "pattern", r->ops->name);
		json_str(&j, "page_size", model_psz_name(r->psz));
		json_u64(&j, "tasks", r->ntasks);
		json_u64(&j, "seed", r->seed);
		json_u64(&j, "accesses", acc);
		json_dbl(&j, "model-cpu-s", cpu_s);
		json_arr_open(&j, "points");
		for (unsigned k = 0; k < cv->n; k++) {
			json_obj_open(&j, NULL);
			json_u64(&j, "entries", cv->entries[k]);
			json_u64(&j, "ways", cv->entries[k] / cv->sets);
			json_u64(&j, "l1-dtlb-misses", curve_total(cv, k));
			json_dbl(&j, "miss_rate", acc ? (double)curve_total(cv, k) / (double)acc : 0);
			json_arr_open(&j, "tasks");
			for (unsigned i = 0; i < cv->ntasks; i++)
				json_u64(&j, NULL, cv->misses[(size_t)i * cv->n + k]);
			json_arr_close(&j);
			json_obj_close(&j);
		}
		json_arr_close(&j);
		json_obj_close(&j);
		json_end(&j);
		return;
	}
	if (w->csv) {
		envelope_csv(stdout, si, "sim");
		printf("# backend=model:%s tlb=%s level=%s sets=%u pattern=%s page=%s tasks=%u seed=%llu\n",
		       m->name, model_tlb_str(m, tlb, sizeof(tlb)), lv->name, cv->sets, r->ops->name,
		       model_psz_name(r->psz), r->ntasks, (unsigned long long)r->seed);
		printf("entries,ways,accesses,l1-dtlb-misses,miss_rate\n");
		for (unsigned k = 0; k < cv->n; k++)
			printf("%u,%u,%llu,%llu,%.6f\n", cv->entries[k], cv->entries[k] / cv->sets,
			       (unsigned long long)acc, (unsigned long long)curve_total(cv, k),
			       acc ? (double)curve_total(cv, k) / (double)acc : 0);
		return;
	}
	if (w->quiet)
		return;
	printf("sweep of %s on model:%s (%s, LRU), %u tasks, %s, %s pages: %llu accesses in one pass, %.3f s CPU\n",
	       lv->name, m->name, lv->ways ? "its sets kept" : "fully associative", r->ntasks, r->ops->name,
	       model_psz_name(r->psz), (unsigned long long)acc, cpu_s);
	printf("%10s %6s %16s %10s\n", "entries", "ways", "l1-dtlb-misses", "miss rate");
	for (unsigned k = 0; k < cv->n; k++)
		printf("%10u %6u %16llu %10.6f\n", cv->entries[k], cv->entries[k] / cv->sets,
		       (unsigned long long)curve_total(cv, k), acc ? (double)curve_total(cv, k) / (double)acc : 0);
	printf("  exact: each row equals a separate run with %s at that size (the other levels as given)\n",
	       lv->name);
}

/* `sim --sweep-entries A..B ...`: one pass, a curve, nothing stored. */
static int sweep_cmd(int argc, char **argv)
{
	struct opt tab[3] = {
		{ .type = OPT_ROWS, .rows = model_backend.opts, .off = 0 },
		{ .type = OPT_ROWS, .rows = sweep_out_rows, .off = 0 },
		{ NULL },
	};
	struct sweep_cfg w = { 0 };
	struct model_machine *m = calloc(1, sizeof(*m));
	struct model_run r;
	struct model_curve cv;
	struct sysinfo si;
	char err[512] = "";
	unsigned lo, hi;
	clock_t cpu0;
	int ret;

	if (!m)
		die(EX_RESOURCE, "out of memory");
	ret = opt_parse(tab, &w, argc, argv, "sim", "[OPTIONS]", NULL, NULL);
	if (ret) {
		free(m);
		return builtin_exit(ret);
	}
	ret = EX_USAGE;
	if (w.json && w.csv) {
		error("sim: --json and --csv exclude each other");
		goto out;
	}
	if (w.quiet)
		log_verbosity = 0;
	if (parse_range(w.sim.sweep_entries, &lo, &hi)) {
		error("sim: --sweep-entries '%s': give A..B, two entry counts", w.sim.sweep_entries);
		goto out;
	}
	if (w.sim.reference) {
		error("sim: --sweep-entries and --reference exclude each other (a sweep has its own pass)");
		goto out;
	}
	if (sweep_refused(&w, err, sizeof(err))) {
		error("sim: --sweep-entries does not take %s: a sweep is one pass of the untimed model, "
		      "and stores nothing; run the sizes one by one for those", err);
		goto out;
	}
	if (!w.sim.machine)
		w.sim.machine = w.sim.tlb ? "custom" : "ultrasparc-t2";
	if (strcmp(w.sim.machine, "list") == 0) {
		sim_list_machines(stdout);
		ret = EX_OK;
		goto out;
	}
	sysinfo_collect(&si);
	if (sim_prepare(&w.sim, &si, m, &r, err, sizeof(err))) {
		error("sim: %s", err);
		goto out;
	}
	if (r.sharedctx && m->tag != TAG_CTX2)
		r.sharedctx = 0;	/* as a run: only ctx2 can share */
	cpu0 = clock();
	ret = model_curve(m, &r, lo, hi, &cv, err, sizeof(err));
	if (ret) {
		error("sim: %s", err);
		ret = builtin_exit(ret);
		goto out;
	}
	print_curve(&w, &si, m, &r, &cv, (double)(clock() - cpu0) / CLOCKS_PER_SEC);
	model_curve_free(&cv);
	ret = EX_OK;
out:
	free(m);
	return ret;
}

/*
 * `sim --machine list --json`: the presets as the runs store them (each
 * sim_machine_json(), the one writer of a machine's parameters) with their
 * --tlb, under the envelope.
 */
static int list_json(void)
{
	struct sysinfo si;
	struct json j;
	char buf[8192], tlb[1024];

	sysinfo_collect(&si);
	json_init(&j, stdout, 0);
	json_obj_open(&j, NULL);
	envelope_json(&j, &si, "sim");
	json_arr_open(&j, "machines");
	for (int i = 0; model_presets[i]; i++) {
		json_obj_open(&j, NULL);
		json_str(&j, "tlb", model_tlb_str(model_presets[i], tlb, sizeof(tlb)));
		json_raw(&j, "machine", sim_machine_json(model_presets[i], buf, sizeof(buf)));
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_obj_close(&j);
	json_end(&j);
	return EX_OK;
}

/* Whether argv asks for --machine list, in either spelling. */
static int asks_list(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--machine=list") == 0 ||
		    (strcmp(argv[i], "--machine") == 0 && i + 1 < argc && strcmp(argv[i + 1], "list") == 0))
			return 1;
	return 0;
}

/* `sim --machine list`: its options parsed by sim's own table (a sweep's
 * outputs), then the presets as text, or JSON with --json. */
static int list_cmd(int argc, char **argv)
{
	struct opt tab[3] = {
		{ .type = OPT_ROWS, .rows = model_backend.opts, .off = 0 },
		{ .type = OPT_ROWS, .rows = sweep_out_rows, .off = 0 },
		{ NULL },
	};
	struct sweep_cfg w = { 0 };
	int ret = opt_parse(tab, &w, argc, argv, "sim", "[OPTIONS]", NULL, NULL);

	if (ret)
		return builtin_exit(ret);
	if (w.csv) {
		error("sim: --machine list prints text, or JSON with --json; no CSV");
		return EX_USAGE;
	}
	if (w.json)
		return list_json();
	sim_list_machines(stdout);
	return EX_OK;
}

int cmd_sim(int argc, char **argv)
{
	struct backend_ops be = model_backend;

	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--sweep-entries") == 0 || strncmp(argv[i], "--sweep-entries=", 16) == 0)
			return sweep_cmd(argc, argv);
	if (asks_list(argc, argv))
		return list_cmd(argc, argv);

	be.prepare = prepare;
	return backend_cmd(&be, argc, argv);
}
