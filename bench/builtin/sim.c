/*
 * builtin/sim.c - `sgabench sim`: run a workload on the software TLB model and
 * store it like a native run (backend model:<machine>).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "builtin/builtin.h"
#include "lib/log.h"
#include "lib/opt.h"
#include "output/output.h"
#include "model/simrun.h"
#include "store/store.h"
#include "machine/sysinfo.h"

#define O(f) offsetof(struct sim_cfg, f)

static const struct opt sim_opts[] = {
	{ "machine", OPT_STR, O(machine), .metavar = "PRESET|host|custom|list",
	  .def = "ultrasparc-t2", .help = "machine preset; 'list' prints them with their sources" },
	{ "tlb", OPT_STR, O(tlb), .metavar = "SPEC",
	  .help = "custom levels, e.g. 'l1d:64,full,lru;l2:2048,8way,lru' (replaces the preset's)" },
	{ "tag", OPT_STR, O(tag), .metavar = "ctx2|asid|none", .help = "entry tagging (default: the machine's)" },
	{ "tasks", OPT_UINT, O(tasks), 1, MODEL_MAX_TASKS, .metavar = "N", .def = "2",
	  .help = "tasks sharing the area" },
	{ "threads", OPT_FLAG, O(threads), .help = "tasks are threads of one address space" },
	{ "pattern", OPT_STR, O(pattern), .metavar = "NAME", .def = "rounds",
	  .help = "access pattern (sgabench workloads)" },
	{ "rounds", OPT_UINT, O(rounds), 1, 0, .metavar = "N", .def = "100",
	  .help = "a round is one access per page of the working set" },
	{ "sharedctx", OPT_FLAG, O(sharedctx), .help = "the area's entries carry a shared context (ctx2 machines)" },
	{ "sga-size", OPT_SIZE, O(sga_size), 1, 0, .metavar = "SIZE", .def = "the working set",
	  .help = "size of the area (recorded; tasks touch the working set from its start)" },
	{ "working-set", OPT_SIZE, O(ws_size), 1, 0, .metavar = "SIZE", .def = "276m",
	  .help = "bytes each task touches per round (276m = 69 T2 4 MiB TTEs, inferred: see README)" },
	{ "page-size", OPT_STR, O(page), .metavar = "SIZE", .def = "the machine's (t2: 4m)",
	  .help = "page size of the area: 4k 8k 64k 2m 4m 256m 1g 2g 16g" },
	{ "quantum", OPT_UINT, O(quantum), 1, 0, .metavar = "N", .def = "100000",
	  .help = "accesses before tasks time-sliced on one strand switch" },
	{ "strands", OPT_UINT, O(strands), 0, 4096, .metavar = "N", .def = "all",
	  .help = "strands per core the tasks may use" },
	{ "place", OPT_CHOICE, O(place), .choices = MODEL_PLACE_CHOICES, .def = "smt",
	  .help = "fill a core's strands first, one task per core first, or all on one strand" },
	{ "cores", OPT_UINT, O(cores), 0, 4096, .metavar = "N", .def = "the machine's",
	  .help = "cores of the machine" },
	{ "jitter", OPT_UINT, O(jitter), 0, 1u << 20, .metavar = "N", .def = "0 (lockstep)",
	  .help = "seeded issue order: each strand issues N times per period, shuffled" },
	{ "startup", OPT_UINT, O(startup), 0, 1u << 30, .metavar = "N", .def = "0",
	  .help = "private start-up pages each task touches before its rounds" },
	{ "walk-cycles", OPT_DOUBLE, O(walk_cycles), .dmin = 0, .dmax = 1e6, .metavar = "X",
	  .def = "the machine's", .help = "cycles per page walk, for the est-* estimates only" },
	{ "seed", OPT_UINT, O(seed), 0, 0, .metavar = "N", .def = "1",
	  .help = "seed of every random stream (workloads, random replacement)" },
	{ "zipf-theta", OPT_DOUBLE, O(zipf_theta), .dmin = 0.01, .dmax = 10, .metavar = "X",
	  .def = "0.99", .help = "skew of zipf" },
	{ "reference", OPT_FLAG, O(reference), .help = "use the brute-force reference simulator (slow)" },
	{ "json", OPT_FLAG, O(json), .help = "print JSON" },
	{ "db", OPT_STR, O(db), .metavar = "PATH", .def = STORE_DEFAULT_PATH, .help = "database" },
	{ "no-store", OPT_FLAG, O(no_store), .help = "do not store the run" },
	{ "label", OPT_STR, O(label), .metavar = "TEXT", .help = "tag stored with the run" },
	{ "quiet", OPT_FLAG, O(quiet), .help = "print nothing on success" },
	{ NULL },
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int cmd_sim(int argc, char **argv)
{
	struct sim_cfg c;
	struct sysinfo si;
	struct model_machine m;
	struct model_run r;
	struct model_stats st;
	struct run_result res;
	struct run_meta meta;
	struct run_view view = { 0 };
	char err[320], cell[1024], cfg[4096], desc[256], b[16];
	struct store *db = NULL;
	int64_t run_id = 0;
	double t0, cpu;
	clock_t cpu0;
	int ret;

	sim_cfg_defaults(&c);
	c.machine = NULL;
	ret = opt_parse(sim_opts, &c, argc, argv, "sim", "[OPTIONS]", NULL, NULL);
	if (ret == OPT_HELP_SHOWN)
		return EX_OK;
	if (ret)
		return ret;
	if (!c.machine)
		c.machine = c.tlb ? "custom" : "ultrasparc-t2";
	if (strcmp(c.machine, "list") == 0) {
		sim_list_machines(stdout);
		return EX_OK;
	}
	sysinfo_collect(&si);
	ret = sim_prepare(&c, &si, &m, &r, err, sizeof(err));
	if (ret) {
		error("sim: %s", err);
		if (ret == EX_USAGE)
			hint("see 'sgabench sim --help' and 'sgabench sim --machine list'");
		return ret;
	}
	if (r.sharedctx && m.tag != TAG_CTX2)
		warning("sim: --sharedctx has no effect with tag '%s': only ctx2 shares TLB entries",
			opt_choice_name(MODEL_TAG_CHOICES, m.tag, b, sizeof(b)));
	t0 = now_s();
	cpu0 = clock();
	ret = c.reference ? model_reference(&m, &r, &st) : model_simulate(&m, &r, &st);
	if (ret) {
		error("sim: the model failed: %s", strerror(-ret));
		return EX_FAIL;
	}
	cpu = (double)(clock() - cpu0) / CLOCKS_PER_SEC;
	if (sim_result(&m, &r, &st, now_s() - t0, &res)) {
		model_stats_free(&st);
		error("sim: out of memory");
		return EX_FAIL;
	}
	result_set_metric(&res, "model-cpu-s", cpu);
	sim_cell(&c, &m, &r, cell, sizeof(cell));
	sim_config_json(&c, &m, &r, cfg, sizeof(cfg));
	meta = (struct run_meta){
		.workload = r.ops->name, .tasks = r.ntasks, .page_size = model_psz_name(r.psz),
		.sharedctx = r.sharedctx, .threads = r.threads,
		.sga_bytes = c.sga_size ? c.sga_size : r.pages * model_psz_bytes(r.psz),
		.ws_bytes = r.pages * model_psz_bytes(r.psz), .rounds = r.rounds, .cell = cell,
		.label = c.label, .config_json = cfg,
	};
	if (!c.no_store) {
		const char *path = c.db ? c.db : STORE_DEFAULT_PATH;

		ret = store_open(path, &db);
		if (ret)
			goto out;
		if (store_put_run(db, &si, &meta, &res, &run_id)) {
			ret = EX_FAIL;
			goto out;
		}
		view.db = path;
	}
	snprintf(desc, sizeof(desc), "model %s (%s tags): %u tasks, %llu x %s pages each, %s%s; "
		 "%llu of %llu accesses skipped exactly by period",
		 m.name, opt_choice_name(MODEL_TAG_CHOICES, m.tag, b, sizeof(b)), r.ntasks,
		 (unsigned long long)r.pages, model_psz_name(r.psz),
		 r.sharedctx ? "shared context" : "private contexts",
		 r.threads ? ", threads" : "", (unsigned long long)st.skipped_accesses,
		 (unsigned long long)model_total_accesses(&st));
	view.meta = &meta;
	view.res = &res;
	view.fingerprint = si.fingerprint;
	view.describe = desc;
	view.run_id = run_id;
	if (c.json)
		output_json(stdout, &view);
	else if (!c.quiet)
		output_human(stdout, &view);
	if (!c.json && !c.quiet)
		printf("  est-* metrics are estimates from assumed cycle costs, not measurements\n");
	ret = EX_OK;
out:
	if (db)
		store_close(db);
	free(res.task);
	model_stats_free(&st);
	return ret;
}
