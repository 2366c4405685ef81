/*
 * presets.c - machine presets with the public sources of their figures,
 * and `--machine host` from this machine's own TLB geometry (sysinfo).
 * Only data-side TLBs are modelled; instruction TLBs are named in the
 * description. Figures not stated by a public source are listed in
 * `inferred`. Cycle costs are rough estimates for the estimated time only;
 * they never change a miss count.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "model/model.h"
#include "machine/sysinfo.h"

#define PS(x) (1u << PSZ_##x)
/* The Linux 6.1 perf drivers the counter notes cite, by file. */
#define SPARC_DRV "Linux 6.1 arch/sparc/kernel/perf_event.c: "
#define INTEL_DRV "Linux 6.1 arch/x86/events/intel/core.c: "
#define AMD_DRV "Linux 6.1 arch/x86/events/amd/core.c: "
#define ARM_DRV "Linux 6.1 arch/arm64/kernel/perf_event.c: "
#define SPARC_PS (PS(8K) | PS(64K) | PS(4M) | PS(256M))
/* Page sizes each architecture maps: x86-64 4K, 2M, 1G (Intel SDM vol. 3A
 * 4.5); arm64 4K, 16K and 64K granules with their block and contiguous
 * sizes as Linux's hugetlb offers them (Documentation/arm64/hugetlbpage.rst). */
#define X86_PS (PS(4K) | PS(2M) | PS(1G))
#define ARM64_PS (PS(4K) | PS(16K) | PS(64K) | PS(2M) | PS(32M) | PS(512M) | PS(1G) | PS(16G))

static const struct model_machine ultrasparc_t2 = {
	.name = "ultrasparc-t2",
	.desc = "Sun UltraSPARC T2 (Niagara 2): per core 128-entry DTLB (64-entry ITLB not modelled), 8 strands, 8 cores",
	.source = "OpenSPARC T2 Core Microarchitecture Specification (Sun, 2007), MMU chapter: 128-entry fully "
		  "associative DTLB, 64-entry ITLB, shared by 8 strands; UltraSPARC T2 Supplement to the UltraSPARC "
		  "Architecture 2007: context registers 0/1; Kravetz, sparc64 shared context RFC (2016)",
	.inferred = "replacement order: used-bit scan from entry 0 as in the UltraSPARC I User's Manual 6.11.2; "
		    "walk cost (TSB hit in L2) estimated",
	.nlevels = 1,
	.level = { { "dtlb", 128, 0, REPL_NRU, SPARC_PS, 0 } },
	.tag = TAG_CTX2, .cores = 8, .strands = 8, .walk_cycles = 60, .ghz = 1.4,
	.default_page = "4m",
	.arch = "sparc64", .arch_psz = SPARC_PS,
	.ev_loads = MC_UNSUPPORTED, .ev_load_misses = MC_L1_MISSES,
	.counters = SPARC_DRV "niagara2 and niagara3 take niagara2_pmu (lines 1699-1701); dTLB-load-misses "
		    "is event 0x0b08 (539), the DTLB's misses: the one level, so l1-dtlb-misses = dtlb-walks "
		    "(each a hardware tablewalk of the TSB); dTLB-loads is CACHE_OP_UNSUPPORTED (538)",
};

static const struct model_machine sparc_t4 = {
	.name = "sparc-t4",
	.desc = "Oracle SPARC T4 (S3 core): per core 128-entry DTLB (64-entry ITLB not modelled), 8 strands, 8 cores",
	.source = "Oracle SPARC T4 Supplement to the Oracle SPARC Architecture 2011, MMU chapter; Shah et al., "
		  "\"SPARC T4: a dynamically threaded server-on-a-chip\", IEEE Micro 32(2), 2012",
	.inferred = "used-bit replacement carried over from T2; 2 GiB pages held by the same DTLB; walk cost estimated",
	.nlevels = 1,
	.level = { { "dtlb", 128, 0, REPL_NRU, SPARC_PS | PS(2G), 0 } },
	.tag = TAG_CTX2, .cores = 8, .strands = 8, .walk_cycles = 80, .ghz = 3.0,
	.default_page = "4m",
	.arch = "sparc64", .arch_psz = SPARC_PS | PS(2G),
	.ev_loads = MC_UNSUPPORTED, .ev_load_misses = MC_L1_MISSES,
	.counters = SPARC_DRV "niagara4 and niagara5 take niagara4_pmu (lines 1704-1706); dTLB-load-misses "
		    "is event (17 << 6) | 0x3f (676), the DTLB's misses: the one level, so l1-dtlb-misses = "
		    "dtlb-walks; dTLB-loads is CACHE_OP_UNSUPPORTED (675)",
};

