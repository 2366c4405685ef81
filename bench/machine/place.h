/*
 * place.h - where tasks run and where the SGA's memory lives.
 * Built on the sysfs CPU topology and libnuma.
 */
#ifndef SGA_PLACE_H
#define SGA_PLACE_H

#include <stddef.h>
#include <stdint.h>

#define PLACE_MAX_CPUS 4096

enum place_mode {
	PLACE_NONE,		/* no pinning: the scheduler decides */
	PLACE_SAME_CPU,		/* every task on one CPU (time-sliced, one TLB) */
	PLACE_SMT,		/* fill hyperthread siblings of a core first (they share a TLB) */
	PLACE_SPREAD,		/* one task per core first, then siblings */
	PLACE_NODE,		/* round-robin over the CPUs of NUMA node `node` */
};

struct place_spec {
	enum place_mode mode;
	int node;		/* for PLACE_NODE */
	const char *cpus;	/* optional CPU list restricting the choice, e.g. "0-3" */
};

/*
 * Parse "none|same-cpu|smt|spread|node:N" into spec (cpus untouched).
 * Returns 0 or -EINVAL.
 */
int place_parse(const char *s, struct place_spec *spec);

/*
 * Choose a CPU for each of ntasks tasks: cpu[i] for task i, or -1 for
 * "not pinned" (PLACE_NONE without a CPU list). Only CPUs that are online
 * and in this process's affinity mask are used. Returns 0, or EX_USAGE
 * (bad list, CPU offline/not allowed, node out of range) or EX_RESOURCE
 * (e.g. smt asked for on a machine without SMT), with a message in err.
 */
int place_plan(const struct place_spec *spec, unsigned ntasks, int *cpu,
	       char *err, size_t errlen);

/* Pin the calling thread to cpu (no-op for -1). Returns 0 or -errno. */
int place_pin(int cpu);

/* Number of configured NUMA nodes (1 when libnuma says NUMA is unavailable). */
int place_numa_nodes(void);

/*
 * Bind [addr, addr+len) to NUMA node `node` (mbind MPOL_BIND). Call before
 * the creator prefaults it. Returns 0, -EINVAL (bad node) or -errno.
 */
int place_bind_memory(void *addr, size_t len, int node);

/*
 * Check /proc/self/numa_maps: how many pages of the mapping at addr sit on
 * node `node` versus elsewhere. Returns 0 and fills *on and *off, or -errno.
 */
int place_check_numa_maps(void *addr, int node, uint64_t *on, uint64_t *off);

#endif
