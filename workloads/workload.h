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
#include "lib/rng.h"

/* Each round is the same sequence of `pages` accesses (replayable, and the
 * model may detect a repeating state at round boundaries). */
#define WL_PERIODIC	0x1
/* Native runs this as a dependent pointer chase through the SGA: the
 * workload's prepare() writes the chain, and loads follow it. */
#define WL_DEPENDENT	0x2

/* The one valid range of --zipf-theta, for every command (1 is excluded). */
#define WL_ZIPF_THETA_MIN 0.01
#define WL_ZIPF_THETA_MAX 10.0

struct wl_params {
	uint64_t pages;		/* pages in the task's working set (>= 1, < 2^32) */
	uint64_t rounds;	/* rounds; the stream has rounds * pages accesses */
	uint64_t seed;		/* run seed; each task derives its own stream */
	unsigned task;		/* this task's index, 0..ntasks-1 */
	unsigned ntasks;
	double zipf_theta;	/* zipf skew, WL_ZIPF_THETA_MIN..MAX and not 1; 0.99 is YCSB's default */
};

struct workload_ops;

struct wl_stream {
	const struct workload_ops *ops;
	struct wl_params p;
	uint64_t pos;		/* accesses produced so far */
	uint64_t total;		/* rounds * pages */
	struct rng rng;		/* per-task stream, seeded from (seed, task) */
	void *priv;		/* the workload's own state, freed by close() */
};

struct workload_ops {
	const char *name;
	const char *help;		/* one line for --help and `sgabench workloads` */
	unsigned flags;			/* WL_PERIODIC, WL_DEPENDENT */
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
