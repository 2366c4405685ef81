/*
 * workload.h - access patterns behind one ops table.
 *
 * A workload only says *which page* each access touches, in order, for one
 * task. The native backend turns that order into loads on the real SGA; the
 * TLB model feeds the same order to its simulated TLB. Nothing here touches
 * the SGA, so the model can run any workload without memory.
 *
 * Every stream is deterministic for (pattern, pages, rounds, seed, task).
 * A "round" is `pages` accesses; a stream has rounds * pages accesses.
 */
#ifndef SGA_WORKLOAD_H
#define SGA_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include "lib/opt.h"
#include "lib/rng.h"

/* Each round is the same sequence of `pages` accesses (replayable, and the
 * model may detect a repeating state at round boundaries). */
#define WL_PERIODIC	0x1
/* Native runs this as a dependent pointer chase through the SGA: the
 * workload's prepare() writes the chain, and loads follow it. */
#define WL_DEPENDENT	0x2

/*
 * Every workload's parameters: one slot per workload of the registry, in
 * its order, that holds the workload's own struct. A backend's
 * configuration carries one, filled from workload_option_rows(); a
 * stream sees its workload's slot as s->opts.
 */
#define WL_ARGS_SLOTS 8
#define WL_ARGS_SLOT_SIZE 32
struct wl_args {
	_Alignas(16) unsigned char slot[WL_ARGS_SLOTS][WL_ARGS_SLOT_SIZE];
};

struct wl_params {
	uint64_t pages;		/* pages in the task's working set (>= 1, < 2^32) */
	uint64_t rounds;	/* rounds; the stream has rounds * pages accesses */
	uint64_t seed;		/* run seed; each task derives its own stream */
	unsigned task;		/* this task's index, 0..ntasks-1 */
	unsigned ntasks;
	const struct wl_args *args;	/* the parameters; NULL: every default */
};

struct workload_ops;

struct wl_stream {
	const struct workload_ops *ops;
	struct wl_params p;
	uint64_t pos;		/* accesses produced so far */
	uint64_t total;		/* rounds * pages */
	struct rng rng;		/* per-task stream, seeded from (seed, task) */
	const void *opts;	/* the workload's struct of parameters (its .options), or NULL */
	void *priv;		/* the workload's own state, freed by close() */
};

struct workload_ops {
	const char *name;
	const char *help;		/* one line for --help and `sgabench workloads` */
	unsigned flags;			/* WL_PERIODIC, WL_DEPENDENT */
	/*
	 * Its parameters, as fio's engines declare theirs: option rows
	 * (NULL-terminated; NULL: none) with .off into its own struct of at
	 * most WL_ARGS_SLOT_SIZE bytes, which open() finds at s->opts. Every
	 * backend takes them as options of `run` and `sim`; a row's .cell and
	 * .conf put the value in the cell and the stored configuration (give
	 * a new one OPT_IF_CHANGED, so that the cells of older runs stay).
	 */
	const struct opt *options;
	/* Check the parameters at opts beyond their rows' ranges; 0 or
	 * -EINVAL with a one-line reason in err. May be NULL. */
	int (*check)(const void *opts, char *err, size_t errlen);
	/* Set up s->priv for s->p. Returns 0 or -errno (-ENOMEM, -EINVAL). */
	int (*open)(struct wl_stream *s);
	/* Write the next up-to-n page indices to out; returns how many (0 at end). */
	size_t (*fill)(struct wl_stream *s, uint32_t *out, size_t n);
	/* Free what open() allocated. May be NULL. */
	void (*close)(struct wl_stream *s);
};

/* The explicit registry (workloads/registry.c). NULL-terminated. */
extern const struct workload_ops *const workload_registry[];

/* Look up a workload by name; NULL if unknown. */
const struct workload_ops *workload_find(const char *name);

/* Names of all workloads joined by '|', for option choices and errors. */
const char *workload_names(void);

/* One OPT_ROWS row per workload with parameters, into struct wl_args: the
 * .rows_fn of the row a backend puts at its struct wl_args. */
const struct opt *workload_option_rows(void);

/* Every parameter of every workload at its default, into args. */
void workload_default_args(struct wl_args *args);

/* Run every workload's check on args; 0 or -EINVAL with the reason in err. */
int workload_check_args(const struct wl_args *args, char *err, size_t errlen);

/*
 * Open a stream for ops with params p. Validates p (pages 1..2^32-1,
 * rounds >= 1, ntasks >= 1, task < ntasks) and returns 0 or -errno.
 */
int wl_open(struct wl_stream *s, const struct workload_ops *ops, const struct wl_params *p);
/* Next up-to-n page indices; 0 at end of stream. */
size_t wl_fill(struct wl_stream *s, uint32_t *out, size_t n);
/* Release the stream. Safe to call twice. */
void wl_close(struct wl_stream *s);

#endif
