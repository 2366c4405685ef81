/*
 * cpuid.h - TLB geometry decoders. The x86 decoders take raw CPUID register
 * values, so they can be tested on any machine with hand-made constants;
 * cpuid_read() is the only part that executes the instruction.
 */
#ifndef SGA_CPUID_H
#define SGA_CPUID_H

#include <stdint.h>
#include "machine/tlb.h"

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

/* Execute CPUID leaf/subleaf into *r. Returns 0, or -ENOSYS when not x86. */
int cpuid_read(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r);

/*
 * Ways for an AMD 4-bit associativity code (CPUID 0x80000006 / 0x80000019):
 * returns the way count, 0 for fully associative, or -1 for "disabled" (0)
 * and reserved codes.
 */
int cpuid_amd_l2_assoc(unsigned code);

/*
 * Decode the AMD TLB leaves 0x80000005 (l5), 0x80000006 (l6) and
 * 0x80000019 (l19; NULL when the CPU lacks it) into up to max TLBs at out.
 * Entries with no TLB (zero entries, disabled) are left out; a 4k and a
 * 2m/4m entry with the same level, entries and ways are merged into one
 * ("4k,2m,4m"), as AMD's L1 TLBs hold every page size in one structure.
 * Returns the number written.
 */
unsigned cpuid_amd_tlbs(const struct cpuid_regs *l5, const struct cpuid_regs *l6,
			const struct cpuid_regs *l19, struct si_tlb *out, unsigned max);

/*
 * Decode Intel's deterministic address translation leaf 0x18: sub[i] is
 * subleaf i, n of them (sub[0].eax is the highest valid subleaf). Invalid
 * subleaves (type 0) are skipped. Returns the number of TLBs written.
 */
unsigned cpuid_intel_tlbs18(const struct cpuid_regs *sub, unsigned n,
			    struct si_tlb *out, unsigned max);

/*
 * Decode Intel's leaf 0x2 descriptor bytes (the common TLB descriptors of
 * the SDM table; cache descriptors and unknown ones are ignored). r is the
 * leaf's output. Returns the number of TLBs written.
 */
unsigned cpuid_intel_tlbs2(const struct cpuid_regs *r, struct si_tlb *out, unsigned max);

/*
 * Look up an arm64 core by MIDR implementer and part number. Fills *name
 * (a static string) and the TLBs. Returns the number of TLBs, 0 if unknown.
 */
unsigned arm64_tlbs(unsigned implementer, unsigned part, const char **name,
		    struct si_tlb *out, unsigned max);

/*
 * sparc64 TLBs from cpuinfo's "cpu" and "MMU PGSZs" lines: the page sizes,
 * and the entry counts where a small table knows the CPU (OpenSPARC T1
 * and T2 specifications: 64-entry iTLB, 64-entry (T1) or 128-entry (T2)
 * dTLB, fully associative); elsewhere entries are 0 (unknown).
 * Returns the number of TLBs written (the l1d and the l1i).
 */
unsigned sparc_tlbs(const char *cpu, const char *pgszs, struct si_tlb *out, unsigned max);


#endif
