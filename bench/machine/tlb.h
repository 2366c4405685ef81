/*
 * tlb.h - one TLB's geometry, as sysinfo reports it and the decoders in
 * cpuid.c produce it. Kept apart so that cpuid.h and sysinfo.h need not
 * include each other.
 */
#ifndef SGA_TLB_H
#define SGA_TLB_H

#include <stddef.h>

/* One TLB as decoded from CPUID (x86), a lookup table (arm64) or cpuinfo (sparc64). */
struct si_tlb {
	char name[16];		/* "l1d", "l1i", "l2", "l2d", "l2i" */
	char page_sizes[32];	/* "4k", "2m,4m", "1g" */
	unsigned entries;
	unsigned assoc;		/* ways; 0 means fully associative */
};

/* Describe one TLB as "64 entries, fully associative, 4k,2m,4m" into buf. */
const char *si_tlb_describe(const struct si_tlb *t, char *buf, size_t len);

#endif
