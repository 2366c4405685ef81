/*
 * lib/metrics.h - the run metrics, once. A row says what a metric is
 * called, its unit, which way is better, what kind of number it is, how
 * noise moves it, what else moves it, what it means, its KCIDB unit and which report sections
 * plot it. The backends set metrics by the row's enum (result_set_metric),
 * so a name outside this list does not compile; the output writers, the
 * KCIDB export, compare, 'sgabench metrics' and through it the scripts and
 * the report read the rest from here.
 *
 * A row is X(ENUM, "name", unit, DIR, KIND, NOISE, SCOPE, "kcidb unit",
 * plots, "meaning"). unit is how the human output prints the value: "B" (sizes),
 * "s", "1/s" (rates), "" (a plain number). Event totals (page-faults,
 * task-clock, ...) are not rows: perf names them (machine/perf.c).
 * Adding a metric is one row here plus the code that computes it.
 */
#ifndef SGA_LIB_METRICS_H
#define SGA_LIB_METRICS_H

#include <stddef.h>

/* Which way is better. compare leaves a metric with no direction out unless asked for it by name. */
enum metric_dir { DIR_LOWER, DIR_HIGHER, DIR_NEITHER };

/* What kind of number it is. */
enum metric_kind {
	KIND_COUNT,		/* a count read or added up exactly (faults, bytes, tasks) */
	KIND_TIME,		/* a duration measured on a clock */
	KIND_RATE,		/* a count over a measured duration */
	KIND_DERIVED,		/* computed from other values (spreads, ratios) */
	KIND_ESTIMATE,		/* counts priced at assumed costs (walk cycles, a clock): it
				 * restates them, so a deterministic backend's comparison
				 * judges the counts and leaves it out unless named */
};

/* How noise on the machine moves it. */
enum metric_noise {
	NOISE_BOTH,		/* either way, or not at all (exact counts) */
	NOISE_ONE_WAY,		/* only ever makes it worse (a busy machine only slows a run):
				 * compare judges its best runs, not its median */
};

/*
 * What besides the run moves it. The report never plots a load or system
 * metric over nights (the plot would show the machine's other jobs), and
 * the A/A noise table leaves system metrics out (a floor of a quantity
 * every process moves says nothing about a cell).
 */
enum metric_scope {
	SCOPE_RUN,		/* the run alone: its own counts, or CPU time it used */
	SCOPE_LOAD,		/* read off a wall clock: the machine's other jobs move it */
	SCOPE_SYSTEM,		/* a system-wide quantity: every process on the machine moves it */
};

/* The report sections that plot it (a bit set). */
enum metric_plot {
	PLOT_SCALING = 1,	/* the SGA scaling sweep: all tasks' median against tasks per layout */
	PLOT_SCALING_PER_TASK = 2, /* the same, divided by the tasks */
	PLOT_HISTORY = 4,	/* nightly history, relative to each cell */
	PLOT_FLEET = 8,		/* the same cells across machines, in row order: the first
				 * one measured on most machines is shown */
	PLOT_DESIGNS = 16,	/* the TLB designs table of a model sweep */
	PLOT_LAST = PLOT_DESIGNS,
};

