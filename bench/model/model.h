/*
 * model.h - the software TLB model: a machine description (TLB levels,
 * tagging, cores and strands), a run description (tasks, workload, page
 * size, placement), and two simulators that must agree exactly: the fast
 * one (sim.c, with exact round-boundary cycle skipping) and a deliberately
 * simple brute-force reference (ref.c).
 *
 * Semantics, shared by both simulators (README.md in this directory):
 *  - Each task's access order comes from the workload registry (wl_open /
 *    wl_fill), exactly as the native backend uses it. Page index p of a
 *    task is page p of the shared area: every task maps it at one address.
 *  - A core has one TLB (all its levels), shared by its strands. Within a
 *    core, every cycle each busy strand makes one access, strand 0 first.
 *    Cores are independent. Tasks on one strand are time-sliced: the
 *    running task is switched after `quantum` accesses, round-robin.
 *  - An access probes the levels that hold the run's page size, in order.
 *    A hit at level k fills the levels probed before it; a miss in all of
 *    them is a page walk (dtlb-walks) and fills every probed level. The
 *    generic dTLB-loads and dTLB-load-misses count what the machine's
 *    Linux driver counts (struct model_machine's ev_* and counters).
 *  - Tags: ctx2 matches an entry whose context equals the task's context
 *    register 0 or 1; a shared context (--sharedctx) puts the area's
 *    entries in register 1's context, the same for every task. asid: one
 *    tag per address space (threads share). none: entries belong to the
 *    strand and are flushed when it switches to another address space.
 *  - With startup = N, each task first touches N private pages (its own
 *    start-up data: tagged with its own context even with --sharedctx,
 *    page numbers above the area), then its workload stream.
 *  - Replacement per set: an invalid way first (lowest index); else LRU,
 *    or NRU (first way with the used bit clear; when none is clear, all
 *    used bits are reset and way 0 is taken), or random (seeded).
 */
#ifndef SGA_MODEL_H
#define SGA_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "workloads/workload.h"

#define MODEL_LEVELS 6
#define MODEL_MAX_TASKS 4096
/* Page number of a task's first start-up page (--startup): start-up page
 * n is MODEL_STARTUP_PAGE0 + n, above every area page (which is below it). */
#define MODEL_STARTUP_PAGE0 0x80000000u

enum model_repl { REPL_LRU, REPL_NRU, REPL_RANDOM };
enum model_tag { TAG_CTX2, TAG_ASID, TAG_NONE };
#define MODEL_REPL_CHOICES "lru|nru|random"
#define MODEL_TAG_CHOICES "ctx2|asid|none"

/* Page sizes a level may hold, as bits of a mask. */
enum model_psz {
	PSZ_4K, PSZ_8K, PSZ_16K, PSZ_64K, PSZ_512K, PSZ_2M, PSZ_4M, PSZ_32M,
	PSZ_256M, PSZ_512M, PSZ_1G, PSZ_2G, PSZ_16G, PSZ_N
};

/*
 * A level of N-way sets has floor(entries / N) sets, indexed by the
 * entry's page number modulo the sets, or with `hashed` by a fixed mix of
 * it (model_set_of()): entries that are not a multiple of the ways (Zen
 * 2's 2048-entry 12-way L2) leave entries mod N unmodelled
 * (model_level_sets() x N are). Both simulators and the curves do so.
 */
struct model_level {
	char name[16];		/* "l1d", "l2", "dtlb" */
	unsigned entries;	/* as published */
	unsigned ways;		/* 0: fully associative (ways = entries); at most entries */
	int repl;		/* enum model_repl */
	unsigned psz_mask;	/* 1 << enum model_psz for each size held */
	double hit_cycles;	/* cost of probing this level (estimate) */
	unsigned char held_as[PSZ_N];	/* 1 + the enum model_psz a page of that size is held as
					   (a smaller entry: split, smashed), 0: whole */
	unsigned char hashed;	/* index=hash: the set is a mix of the page number, not it mod sets */
	unsigned char part[PSZ_N];	/* ways partitioned by entry size: part[s] ways of each set hold
					   entries of size s only (after held_as), ways beyond their sum
					   none; all 0: not partitioned (any way holds any size) */
};

/*
 * The set of an entry whose page number (in units of the entry's own
 * size) is key, in a level of `sets` sets: key mod sets, or when hashed
 * the high half of key times 2^64 / golden ratio, mod sets. The hash
 * stands for an unpublished index hash (Zen 2's skewed L2): it spreads
 * strided and linearly laid out pages as a real hash would, where a
 * modulo by a count that is not a power of two can alias them.
 */
