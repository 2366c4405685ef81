/*
 * curve.h - single-pass design curves (`sim --sweep-entries A..B`): the
 * misses of a run's first TLB level for every size in A..B from one pass
 * over the accesses, by Mattson's stack algorithm (Mattson, Gecsei, Slutz
 * and Traiger, "Evaluation techniques for storage hierarchies", IBM
 * Systems Journal 9(2), 1970).
 *
 * Why one pass is exact: the first level that holds the page size sees
 * every access (a hit fills nothing above it, a walk or a lower hit fills
 * it), and its contents depend on the order of accesses only, which the
 * scheduler fixes whatever the TLB holds (fills are instantaneous). An LRU
 * set of w ways holds the w most recently used distinct keys of its set,
 * so an access hits iff fewer than w other keys of its set were used
 * since its previous use (its stack distance): one distance per access
 * answers every w at once. A fully associative level is one set, so every
 * entry count; a set-associative one keeps its set count and gives every
 * way count, i.e. the entry counts in A..B that are multiples of its sets.
 *
 * Refused: replacement other than LRU (NRU and random have no inclusion
 * property), and tag none (its flushes leave holes that break it).
 */
#ifndef SGA_MODEL_CURVE_H
#define SGA_MODEL_CURVE_H

#include <stddef.h>
#include <stdint.h>
#include "model/model.h"

/* The largest entry count a sweep may reach, and the most tasks times
 * distances it keeps (a histogram per task). */
#define CURVE_MAX_ENTRIES (1u << 20)
#define CURVE_MAX_CELLS (1ull << 27)

struct model_curve {
	unsigned level;		/* index in m->level of the swept level */
	unsigned sets;		/* its set count, kept (1: fully associative) */
	unsigned n;		/* sizes */
	unsigned *entries;	/* n entry counts, ascending, each sets * ways */
	unsigned ntasks;
	uint64_t *accesses;	/* per task: lookups of the level (every access) */
	uint64_t *misses;	/* [task * n + j]: the task's misses of the level at entries[j] */
};

/*
 * Sweep the first level of m that holds r's page size over the entry
 * counts lo..hi (multiples of its set count when set-associative) on run
 * r. Returns 0, -EINVAL with the reason in err (a refused level, tag or
 * range), or -ENOMEM. model_curve_free() after success.
 */
int model_curve(const struct model_machine *m, const struct model_run *r, unsigned lo, unsigned hi,
		struct model_curve *cv, char *err, size_t errlen);
void model_curve_free(struct model_curve *cv);

/* The machine m with its level k at `entries` entries and `sets` sets
 * (ways = entries / sets; fully associative when sets is 1 and k was):
 * the configuration that one point of a curve stands for. */
void model_curve_machine(const struct model_machine *m, unsigned k, unsigned sets, unsigned entries,
			 struct model_machine *out);

#endif