#define METRIC_ROWS(X) \
	X(MET_ACCESSES_PER_S, "accesses-per-s", "1/s", DIR_HIGHER, KIND_RATE, NOISE_ONE_WAY, \
	  SCOPE_LOAD, "accesses/s", 0, \
	  "accesses of all tasks / the longest window (with --windows: the median window)") \
	X(MET_ACCESSES_PER_CPU_S, "accesses-per-cpu-s", "1/s", DIR_HIGHER, KIND_RATE, NOISE_ONE_WAY, \
	  SCOPE_RUN, "accesses/s", PLOT_HISTORY, \
	  "accesses of all tasks / their task-clock (CPU time, not wall; the median window)") \
	X(MET_ACCESSES_PER_CPU_S_BEST, "accesses-per-cpu-s-best", "1/s", DIR_HIGHER, KIND_RATE, \
	  NOISE_ONE_WAY, SCOPE_RUN, "accesses/s", PLOT_HISTORY | PLOT_FLEET, \
	  "the fastest task window: its accesses / its own task-clock") \
	X(MET_FIRST_TOUCH_FAULTS, "first-touch-faults", "", DIR_LOWER, KIND_COUNT, NOISE_BOTH, \
	  SCOPE_RUN, "faults", PLOT_SCALING | PLOT_HISTORY | PLOT_FLEET, \
	  "minor faults while each task touched its pages once") \
	X(MET_SGA_PTE_BYTES, "sga-pte-bytes", "B", DIR_LOWER, KIND_COUNT, NOISE_BOTH, SCOPE_RUN, "B", \
	  PLOT_SCALING | PLOT_HISTORY | PLOT_FLEET, \
	  "page tables the tasks added for the SGA: VmPTE from first touch to the window's end") \
	X(MET_PAGETABLES_DELTA_BYTES, "pagetables-delta-bytes", "B", DIR_LOWER, KIND_COUNT, \
	  NOISE_BOTH, SCOPE_SYSTEM, "B", PLOT_SCALING_PER_TASK, \
	  "system-wide PageTables change while the tasks are alive (every process moves it)") \
	X(MET_PTE_BYTES, "pte-bytes", "B", DIR_LOWER, KIND_COUNT, NOISE_BOTH, SCOPE_RUN, "B", \
	  PLOT_SCALING_PER_TASK | PLOT_HISTORY, \
	  "page-table memory (VmPTE) of all tasks, whole process, at the end of the window") \
	X(MET_STARTUP_S, "startup-s", "s", DIR_LOWER, KIND_TIME, NOISE_ONE_WAY, SCOPE_LOAD, "s", 0, \
	  "fork to every task attached and ready") \
	X(MET_TEARDOWN_DETACH_S, "teardown-detach-s", "s", DIR_LOWER, KIND_TIME, NOISE_ONE_WAY, \
	  SCOPE_LOAD, "s", 0, "release after the window to the last task's shmdt/munmap of the SGA done") \
	X(MET_TEARDOWN_EXIT_S, "teardown-exit-s", "s", DIR_LOWER, KIND_TIME, NOISE_ONE_WAY, SCOPE_LOAD, \
	  "s", 0, "release after the window to the last task reaped (detach and process exit)") \
	X(MET_TEARDOWN_REMOVE_S, "teardown-remove-s", "s", DIR_LOWER, KIND_TIME, NOISE_ONE_WAY, \
	  SCOPE_LOAD, "s", 0, \
	  "the parent's last detach and removal of the SGA: its pages freed (hugetlb: to the pool)") \
	X(MET_TEARDOWN_S, "teardown-s", "s", DIR_LOWER, KIND_TIME, NOISE_ONE_WAY, SCOPE_LOAD, "s", 0, \
	  "release after the window to the SGA removed: detach, exit, removal") \
	X(MET_TEARDOWN_PAGETABLES_FREED_BYTES, "teardown-pagetables-freed-bytes", "B", DIR_NEITHER, \
	  KIND_COUNT, NOISE_BOTH, SCOPE_SYSTEM, "B", 0, \
	  "system-wide PageTables before teardown minus after: every page table of the tasks' mms " \
	  "(noisy on a busy machine, exact on an idle guest)") \
	X(MET_TEARDOWN_TLB_SHOOTDOWNS, "teardown-tlb-shootdowns", "", DIR_LOWER, KIND_COUNT, \
	  NOISE_ONE_WAY, SCOPE_SYSTEM, "interrupts", 0, \
	  "system-wide TLB shootdown IPIs received over teardown (x86 TLB line; missing elsewhere)") \
	X(MET_TEARDOWN_IPIS, "teardown-ipis", "", DIR_LOWER, KIND_COUNT, NOISE_ONE_WAY, SCOPE_SYSTEM, \
	  "interrupts", 0, \
	  "system-wide function-call IPIs received over teardown (x86 CAL, arm64 IPI1 lines)") \
	X(MET_TEARDOWN_DETACH_INSTRUCTIONS, "teardown-detach-instructions", "", DIR_LOWER, \
	  KIND_COUNT, NOISE_BOTH, SCOPE_RUN, "instructions", 0, \
	  "instructions, kernel included, of all tasks in their detach of the SGA (not the exit)") \
	X(MET_WINDOW_S, "window-s", "s", DIR_LOWER, KIND_TIME, NOISE_ONE_WAY, SCOPE_LOAD, "s", 0, \
	  "the longest task's measured window (with --windows: the median window)") \
	X(MET_WALL_S, "wall-s", "s", DIR_LOWER, KIND_TIME, NOISE_ONE_WAY, SCOPE_LOAD, "s", \
	  PLOT_SCALING, "the whole run, set-up and first touch included") \
	X(MET_WINDOWS, "windows", "", DIR_NEITHER, KIND_COUNT, NOISE_BOTH, SCOPE_RUN, "windows", 0, \
	  "measured windows after one first touch (--windows)") \
	X(MET_WINDOW_ROUNDS, "window-rounds", "", DIR_NEITHER, KIND_COUNT, NOISE_BOTH, SCOPE_LOAD, \
	  "rounds", 0, "rounds per window, calibrated to --min-window (or --rounds)") \
	X(MET_WINDOW_S_SPREAD, "window-s-spread", "", DIR_NEITHER, KIND_DERIVED, NOISE_ONE_WAY, \
	  SCOPE_LOAD, "ratio", 0, "(max - min) / median of the windows' window-s") \
	X(MET_ACCESSES_PER_S_SPREAD, "accesses-per-s-spread", "", DIR_NEITHER, KIND_DERIVED, \
	  NOISE_ONE_WAY, SCOPE_LOAD, "ratio", 0, \
	  "(max - min) / median of the windows' accesses-per-s") \
	X(MET_ACCESSES_PER_CPU_S_SPREAD, "accesses-per-cpu-s-spread", "", DIR_NEITHER, KIND_DERIVED, \
	  NOISE_ONE_WAY, SCOPE_LOAD, "ratio", 0, \
	  "(max - min) / median of the windows' accesses-per-cpu-s") \
	X(MET_TEST_WORK, "test-work", "", DIR_NEITHER, KIND_COUNT, NOISE_BOTH, SCOPE_RUN, "units", 0, \
	  "TEST KNOB SGABENCH_TEST_WORK: extra work per access (a slowed run)") \
	X(MET_GENERATED_IN_WINDOW, "generated-in-window", "", DIR_NEITHER, KIND_COUNT, NOISE_BOTH, \
	  SCOPE_RUN, "flag", 0, "1: the access order was too long to pre-generate") \
	X(MET_SHAREDCTX_TASKS, "sharedctx-tasks", "", DIR_NEITHER, KIND_COUNT, NOISE_BOTH, SCOPE_RUN, \
	  "tasks", 0, "tasks whose mapping shows the shared-context smaps flag") \
	X(MET_MODEL_WALL_S, "model-wall-s", "s", DIR_LOWER, KIND_TIME, NOISE_ONE_WAY, SCOPE_LOAD, "s", \
	  0, "wall time the model took to simulate the run") \
	X(MET_MODEL_CPU_S, "model-cpu-s", "s", DIR_LOWER, KIND_TIME, NOISE_ONE_WAY, SCOPE_RUN, "s", 0, \
	  "CPU time the model took to simulate the run") \
	X(MET_MODEL_ACCESSES, "model-accesses", "", DIR_NEITHER, KIND_COUNT, NOISE_BOTH, SCOPE_RUN, \
	  "accesses", 0, "accesses of all tasks the model accounted for") \
	X(MET_MODEL_SIMULATED_ACCESSES, "model-simulated-accesses", "", DIR_NEITHER, KIND_COUNT, \
	  NOISE_BOTH, SCOPE_RUN, "accesses", 0, "of those, the accesses the model simulated one by one") \
	X(MET_MODEL_SKIPPED_ACCESSES, "model-skipped-accesses", "", DIR_NEITHER, KIND_COUNT, \
	  NOISE_BOTH, SCOPE_RUN, "accesses", 0, \
	  "of those, the accesses accounted by exact period skipping") \
	X(MET_MODEL_PERIOD_CYCLES, "model-period-cycles", "", DIR_NEITHER, KIND_COUNT, NOISE_BOTH, \
	  SCOPE_RUN, "slots", 0, \
	  "length of the detected period of the simulation in the core's issue slots (one access each; " \
	  "not clock cycles), 0 when none") \
	X(MET_MODEL_ACCESSES_PER_S, "model-accesses-per-s", "1/s", DIR_HIGHER, KIND_RATE, \
	  NOISE_ONE_WAY, SCOPE_LOAD, "accesses/s", 0, \
	  "model-accesses / model-wall-s: the model's own speed") \
	X(MET_DTLB_MISSES_PER_ROUND, "dtlb-misses-per-round", "", DIR_LOWER, KIND_DERIVED, NOISE_BOTH, \
	  SCOPE_RUN, "misses/round", 0, \
	  "dTLB-load-misses of all tasks / rounds, the event as the machine's Linux driver counts it " \
	  "(page walks on SPARC, L1 refills on Neoverse N1); absent on a custom TLB, which has no driver") \
	X(MET_EST_TRANSLATION_CYCLES, "est-translation-cycles", "", DIR_LOWER, KIND_ESTIMATE, \
	  NOISE_BOTH, SCOPE_RUN, "cycles", 0, \
	  "estimated cycles spent in address translation: page walks times the walk cost (sim " \
	  "--walk-cycles, else the preset's), plus each level's lookups times its lookup cost (--tlb " \
	  "hit=, else the preset's)") \
	X(MET_EST_TRANSLATION_S, "est-translation-s", "s", DIR_LOWER, KIND_ESTIMATE, NOISE_BOTH, \
	  SCOPE_RUN, "s", PLOT_DESIGNS, "est-translation-cycles at the run's assumed clock (sim --ghz, " \
	  "else the preset's; stored as its machine's ghz)") \
	X(MET_EST_TRANSLATION_NS_PER_ACCESS, "est-translation-ns-per-access", "", DIR_LOWER, \
	  KIND_ESTIMATE, NOISE_BOTH, SCOPE_RUN, "ns/access", 0, "est-translation-s per access, in ns") \
	X(MET_MODEL_CYCLES, "model-cycles", "", DIR_LOWER, KIND_COUNT, NOISE_BOTH, SCOPE_RUN, "cycles", \
	  0, "--timing only: simulated cycles of the run, the latest strand clock at its end (strands " \
	  "run side by side, so not their sum)") \
	X(MET_MODEL_STALL_CYCLES, "model-stall-cycles", "", DIR_LOWER, KIND_COUNT, NOISE_BOTH, \
	  SCOPE_RUN, "cycles", 0, "--timing only: cycles the strands stalled beyond --access-cycles " \
	  "per access, tick handlers' included (lower-level hits, walks, waits for a walk), summed") \
	X(MET_MODEL_TICKS, "model-ticks", "", DIR_NEITHER, KIND_COUNT, NOISE_BOTH, SCOPE_RUN, "ticks", \
	  0, "--timing only: timer ticks (--hz) all strands took: floor(strand cycles * hz / clock) each") \
	X(MET_MODEL_TICK_ACCESSES, "model-tick-accesses", "", DIR_NEITHER, KIND_COUNT, NOISE_BOTH, \
	  SCOPE_RUN, "accesses", 0, "--timing only: the tick handlers' kernel accesses (--tick-entries " \
	  "a tick), not in the tasks' counters") \
	X(MET_MODEL_TICK_MISSES, "model-tick-misses", "", DIR_LOWER, KIND_COUNT, NOISE_BOTH, SCOPE_RUN, \
	  "misses", 0, "--timing only: of those, the ones that missed the first level holding the page " \
	  "size") \
	X(MET_MODEL_TICK_WALKS, "model-tick-walks", "", DIR_LOWER, KIND_COUNT, NOISE_BOTH, SCOPE_RUN, \
	  "walks", 0, "--timing only: of those, the ones that missed every level (page walks)") \
	X(MET_MODEL_MERGED_WALKS, "model-merged-walks", "", DIR_NEITHER, KIND_COUNT, NOISE_BOTH, \
	  SCOPE_RUN, "walks", 0, "--timing only: misses that waited for another strand's walk of the " \
	  "same entry (--inflight wait), counted as neither miss nor walk")