static inline uint32_t model_set_of(uint64_t key, unsigned sets, int hashed)
{
	if (hashed)
		key = (key * 0x9e3779b97f4a7c15ull) >> 32;
	return (uint32_t)(key % sets);
}

/* Sets of lv (1 when fully associative); sets x ways entries are modelled. */
static inline unsigned model_level_sets(const struct model_level *lv)
{
	return lv->ways ? lv->entries / lv->ways : 1;
}

/* The entry size (enum model_psz) lv holds pages of size psz as: psz
 * itself when whole. */
static inline unsigned model_entry_psz(const struct model_level *lv, unsigned psz)
{
	return lv->held_as[psz] ? lv->held_as[psz] - 1u : psz;
}

/* Whether lv's ways are partitioned by entry size (part=). */
static inline int model_level_parted(const struct model_level *lv)
{
	for (unsigned s = 0; s < PSZ_N; s++)
		if (lv->part[s])
			return 1;
	return 0;
}

/*
 * The ways of each set of lv that pages of size psz may take: their
 * entry size's partition, else every way (the entries when fully
 * associative). A partitioned level is, for each entry size, a level of
 * model_level_sets() sets of that many ways: sizes never evict each other.
 */
static inline unsigned model_level_ways(const struct model_level *lv, unsigned psz)
{
	unsigned s = model_entry_psz(lv, psz);

	if (lv->part[s])
		return lv->part[s];
	return lv->ways ? lv->ways : lv->entries;
}

/* Entries of lv the model keeps: sets x ways, or x the partitions' ways. */
static inline unsigned model_level_modelled(const struct model_level *lv)
{
	unsigned ways = 0;

	for (unsigned s = 0; s < PSZ_N; s++)
		ways += lv->part[s];
	return model_level_sets(lv) * (ways ? ways : lv->ways ? lv->ways : lv->entries);
}

/*
 * What a Linux generic event counts on a machine, in the model's terms:
 * every access, the misses of the first or second data-TLB level that
 * holds the run's page size, or the accesses that missed them all (page
 * walks). MC_UNSUPPORTED: the CPU's driver maps no event to it.
 */
enum model_count { MC_UNSUPPORTED, MC_ACCESSES, MC_L1_MISSES, MC_L2_MISSES, MC_WALKS };

/*
 * The model's plain counter names, one row each: the enum model_count it
 * counts, the event name stored per task (a count), and its meaning. A
 * run stores these beside the generic names; a metric registry takes its
 * rows from here. "L1" and "L2" are the first and second levels that hold
 * the run's page size (Skylake's l1d-2m and stlb for 2 MiB pages).
 */
#define MODEL_PLAIN_COUNTERS(X) \
	X(MC_L1_MISSES, "l1-dtlb-misses", \
	  "lookups that missed the first data-TLB level holding the page size (its refills)") \
	X(MC_L2_MISSES, "l2-dtlb-misses", \
	  "lookups that missed the second data-TLB level holding the page size") \
	X(MC_WALKS, "dtlb-walks", \
	  "accesses that missed every data-TLB level: page-table walks, all completed")

struct model_machine {
	char name[32];		/* preset name, "custom" or "host" */
	char desc[160];		/* one line: the CPU */
	char source[640];	/* public sources of the figures */
	char inferred[640];	/* which figures are inferred, or "" */
	unsigned nlevels;
	struct model_level level[MODEL_LEVELS];
	int tag;		/* enum model_tag */
	unsigned cores;
	unsigned strands;	/* per core, sharing its TLB */
	double walk_cycles;	/* cost of one page walk (estimate) */
	double ghz;		/* clock, to turn cycles into an estimated time */
	const char *default_page;	/* page size for runs that do not name one */
	const char *arch;	/* "x86-64", "sparc64", "arm64", or NULL (custom) */
	unsigned arch_psz;	/* page sizes the architecture maps (1 << enum model_psz) */
	unsigned max_cores;	/* the most cores of a published part (--cores), 0: cores */
	int ev_loads;		/* enum model_count the driver's dTLB-loads counts */
	int ev_load_misses;	/* enum model_count the driver's dTLB-load-misses counts */
	char counters[480];	/* what the driver's events count here: file and line */
};

enum model_place { MPLACE_SMT, MPLACE_SPREAD, MPLACE_SAME_CPU };
#define MODEL_PLACE_CHOICES "smt|spread|same-cpu"

