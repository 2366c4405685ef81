/*
 * place_topo.h - the CPU topology that place_plan() works from, split out so
 * tests can plan on a made-up machine (place_plan_topo) while place_plan()
 * reads the real one (place_topo_read).
 */
#ifndef SGA_PLACE_TOPO_H
#define SGA_PLACE_TOPO_H

#include <stddef.h>
#include <stdint.h>
#include "machine/place.h"

#define PLACE_WORDS (PLACE_MAX_CPUS / 64)

struct place_topo {
	unsigned ncpus;				/* CPU ids 0..ncpus-1 are described */
	uint64_t online[PLACE_WORDS];		/* online CPUs */
	uint64_t allowed[PLACE_WORDS];		/* this process's affinity mask */
	int core[PLACE_MAX_CPUS];		/* core key (lowest sibling id); -1: own core */
	int node[PLACE_MAX_CPUS];		/* NUMA node; -1 unknown */
	int nnodes;				/* node ids are 0..nnodes-1 */
	unsigned smt;				/* SMT width of the machine (1: none) */
};

/* Fill t from sysfs, sched_getaffinity and libnuma. Returns 0 or -errno. */
int place_topo_read(struct place_topo *t);

/* place_plan() on the topology t instead of this machine's. */
int place_plan_topo(const struct place_topo *t, const struct place_spec *spec,
		    unsigned ntasks, int *cpu, char *err, size_t errlen);

#endif