#define METRIC_ENUM(e, ...) e,
enum metric_id { METRIC_ROWS(METRIC_ENUM) MET_N };
#undef METRIC_ENUM

struct metric_def {
	const char *name;
	const char *unit;	/* "B", "s", "1/s" or "" */
	enum metric_dir dir;
	enum metric_kind kind;
	enum metric_noise noise;
	enum metric_scope scope;
	const char *kcidb_unit;
	unsigned plot;		/* enum metric_plot bits */
	const char *meaning;
};

/* The rows, indexed by enum metric_id. */
extern const struct metric_def metric_defs[MET_N];

/* The metric called name, or -1 when the registry has no such row. */
int metric_find(const char *name);

/*
 * Whether name is a metric one can ask for: a row of the registry, or
 * among have[0..n), the names the runs asked about store (perf events and
 * a model's per-level counts are named by the run, not by this registry).
 * Returns 1 when it is; else 0, after printing "WHO: --metric 'NAME': no
 * such metric" with the stored names that are not registry rows, and a
 * hint naming the closest name (a misspelling: within a third of its
 * length in single-character edits) when there is one.
 */
int metric_check(const char *who, const char *name, const char *const *have, size_t n);

/*
 * The registry's name or have[0..n) nearest to name (a misspelling of
 * it: within a third of its length in single-character edits), NULL if
 * none is that near.
 */