static const struct model_machine sparc_m7 = {
	.name = "sparc-m7",
	.desc = "Oracle SPARC M7 (S4 core): per core 128-entry DTLB, 8 strands, 32 cores",
	.source = "Oracle SPARC M7 Supplement to the Oracle SPARC Architecture 2015, MMU chapter; Linux "
		  "arch/sparc (M7 context-register ASIs 0x28/0x30, page sizes up to 16 GiB)",
	.inferred = "DTLB size, associativity and used-bit replacement assumed unchanged from T4; walk cost estimated",
	.nlevels = 1,
	.level = { { "dtlb", 128, 0, REPL_NRU, SPARC_PS | PS(2G) | PS(16G), 0 } },
	.tag = TAG_CTX2, .cores = 32, .strands = 8, .walk_cycles = 80, .ghz = 4.13,
	.default_page = "4m",
	.arch = "sparc64", .arch_psz = SPARC_PS | PS(2G) | PS(16G),
	.ev_loads = MC_UNSUPPORTED, .ev_load_misses = MC_L1_MISSES,
	.counters = SPARC_DRV "sparc-m7 takes sparc_m7_pmu (lines 1709-1710), whose cache map is niagara4's "
		    "(783): dTLB-load-misses is event (17 << 6) | 0x3f (676), the DTLB's misses: the one level, "
		    "so l1-dtlb-misses = dtlb-walks; dTLB-loads is CACHE_OP_UNSUPPORTED (675)",
};

static const struct model_machine intel_skylake = {
	.name = "intel-skylake",
	.desc = "Intel Skylake client core: L1 DTLB split by page size, unified STLB, 2 hyperthreads, 4 cores",
	.source = "Intel 64 and IA-32 Architectures Optimization Reference Manual (2016+), Skylake "
		  "microarchitecture, TLB table: DTLB 64x4-way 4K, 32x4-way 2M/4M, 4 full 1G; STLB 1536x12-way "
		  "4K+2M, 16x4-way 1G",
	.inferred = "replacement (Intel publishes none; LRU assumed); hyperthreads tag entries by PCID like "
		    "processes; hit and walk costs estimated (STLB hit ~9 cycles)",
	.nlevels = 5,
	.level = {
		{ "l1d-4k", 64, 4, REPL_LRU, PS(4K), 0 },
		{ "l1d-2m", 32, 4, REPL_LRU, PS(2M) | PS(4M), 0 },
		{ "l1d-1g", 4, 0, REPL_LRU, PS(1G), 0 },
		{ "stlb", 1536, 12, REPL_LRU, PS(4K) | PS(2M), 9 },
		{ "stlb-1g", 16, 4, REPL_LRU, PS(1G), 9 },
	},
	.tag = TAG_ASID, .cores = 4, .strands = 2, .walk_cycles = 30, .ghz = 4.0,
	.default_page = "2m",
	.arch = "x86-64", .arch_psz = X86_PS,
	.ev_loads = MC_ACCESSES, .ev_load_misses = MC_WALKS,
	.counters = INTEL_DRV "Skylake takes skl_hw_cache_event_ids (lines 6418, 6425); dTLB-loads is "
		    "MEM_INST_RETIRED.ALL_LOADS, every retired load (661); dTLB-load-misses is "
		    "DTLB_LOAD_MISSES.WALK_COMPLETED, completed walks (662): dtlb-walks. No generic event "
		    "counts the L1 DTLB's or the STLB's misses",
};