struct model_run {
	const struct workload_ops *ops;
	unsigned ntasks;
	int threads;		/* tasks are threads of one process (one address space) */
	int sharedctx;		/* the area's entries carry the shared context (ctx2) */
	unsigned psz;		/* enum model_psz of the area's pages */
	uint64_t pages;		/* working set per task, in pages */
	uint64_t rounds;
	uint64_t seed;
	struct wl_args wl;	/* the workloads' parameters */
	uint64_t quantum;	/* accesses before a time-sliced strand switches task */
	int place;		/* enum model_place */
	unsigned strands;	/* strands per core to use (0: all of the machine's) */
	uint64_t startup;	/* private pages each task touches once before its rounds */
	unsigned jitter;	/* 0: strands issue in turn (lockstep); N: a seeded order in
				   which each strand issues N times per period */
	unsigned words;		/* 0 or 1: one access per page of the stream; N (a power of two
				   up to MODEL_MAX_WORDS): N accesses at offsets i * page / N */
	/* A private heap per task (area 1), its pages of size heap_psz, 0
	   heap_pages: none. Its accesses follow the run's pattern over
	   heap_pages pages (a stream of its own: model_heap_params()), one
	   word per page, interleaved with the area's: after the area's
	   (post-start-up) access j = 1, 2, ... come model_heap_after(r, j)
	   heap accesses, so that heap_share percent of a task's accesses
	   after start-up are the heap's (within one). Heap page h of task i
	   is page MODEL_HEAP_PAGE0 + b + h of the task's own context, its set
	   in a level that of page number b + h, b = model_heap_base(): the
	   processes' heaps at one address (aligned to every level's reach),
	   the threads' (one address space) one after another. */
	unsigned heap_psz;
	uint64_t heap_pages;
	unsigned heap_share;	/* 1..99: percent of the accesses after start-up */
};

#define MODEL_MAX_WORDS 512
/* Areas of a run: 0 the shared area (and start-up pages), 1 the heap. */
#define MODEL_AREAS 2
/* Page number of heap page 0 in a key (below 2^32; start-up pages end below it). */
#define MODEL_HEAP_PAGE0 0xc0000000u
#define MODEL_MAX_HEAP_PAGES (1ull << 30)

/* What one task saw. */
struct model_task {
	unsigned core, strand;	/* where it ran */
	uint64_t accesses;	/* every access probes the TLB */
	uint64_t walks;		/* accesses that missed every level: page walks (dtlb-walks) */
	uint64_t probes[MODEL_LEVELS];	/* lookups made in each level */
	uint64_t misses[MODEL_LEVELS];	/* lookups that missed in each level */
	uint64_t switches;	/* times this task was switched in after another task */
	/* Per area (0: the shared area and start-up pages, 1: the heap), set
	   with a heap only: accesses, lookups that missed each level, walks.
	   The plain counters take each area's own L1 and L2. */
	uint64_t area_accesses[MODEL_AREAS];
	uint64_t area_misses[MODEL_AREAS][MODEL_LEVELS];
	uint64_t area_walks[MODEL_AREAS];
};

struct model_stats {
	unsigned ntasks;
	struct model_task *task;	/* ntasks entries, owned (model_stats_free) */
	uint64_t skipped_accesses;	/* accesses accounted by exact period skipping */
	uint64_t simulated_accesses;	/* accesses simulated one by one */
	uint64_t period_cycles;		/* length of the detected period (cycles), 0 none */
};

/*
 * Set-index shift of level lv for pages of size psz: log2 of the page
 * over the entry it is held as (1g held as 2m: 9), 0 when held whole.
 * Each access touches one word of its page (at its start), so a page held
 * as smaller entries takes one entry, whose set comes from the smaller
 * entry's page number: (page << shift) % sets, in both simulators.
 */
unsigned model_held_shift(const struct model_level *lv, unsigned psz);

/*
 * With --words N > 1, the key space of r's area: each access of page p at
 * word i (offset i * page / N) is key (p << shift) + (i << shift) / N,
 * where shift is the common model_held_shift() of the levels that hold
 * the page size (model_check refuses levels that differ), and the levels
 * index their sets by that key. 0 with one word per page.
 */
unsigned model_words_shift(const struct model_machine *m, const struct model_run *r);
/* Accesses of one task: start-up pages, then rounds * pages * words, and
 * the heap's interleaved (model_heap_accesses()). */
