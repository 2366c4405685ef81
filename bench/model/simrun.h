/*
 * simrun.h - one model run from command-line settings to a stored run:
 * shared by `sgabench sim` and `sgabench table`.
 */
#ifndef SGA_SIMRUN_H
#define SGA_SIMRUN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "model/model.h"
#include "lib/result.h"

struct sysinfo;

/* The settings of `sgabench sim`, filled by its option table. */
struct sim_cfg {
	const char *machine;	/* preset, "host" or "list" */
	const char *tlb;	/* custom levels, or NULL */
	const char *tag;	/* ctx2|asid|none, or NULL for the machine's */
	uint64_t tasks;
	int threads;
	const char *pattern;
	uint64_t rounds;
	int sharedctx;
	uint64_t sga_size;	/* 0: the working set */
	uint64_t working_set;	/* per task; 0: the default (276 MiB) */
	const char *page;	/* page size, or NULL for the machine's default */
	uint64_t quantum;
	uint64_t strands;	/* strands per core to use; 0 all */
	int place;		/* enum model_place */
	uint64_t seed;
	struct wl_args wl;	/* the workloads' own parameters (workload_option_rows) */
	uint64_t cores;		/* 0: the machine's */
	uint64_t jitter;	/* issue-order jitter: slots per strand per period, 0 lockstep */
	uint64_t startup;	/* private start-up pages per task */
	uint64_t words;		/* accesses per page visit, spread over the page (1: one) */
	uint64_t heap_size;	/* a private heap per task, bytes; 0: none (model_run.heap_pages) */
	const char *heap_page;	/* its page size */
	uint64_t heap_share;	/* percent of the accesses after start-up that go to the heap */
	double walk_cycles;	/* cycles per page walk for est-*; < 0: the machine's */
	double ghz;		/* clock for est-* and --timing's ticks; 0: the machine's */
	int reference;		/* run the brute-force reference instead */
	int progress;		/* progress lines on stderr: 1 always, 0 when it is a terminal, -1 never
				 * (and no --timing line: `table` runs many at once and prints its own) */
	uint64_t jobs;		/* threads simulating the cores (model_simulate_jobs) */
	const char *sweep_entries;	/* "A..B": a single-pass curve of the first level (curve.h), or NULL */
	/* the timed engine (timed.h), opt-in: off, every run is as before */
	int timing;		/* --timing */
	uint64_t hz;		/* timer ticks per second, 0: none */
	uint64_t tick_entries;	/* kernel pages per tick handler */
	uint64_t access_cycles;	/* 0: 1 */
	int inflight;		/* enum model_inflight */
	uint64_t timed_walk;	/* derived: the walk cycles a timed run used */
	double timed_ghz;	/* derived: the clock a timed run's ticks came at (with --hz), else 0 */
	/* Derived when the run is named, for its rows: */
	const char *backend;	/* "model:MACHINE" */
	const char *tlb_text;	/* the levels, model_tlb_str() */
	const char *machine_json;	/* the machine's parameters, sim_machine_json() */
	uint64_t pages;		/* working set per task, in pages */
	uint64_t strands_used;	/* strands per core the tasks use */
};

/* The default working set per task: 69 TTEs of 4 MiB, inferred (README.md). */
#define SIM_DEFAULT_WS (276ull << 20)

/*
 * Build the machine and the run from c. si is needed for --machine host
 * (may be NULL otherwise). Returns 0, or -EINVAL / -ENODEV with a
 * one-line reason in err.
 */
int sim_prepare(const struct sim_cfg *c, const struct sysinfo *si, struct model_machine *m,
		struct model_run *r, char *err, size_t errlen);

/* The machine's parameters (name, sources, tags, levels) as a JSON object
 * into buf, for the stored configuration. Returns buf. */
char *sim_machine_json(const struct model_machine *m, char *buf, size_t len);

/*
 * Fill res from st: backend "model:<machine>", per-task dTLB-loads and
 * dTLB-load-misses (counted), iTLB-load-misses (not modelled), per-level
 * misses, and run metrics (estimates are named est-*). Allocates
 * res->task (free it). Returns 0 or -ENOMEM.
 */
int sim_result(const struct model_machine *m, const struct model_run *r,
	       const struct model_stats *st, double wall_s, struct run_result *res);

/* Print `--machine list`: every preset with parameters and sources. */
void sim_list_machines(FILE *f);

#endif