static const struct model_machine amd_zen2 = {
	.name = "amd-zen2",
	.desc = "AMD Zen 2 core: 64-entry fully associative L1 DTLB (all sizes), 2048-entry 12-way L2 DTLB, "
		"2 SMT threads",
	.source = "AMD Software Optimization Guide for AMD Family 17h Models 30h and Greater (56305), TLB "
		  "section; WikiChip, Zen 2 memory subsystem: L2 DTLB unified, 12-way, 2048 entries, 4K and 2M "
		  "entries, 1G pages smashed into 2M entries (installed as 1G in the L1); H. Brais (Stack Overflow "
		  "q. 69814823): Zen's L2 DTLB is skewed, its ways split by page size, 8 for 4K, 2 for 2M, 2 for "
		  "coalesced 32K groups of 4K pages (server parts 6/3/3); EPYC 7742: 64 cores",
	.inferred = "the L2's organisation: 2048 entries in 12 ways are no whole number of sets (its ways are "
		    "skewed, the hash unpublished): modelled as 170 sets x 12 ways, the 8 left over not, indexed "
		    "by a fixed hash of the page number (a smashed 1G page's: its 2M entry's); its ways per page "
		    "size, Zen 1 client's (Brais) assumed for Zen 2: 8 for 4K, 2 for 2M entries (smashed 1G "
		    "pages among them), the 2 of coalesced 4K groups not modelled (no coalescing is), so 170 x "
		    "10 entries are; server parts: --tlb with part=4k:6+2m:3; LRU; 8 cores; hit and walk "
		    "costs estimated",
	.nlevels = 2,
	.level = {
		{ "l1d", 64, 0, REPL_LRU, PS(4K) | PS(2M) | PS(1G), 0, { 0 }, 0, { 0 } },
		{ "l2d", 2048, 12, REPL_LRU, PS(4K) | PS(2M) | PS(1G), 7, { [PSZ_1G] = 1 + PSZ_2M }, 1,
		  { [PSZ_4K] = 8, [PSZ_2M] = 2 } },
	},
	.tag = TAG_ASID, .cores = 8, .strands = 2, .walk_cycles = 35, .ghz = 3.5,
	.default_page = "2m",
	.arch = "x86-64", .arch_psz = X86_PS, .max_cores = 64,	/* EPYC 7742 (Rome) */
	.ev_loads = MC_L1_MISSES, .ev_load_misses = MC_WALKS,
	.counters = AMD_DRV "family 17h and later take amd_hw_cache_event_ids_f17h (lines 1483-1484); "
		    "dTLB-loads is 0xff45, all L2 DTLB accesses, i.e. the L1 DTLB's misses (179): "
		    "l1-dtlb-misses; dTLB-load-misses is 0xf045, L2 DTLB misses, i.e. page walks (180): "
		    "dtlb-walks",
};

/* N1's L1 data TLB caches 4K, 16K, 64K, 2M and 512M entries only: 32M
 * blocks are held as 2M, 1G and 16G as 512M entries. Its L2 stores 4K to
 * 1G whole; 16G, not listed, as 512M. */
#define N1_PS (PS(4K) | PS(16K) | PS(64K) | PS(2M) | PS(32M) | PS(512M) | PS(1G) | PS(16G))
#define N1_L1_SPLIT { [PSZ_32M] = 1 + PSZ_2M, [PSZ_1G] = 1 + PSZ_512M, [PSZ_16G] = 1 + PSZ_512M }
#define N1_L2_SPLIT { [PSZ_16G] = 1 + PSZ_512M }