uint64_t model_task_accesses(const struct model_run *r);
/* Heap accesses of one task: model_heap_before() of all the area's. */
uint64_t model_heap_accesses(const struct model_run *r);
/* Heap accesses made after the area's first j accesses (after start-up):
 * floor(j * share / (100 - share)). */
uint64_t model_heap_before(const struct model_run *r, uint64_t j);
/* Heap accesses right after the area's access j (1-based). */
static inline uint64_t model_heap_after(const struct model_run *r, uint64_t j)
{
	return model_heap_before(r, j) - model_heap_before(r, j - 1);
}
/* The heap stream's parameters for task i: the run's pattern over
 * heap_pages pages, enough rounds for model_heap_accesses(), its own
 * seed. */
struct wl_params model_heap_params(const struct model_run *r, unsigned i);
/* The first page number of task i's heap: 0 for processes, which map
 * theirs at one address in their own address spaces; i x heap_pages for
 * threads, whose heaps are distinct pages of one address space. */
static inline uint64_t model_heap_base(const struct model_run *r, unsigned i)
{
	return r->threads ? (uint64_t)i * r->heap_pages : 0;
}
/* Page size of area a (0: r->psz, 1: r->heap_psz); areas in use: 1 or 2. */
static inline unsigned model_area_psz(const struct model_run *r, unsigned a)
{
	return a ? r->heap_psz : r->psz;
}
static inline unsigned model_areas(const struct model_run *r)
{
	return r->heap_pages ? 2 : 1;
}
/* Accesses of one round: pages * words. */
uint64_t model_round_accesses(const struct model_run *r);

/* Bytes of page size psz, and its name ("4k", "4m"). */
uint64_t model_psz_bytes(unsigned psz);
const char *model_psz_name(unsigned psz);
/* Parse "4k", "4m", "4M", "4194304" into *psz. Returns 0 or -EINVAL. */
int model_psz_parse(const char *s, unsigned *psz);
/* Write the sizes of mask as "8k,4m" into buf. Returns buf. */
char *model_psz_mask_str(unsigned mask, char *buf, size_t len);

/*
 * Parse a custom TLB description into m's levels, e.g.
 * "l1d:64,full,lru;l2:2048,8way,lru" with optional ",ps=4k+2m" (page
 * sizes held, default all) and ",hit=N" (cycles per probe). Returns 0 or
 * -EINVAL with a one-line reason in err.
 */
int model_parse_tlb(const char *spec, struct model_machine *m, char *err, size_t errlen);

/* A partitioned level's partitions against its geometry: every entry size
 * it holds (held_as applied) has one, none other, and they fit its ways.
 * 0, or -EINVAL with the reason in err. */
int model_check_part(const struct model_level *lv, char *err, size_t errlen);

/* Check m and r together (sizes, a level holding the page size, tasks vs
 * strands). Returns 0 or -EINVAL with the reason in err. */
int model_check(const struct model_machine *m, const struct model_run *r,
		char *err, size_t errlen);

/*
 * The issue order of a core whose busy strands are numbered 0..n-1: one
 * access per slot, slots repeating with period *len. Lockstep is 0..n-1;
 * with r->jitter = N each strand appears N times, shuffled by a stream
 * seeded from (seed, core). Returns a malloc'd array or NULL.
 */
unsigned *model_schedule(const struct model_run *r, unsigned core, unsigned n, unsigned *len);

/* Where task i runs: fills core[i], strand[i] for r on m. */
void model_place_tasks(const struct model_machine *m, const struct model_run *r,
		       unsigned *core, unsigned *strand);

/*
 * The fast simulator. Runs r on m and fills st (st->task allocated here).
 * For periodic workloads without random replacement it detects a repeated
 * state at round boundaries and skips whole periods exactly. Returns 0 or
 * -errno (-EINVAL for a bad configuration, -ENOMEM).
 */
int model_simulate(const struct model_machine *m, const struct model_run *r,
		   struct model_stats *st);

/* Entries of a core's loc table (dense ids times levels) beyond which the
 * fast simulator finds keys through hash indexes instead (level.h). A
 * variable only so that tests can force the hash indexes with 0. */
extern uint64_t model_loc_limit;

/* Whether the fast simulator may run narrow LRU levels by vector compares
 * (vec.c; 1, the default): the counts are the same either way, so only
 * tests set it to 0, to compare. model_vec_runs counts the runs of
 * periods made so (atomically: --jobs threads), so that they can tell the
 * path was taken. */
