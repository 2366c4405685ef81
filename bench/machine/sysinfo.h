/*
 * sysinfo.h - what this machine is: the record stored with every run and
 * the fingerprint that decides which runs may be compared.
 */
#ifndef SGA_SYSINFO_H
#define SGA_SYSINFO_H

#include <stdint.h>
#include <stdio.h>
#include "machine/tlb.h"

struct json;

#define SI_TLB_MAX 12
#define SI_POOL_MAX 4


/* A hugetlb pool from /sys/kernel/mm/hugepages/hugepages-<size>kB. */
struct si_pool {
	uint64_t page_size;	/* bytes */
	long total, free, resv, surplus;
};

struct sysinfo {
	char hostname[64];
	char machine_name[64];	/* SGABENCH_MACHINE, else the hostname: not in the fingerprint */
	char arch[16];		/* uname -m */
	char cpu_vendor[32];
	char cpu_model[128];
	char microcode[32];
	unsigned family, model, stepping;
	unsigned ncpus;		/* online CPUs */
	unsigned threads_per_core;	/* SMT width; 1 when off */
	unsigned numa_nodes;	/* node ids 0..N-1 (place_numa_nodes: numa_max_node()+1) */
	unsigned ntlb;
	struct si_tlb tlb[SI_TLB_MAX];
	char tlb_source[32];	/* "cpuid", "table", "cpuinfo", "unknown" */
	unsigned npool;
	struct si_pool pool[SI_POOL_MAX];
	char thp[16];		/* always | madvise | never | unknown */
	char shmem_thp[16];	/* /sys/kernel/mm/transparent_hugepage/shmem_enabled */
	char kernel[128];	/* uname -r */
	char kernel_variant[128];	/* SGABENCH_KERNEL_VARIANT, else derived (lib/kver.h): not in
					 * the fingerprint (the release and command line are) */
	char boot_id[40];	/* /proc/sys/kernel/random/boot_id: this boot, "" unknown;
				 * not in the fingerprint (each run keeps its own, run.boot_id) */
	char cmdline[2048];	/* /proc/cmdline (x86 COMMAND_LINE_SIZE) */
	char governor[32];	/* cpu0 scaling governor, or "none" */
	int paranoid;		/* perf_event_paranoid */
	int is_vm;		/* hypervisor present */
	char hypervisor[32];	/* CPUID hypervisor vendor, or "" */
	int has_core_pmu;	/* a hardware PMU exists under /sys/bus/event_source/devices */
	char core_pmu[32];	/* its name, e.g. "cpu", "armv8_pmuv3_0", or "" */
	char fingerprint[17];	/* 16 hex digits over the identity fields */
};

/* Fill si from this machine. Never fails: unknown fields are "" or 0. */
void sysinfo_collect(struct sysinfo *si);

/* Recompute si->fingerprint from its identity fields: CPU vendor, model,
 * family/model/stepping, microcode, TLB geometry, SMT, NUMA nodes, hugepage
 * pool page sizes (which pools exist, not their counts: reserving hugepages
 * must not make a new machine), THP mode, kernel release and command line,
 * perf_event_paranoid, VM-ness and governor; also arch, online CPUs and the
 * core PMU name. Not the hostname. */
void sysinfo_fingerprint(struct sysinfo *si);

/*
 * Whether name can name a machine (SGABENCH_MACHINE): 1 to 63 of the
 * characters A-Z a-z 0-9 . _ - (a hostname's), so that it needs no
 * quoting in a shell, a URL or a KCIDB path.
 */
int sysinfo_name_ok(const char *name);

/* Write si as a JSON object member named key (NULL at top level). */
void sysinfo_json(const struct sysinfo *si, struct json *j, const char *key);

/* Human-readable multi-line description. */
void sysinfo_print(const struct sysinfo *si, FILE *f);

/* Read the hugetlb pool for page_size bytes into *p. Returns 0 or -ENOENT. */
int sysinfo_pool(uint64_t page_size, struct si_pool *p);

/*
 * Whether this process may create SHM_HUGETLB segments: CAP_IPC_LOCK in
 * its effective set, or membership of the group vm.hugetlb_shm_group
 * names (the kernel's can_do_hugetlb_shm()). 1 when it cannot tell.
 */
int sysinfo_shm_hugetlb_allowed(void);

#endif