static const struct model_machine arm_n1 = {
	.name = "arm-neoverse-n1",
	.desc = "Arm Neoverse N1 (AWS Graviton2-like): 48-entry fully associative L1 data TLB, 1280-entry 5-way "
		"L2 TLB, 1 thread per core, 64 cores",
	.source = "Arm Neoverse N1 Core Technical Reference Manual (101427), Memory Management Unit chapter: "
		  "L1 data TLB 48 entries fully associative, L2 TLB 1280 entries 5-way; Cortex-A76 TRM A5.2.2: L1 "
		  "data TLB entries of 4K, 16K, 64K, 2M and 512M only; A5.2.3: L2 stores 4K, 16K, 64K, 2M, 32M, "
		  "512M and 1G blocks; AWS Graviton2: 64 N1 cores (Ampere Altra: 80; Altra Max: 128)",
	.inferred = "the L1 entry a larger block is held as: the largest granule that fits (32M as 2M, 1G and 16G "
		    "as 512M; Cortex-A57 TRM 5.2.2 splits 1G into 512M so); 16G held as 512M in the L2 (not "
		    "listed); a split block's set from its granule's page number; LRU; the L2 is unified with "
		    "instructions (their traffic not modelled); costs estimated",
	.nlevels = 2,
	.level = {
		{ "l1d", 48, 0, REPL_LRU, N1_PS, 0, N1_L1_SPLIT },
		{ "l2", 1280, 5, REPL_LRU, N1_PS, 5, N1_L2_SPLIT },
	},
	.tag = TAG_ASID, .cores = 64, .strands = 1, .walk_cycles = 30, .ghz = 3.0,
	.default_page = "2m",
	.arch = "arm64", .arch_psz = ARM64_PS, .max_cores = 128,	/* Ampere Altra Max M128-30 */
	.ev_loads = MC_ACCESSES, .ev_load_misses = MC_L1_MISSES,
	.counters = ARM_DRV "neoverse-n1 takes the PMUv3 maps (lines 1303, 1286); dTLB-loads is L1D_TLB, "
		    "every L1 data TLB access (67); dTLB-load-misses is L1D_TLB_REFILL, every L1 refill, "
		    "those the L2 TLB serves included (66): l1-dtlb-misses; walks are armv8_pmuv3/dtlb_walk/ "
		    "(DTLB_WALK, 227): dtlb-walks; L2 refills l2d_tlb_refill (220, instruction-side too)",
};

const struct model_machine *const model_presets[] = {
	&ultrasparc_t2, &sparc_t4, &sparc_m7, &intel_skylake, &amd_zen2, &arm_n1, NULL,
};

int model_preset_find(const char *name, struct model_machine *m)
{
	for (int i = 0; model_presets[i]; i++) {
		if (strcmp(model_presets[i]->name, name) == 0) {
			*m = *model_presets[i];
			return 0;
		}
	}
	return -ENOENT;
}

const char *model_preset_names(void)
{
	static char buf[256];

	if (!buf[0]) {
		for (int i = 0; model_presets[i]; i++) {
			if (i)
				strcat(buf, "|");
			strcat(buf, model_presets[i]->name);
		}
	}
	return buf;
}

/* Page-size mask of a sysinfo list such as "4k,2m". */
static unsigned mask_of(const char *list)
{
	char buf[32], *save = NULL;
	unsigned mask = 0, psz;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *w = strtok_r(buf, ",+ ", &save); w; w = strtok_r(NULL, ",+ ", &save))
		if (!model_psz_parse(w, &psz))
			mask |= 1u << psz;
	return mask;
}

/* What a host's driver counts, by vendor (and family) as the drivers
 * choose their tables; the first row that matches applies. */
static const struct {
	const char *vendor, *arch;	/* NULL: any */
	unsigned min_family;
	int loads, misses;		/* enum model_count */
	const char *note;
} host_maps[] = {
	{ "AuthenticAMD", NULL, 0x17, MC_L1_MISSES, MC_WALKS,
	  AMD_DRV "family 17h and later take amd_hw_cache_event_ids_f17h (lines 1483-1484): dTLB-loads "
	  "0xff45, L1 DTLB misses (179); dTLB-load-misses 0xf045, walks (180)" },
	{ "GenuineIntel", NULL, 0, MC_ACCESSES, MC_WALKS,
	  INTEL_DRV "as Skylake's table (661-662): dTLB-loads every load, dTLB-load-misses walks; other "
	  "Intel families map a walk event too (e.g. MISS_CAUSES_A_WALK, 1046), not checked per model" },
	{ NULL, "aarch64", 0, MC_ACCESSES, MC_L1_MISSES,
	  ARM_DRV "the PMUv3 maps (66-67): dTLB-loads L1D_TLB, dTLB-load-misses L1D_TLB_REFILL; some cores "
	  "take read-only variants (100, 132), not checked per core" },
};

