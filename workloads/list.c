/*
 * list.c - the explicit list of workloads. Alone in its file so that a
 * test binary can link its own list (a test-only workload beside these)
 * in place of this one.
 */
#include <stddef.h>
#include "workloads/workload.h"

extern const struct workload_ops wl_rounds, wl_random, wl_zipf, wl_chase;

/* Add a new pattern here: one file with its ops, one line in this list. */
const struct workload_ops *const workload_registry[] = {
	&wl_rounds,
	&wl_random,
	&wl_zipf,
	&wl_chase,
	NULL,
};