const char *metric_nearest(const char *name, const char *const *have, size_t n);

/*
 * The unit of event total e (which perf names, not this registry): ns for
 * task-clock and cpu-clock, else what it counts (faults, cycles, ...,
 * "events"). The human output and the KCIDB export both print it.
 */
const char *metric_event_unit(const char *e);

/* Whether name is a registry metric where higher is better (0 for any other name, events too). */
int metric_higher_better(const char *name);

/* Whether some way is better for name: not a DIR_NEITHER row (events are better lower). */
int metric_has_direction(const char *name);

/*
 * A model level's own count of lookups that missed it, named after the
 * level (--tlb, the presets' level names): "model-" LEVEL "-misses". It is
 * not a registry row (the run names it), and it breaks down the plain
 * counters l1-dtlb-misses, l2-dtlb-misses and dtlb-walks (model/model.h).
 */
#define METRIC_LEVEL_EVENT_FMT "model-%.40s-misses"

/* Whether c may be in a level's name (--tlb): it becomes an event name
 * and a word of the cell, so no space, '=', ';' or ','. */
int metric_level_name_char(char c);

/* Whether name is METRIC_LEVEL_EVENT_FMT of a level name of such characters. */
int metric_level_event(const char *name);

/*
 * Whether name restates other counts of its run: a KIND_ESTIMATE row, or
 * a level's own misses (METRIC_LEVEL_EVENT_FMT; the registry's
 * model-tick-misses is a count of its own). Judged by default beside what
 * it restates, one change of a deterministic backend would count twice.
 */
int metric_restates(const char *name);

/* Whether name is a registry metric that noise only makes worse (NOISE_ONE_WAY). */
int metric_one_way(const char *name);

/* "lower", "higher", "neither"; "count", "time", "rate", "derived", "estimate"; "both", "one-way". */
const char *metric_dir_name(enum metric_dir d);
const char *metric_kind_name(enum metric_kind k);
const char *metric_noise_name(enum metric_noise n);
/* "run", "load", "system". */
const char *metric_scope_name(enum metric_scope s);

/* The name of plot bit p ("scaling", "scaling-per-task", "history", "fleet", "designs"), or NULL. */
const char *metric_plot_name(unsigned p);

#endif
