/*
 * sim_int.h - the fast simulator's state, shared by sim.c (the run: tasks,
 * cores, counts), core.c (a core's set-up), access.h and step.c (the inner
 * loop), sched.c (the scheduler) and period.c (exact period detection and
 * skipping). Internal to bench/model.
 */
#ifndef SGA_MODEL_SIM_INT_H
#define SGA_MODEL_SIM_INT_H

#include <stddef.h>
#include <stdint.h>
#include "model/level.h"
#include "model/model.h"

/* Page indices a task's stream is read in at a time. */
#define CHUNK 512

struct ftask {
	struct wl_stream s;
	uint32_t *buf;
	unsigned bpos, blen;	/* next index in buf, indices in it (0 while start-up pages remain) */
	unsigned words, wshift;	/* accesses per page of the stream, and model_words_shift() */
	uint64_t left, init_left;
	uint64_t startup_left;	/* private start-up pages still to touch */
	uint64_t pkey;		/* tag of private pages */
	uint32_t proc;
	uint64_t key0, key1, ikey;	/* tags, shifted into place */
	int has1;
	uint32_t idbase, pidbase;	/* dense id of area page 0, of start-up page 0 */
	uint64_t hit[MODEL_LEVELS + 1];	/* accesses that first hit probed level u; [nlv]: walks */
	struct fheap *heap;	/* the run's heap (multi.c), or NULL */
};

/*
 * A task's private heap (model_run.heap_pages) and what it takes to
 * interleave it (multi.c): its stream, read in blocks; the area's
 * accesses so far and the heap accesses due before the area's next; and
 * per area the accesses and where they first hit (the area's probed
 * levels, struct fmulti), [n]: walks.
 */
struct fheap {
	struct wl_stream s;
	uint32_t *buf;
	unsigned bpos, blen;
	uint64_t owed;
	unsigned rem;		/* (the area's accesses so far) x share mod (100 - share) */
	uint32_t base;		/* the heap's first page number (model_heap_base()) */
	uint32_t hidbase;	/* dense id of heap page 0 (with struct fmulti's loc) */
	uint64_t acc[MODEL_AREAS];
	uint64_t hit[MODEL_AREAS][MODEL_LEVELS + 1];
};

/* A core of a run with a heap: which of its levels (lv[]) each area
 * probes, in order, and with what set-index shift; the machine level and
 * page size each of lv[] was made for; and its own loc table (level.h:
 * id -> way + 1 in each of lv[]), or NULL for the levels' hash indexes.
 * The core's loc stays NULL, so that the single-size path's dispatch
 * sends its accesses here (step.c). */
struct fmulti {
	unsigned n[MODEL_AREAS];
	unsigned u[MODEL_AREAS][MODEL_LEVELS];
	unsigned shift[MODEL_AREAS][MODEL_LEVELS];
	unsigned k[MODEL_LEVELS], psz[MODEL_LEVELS];
	uint32_t *loc;
};

struct fstrand {
	unsigned s;		/* strand number */
	unsigned *q;		/* its tasks in index order */
	unsigned n, cur;
	int idle;
	uint64_t qleft;
};

struct fcore {
	const struct model_machine *m;
	const struct model_run *r;
	struct model_stats *st;
	struct ftask *t;	/* all tasks */
	struct flevel lv[MODEL_LEVELS];
	unsigned nlv;
	int multi;		/* a run with a heap: no loc, access_multi() (multi.c) */
	struct fmulti mu;
	uint32_t *loc;		/* id -> way + 1 in each level (level.h), or NULL */
	uint64_t *tags, span;	/* the tag of ids n * span .. n * span + span - 1 is tags[n] */
	struct fstrand *sd;
	unsigned nsd;
	unsigned *tasks;	/* the tasks on this core, in index order */
	unsigned ntasks;
	unsigned *sched, slen;	/* issue order (model_schedule) */
	struct ftask **flat;	/* run_quiet: the tasks of the busy slots from spos on, in
				   issue order, `reps` periods over: nflat in all */
	unsigned nflat, reps;
	uint64_t pos;		/* slots issued so far */
	unsigned spos;		/* pos modulo slen: the next slot */
	unsigned nbusy;		/* strands not idle */
	model_progress_fn *progress;	/* or NULL */
	void *progress_arg;
	uint64_t done_before, total;	/* accesses of the cores before this one; of the run */
};

/* Set up core cn: its tasks (placed in core[] and strand[]), strands,
 * levels and loc table. Returns 0 or -ENOMEM; core_free() either way. */
/* Dense ids for core c's keys, with extra pages per tag (core.c). */
uint64_t core_number_ids(struct fcore *c, uint64_t extra);
int core_init(struct fcore *c, unsigned cn, const unsigned *core, const unsigned *strand);
void core_free(struct fcore *c);
/* Simulate core cn to the end (sched.c); periodic: look for a repeated
 * state and skip whole periods (period.c). Returns 0 or -ENOMEM. */
int run_core(struct fcore *c, unsigned cn, int periodic);
/* multi.c: a core of a run with a heap: its levels, one per level and
 * partition the areas take, behind hash indexes (0 or -ENOMEM); one
 * access; a task's heap (0 or -errno), freed by heap_free(); and the
 * task's counts per level and area from its fheap. */
int core_init_multi(struct fcore *c, unsigned cn);
void access_multi(struct fcore *c, struct ftask *t);
int heap_init(struct ftask *t, const struct model_run *r, unsigned i);
void heap_free(struct ftask *t);
void heap_counts(const struct model_machine *m, const struct model_run *r, const struct ftask *t,
		 struct model_task *mt);
/* One access of task t on core c, whatever the core (step.c). */
void access_one(struct fcore *c, struct ftask *t);
/* `periods` issue periods of the tasks in c->flat (c->nflat of them,
 * c->reps periods' worth), compiled for the core's level kinds (step.c). */
void run_periods(struct fcore *c, uint64_t periods);

struct detect {
	int on;
	size_t size;
	unsigned char *saved, *now;
	struct model_task *saved_st;	/* per task on the core: switches */
	uint64_t (*saved_hit)[MODEL_LEVELS + 1];	/* per task on the core: ftask.hit */
	uint64_t *saved_left;
	uint16_t *order;	/* one set's recency order, for state_write */
	uint64_t saved_pos, last_ck, power, lam;
	uint64_t last_seen;	/* the anchor's progress at the last look */
	int have;
};

/* Start detection for core c (state size from its levels, strands and
 * tasks). d->on must be set by the caller. Returns 0 or -ENOMEM. */
int period_init(struct detect *d, const struct fcore *c);
void period_free(struct detect *d);
/* Before each slot: at a round boundary of the core's first task, compare
 * the state with the saved one; on a repeat, skip whole periods and stop. */
void period_check(struct fcore *c, struct detect *d);

#endif