void model_host_counters(const struct sysinfo *si, struct model_machine *m)
{
	for (size_t i = 0; i < sizeof(host_maps) / sizeof(host_maps[0]); i++) {
		if ((host_maps[i].vendor && strcmp(si->cpu_vendor, host_maps[i].vendor)) ||
		    (host_maps[i].arch && strcmp(si->arch, host_maps[i].arch)) || si->family < host_maps[i].min_family)
			continue;
		m->ev_loads = host_maps[i].loads;
		m->ev_load_misses = host_maps[i].misses;
		snprintf(m->counters, sizeof(m->counters), "%s", host_maps[i].note);
		return;
	}
	m->ev_loads = m->ev_load_misses = MC_UNSUPPORTED;
	snprintf(m->counters, sizeof(m->counters), "no driver table read for vendor '%s' on %s: dTLB-loads "
		 "and dTLB-load-misses are not stored; read the plain names", si->cpu_vendor, si->arch);
}

int model_from_sysinfo(const struct sysinfo *si, struct model_machine *m,
		       char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "host");
	snprintf(m->desc, sizeof(m->desc), "this machine: %s", si->cpu_model[0] ? si->cpu_model : si->arch);
	snprintf(m->source, sizeof(m->source), "this machine's TLB geometry (source: %s)",
		 si->tlb_source[0] ? si->tlb_source : "unknown");
	snprintf(m->inferred, sizeof(m->inferred),
		 "replacement (LRU assumed); cores and SMT threads from the CPU count; costs estimated");
	for (unsigned i = 0; i < si->ntlb && m->nlevels < MODEL_LEVELS; i++) {
		const struct si_tlb *t = &si->tlb[i];
		struct model_level *lv;

		/* data and unified TLBs only: skip "l1i", "l2i" */
		if (t->name[0] && t->name[strlen(t->name) - 1] == 'i')
			continue;
		if (!t->entries)
			continue;
		lv = &m->level[m->nlevels++];
		snprintf(lv->name, sizeof(lv->name), "%s", t->name);
		/* one level per page-size array: "l2d", then "l2d-2m" */
		for (unsigned k = 0; k + 1 < m->nlevels; k++) {
			if (strcmp(m->level[k].name, lv->name) == 0) {
				char ps[32];

				snprintf(ps, sizeof(ps), "%s", t->page_sizes);
				ps[strcspn(ps, ",+ ")] = '\0';
				snprintf(lv->name, sizeof(lv->name), "%.8s-%.6s", t->name, ps);
				break;
			}
		}
		lv->entries = t->entries;
		lv->ways = t->assoc >= t->entries ? 0 : t->assoc;
		lv->repl = REPL_LRU;
		lv->psz_mask = mask_of(t->page_sizes);
		if (!lv->psz_mask)
			lv->psz_mask = (1u << PSZ_N) - 1;
		lv->hit_cycles = m->nlevels > 1 ? 7 : 0;
	}
	if (!m->nlevels) {
		snprintf(err, errlen, "this machine reported no data TLB geometry (source '%s')",
			 si->tlb_source[0] ? si->tlb_source : "unknown");
		return -ENOENT;
	}
	m->tag = strcmp(si->arch, "sparc64") == 0 ? TAG_CTX2 : TAG_ASID;
	m->strands = si->threads_per_core ? si->threads_per_core : 1;
	m->cores = si->ncpus / m->strands ? si->ncpus / m->strands : 1;
	m->walk_cycles = 35;
	m->ghz = 3.0;
	m->default_page = strcmp(si->arch, "sparc64") == 0 ? "4m" : "2m";
	if (strcmp(si->arch, "x86_64") == 0) {
		m->arch = "x86-64";
		m->arch_psz = X86_PS;
	} else if (strcmp(si->arch, "aarch64") == 0) {
		m->arch = "arm64";
		m->arch_psz = ARM64_PS;
	} else if (strcmp(si->arch, "sparc64") == 0) {
		m->arch = "sparc64";
		m->arch_psz = SPARC_PS | PS(2G) | PS(16G);
	}
	model_host_counters(si, m);
	return 0;
}
