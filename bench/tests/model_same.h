/*
 * model_same.h - for the model's tests: whether two runs' per-task counts
 * (struct model_task: accesses, walks, probes, misses, switches) are equal,
 * bit for bit.
 */
#ifndef SGA_TESTS_MODEL_SAME_H
#define SGA_TESTS_MODEL_SAME_H

#include <string.h>
#include "model/model.h"

static inline int tasks_same(const struct model_stats *a, const struct model_stats *b)
{
	if (a->ntasks != b->ntasks)
		return 0;
	for (unsigned i = 0; i < a->ntasks; i++)
		if (memcmp(&a->task[i], &b->task[i], sizeof(a->task[i])) != 0)
			return 0;
	return 1;
}

#endif