extern int model_vec;
extern uint64_t model_vec_runs;
/* Whether this CPU can take that path at all (x86-64 with SSE4.1). */
int model_vec_available(void);

/*
 * model_simulate() that calls fn(arg, done, total) every 2^20 issue slots
 * or so, with the accesses accounted so far and in all; fn may be NULL.
 */
typedef void model_progress_fn(void *arg, uint64_t done, uint64_t total);
int model_simulate_progress(const struct model_machine *m, const struct model_run *r,
			    struct model_stats *st, model_progress_fn *fn, void *arg);

/*
 * model_simulate_progress() on `jobs` threads (1..MODEL_MAX_JOBS), each
 * simulating whole cores: cores share nothing, so the result is the one
 * of one thread, bit for bit. fn is called from any of them, one at a
 * time, with the accesses of all cores so far.
 */
#define MODEL_MAX_JOBS 256
int model_simulate_jobs(const struct model_machine *m, const struct model_run *r,
			struct model_stats *st, model_progress_fn *fn, void *arg, unsigned jobs);

/* The brute-force reference: per-access, timestamps for LRU, linear scans,
 * no shortcuts. Same contract as model_simulate. */
int model_reference(const struct model_machine *m, const struct model_run *r,
		    struct model_stats *st);

/*
 * The reference's schedule and streams without its levels: fn(arg, core,
 * task, tag, page) is called for every access in the order the core's
 * TLB sees it (tag: the entry's context, as filled; page: the key's page
 * number with --words and held sizes applied as the levels see it), and
 * st gets each task's accesses, place and switches only. Tag none's
 * flushes are not reported: callers refuse that tag.
 */
typedef void model_observe_fn(void *arg, unsigned core, unsigned task, uint32_t tag, uint32_t page);
int model_reference_observe(const struct model_machine *m, const struct model_run *r,
			    struct model_stats *st, model_observe_fn *fn, void *arg);

void model_stats_free(struct model_stats *st);

/* Sum over tasks: walks, accesses. */
uint64_t model_total_walks(const struct model_stats *st);
uint64_t model_total_accesses(const struct model_stats *st);

/*
 * Levels that are a task's L1 and L2 for page size psz on m: the first and
 * second that hold it, or -1 (a machine with one level has no L2).
 */
void model_count_levels(const struct model_machine *m, unsigned psz, int *l1, int *l2);

/* What t counted as c (enum model_count) in run r: with a heap, the sum
 * over the areas of each one's L1 (L2) misses. Returns 0, or -ENOENT
 * when m has no such counter (unsupported, or an area without a second
 * level). */
int model_count_of(const struct model_machine *m, const struct model_run *r, const struct model_task *t,
		   int c, uint64_t *n);

/* Estimated cycles of one task's translations: probes * hit cycles of each
 * level plus walks * walk cycles. An estimate, not a measurement. */
double model_est_cycles(const struct model_machine *m, const struct model_task *t);

/* Presets: NULL-terminated; model_preset_find() copies one into *m. */
extern const struct model_machine *const model_presets[];
int model_preset_find(const char *name, struct model_machine *m);
/* Names joined by '|'. */
const char *model_preset_names(void);

struct sysinfo;
/* Build a machine from si's TLB geometry (CPUID etc.). Returns 0, or
 * -ENOENT when si has no data TLB (reason in err). */
int model_from_sysinfo(const struct sysinfo *si, struct model_machine *m,
		       char *err, size_t errlen);

/* Set m's ev_loads, ev_load_misses and counters note to what this
 * machine's Linux driver counts (by CPU vendor, family and arch), or
 * unsupported with the reason where that was not read. */
void model_host_counters(const struct sysinfo *si, struct model_machine *m);

/* How lv is organised, where the published entries are not all kept
 * alike: "170 sets x 12 ways (8 for 4k, 2 for 2m), 1700 of its 2048
 * entries modelled", into buf; NULL when every entry is modelled in ways
 * any size may take. */
const char *model_level_org(const struct model_level *lv, char *buf, size_t len);

/*
 * What the est-* estimates assume (model_est_cycles), e.g. "walk 35 cycles,
 * l2d lookup 7 cycles, 3.5 GHz": the walk cost, every level whose lookups
 * cost cycles, and the clock.
 */
char *model_costs_str(const struct model_machine *m, char *buf, size_t len);

/* One line per level, e.g. "l1d:128,full,nru,ps=8k+64k+4m+256m". */
char *model_tlb_str(const struct model_machine *m, char *buf, size_t len);

#endif
