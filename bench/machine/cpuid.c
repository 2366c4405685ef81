/*
 * cpuid.c - TLB geometry from CPUID (x86) and from a MIDR table (arm64).
 *
 * References:
 *   AMD: APM vol. 3 appendix E.4 (CPUID Fn8000_0005, Fn8000_0006,
 *        Fn8000_0019) and the family 19h PPR for the 4-bit associativity table.
 *   Intel: SDM vol. 2A, CPUID leaf 18H (deterministic address translation
 *        parameters) and table 3-12 (leaf 02H descriptors).
 *   Arm: the Technical Reference Manuals, "L1 memory system / TLB organization"
 *        of Neoverse N1 (100616), V1 (101427) and N2 (102099).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "machine/cpuid.h"

int cpuid_read(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
#if defined(__x86_64__) || defined(__i386__)
	/* Inline: <cpuid.h> would resolve to this directory's cpuid.h. */
	__asm__ volatile("cpuid"
			 : "=a"(r->eax), "=b"(r->ebx), "=c"(r->ecx), "=d"(r->edx)
			 : "a"(leaf), "c"(subleaf));
	return 0;
#else
	memset(r, 0, sizeof(*r));
	return -ENOSYS;
#endif
}

int cpuid_amd_l2_assoc(unsigned code)
{
	/* 0 disabled, 7 reserved, 9 "see Fn8000_001D" (caches only). */
	static const int ways[16] = {
		-1, 1, 2, 3, 4, 6, 8, -1, 16, -1, 32, 48, 64, 96, 128, 0,
	};

	return ways[code & 0xf];
}

/* Append one TLB to out unless it is empty or full; returns the new count. */
static unsigned add(struct si_tlb *out, unsigned n, unsigned max, const char *name,
		    const char *sizes, unsigned entries, int ways)
{
	if (!entries || ways < 0 || n >= max)
		return n;
	memset(&out[n], 0, sizeof(out[n]));
	snprintf(out[n].name, sizeof(out[n].name), "%s", name);
	snprintf(out[n].page_sizes, sizeof(out[n].page_sizes), "%s", sizes);
	out[n].entries = entries;
	out[n].assoc = (unsigned)ways;
	return n + 1;
}

/* AMD 8-bit L1 associativity: 0 reserved, 0xff fully associative, else ways. */
static int amd_l1_assoc(unsigned code)
{
	if (code == 0)
		return -1;
	return code == 0xff ? 0 : (int)code;
}

/*
 * Merge a "4k" and a "2m,4m" TLB of the same name, entries and ways into
 * one "4k,2m,4m" entry. Returns the new count.
 */
static unsigned merge_sizes(struct si_tlb *t, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		for (unsigned k = i + 1; k < n; k++) {
			if (strcmp(t[i].name, t[k].name) || t[i].entries != t[k].entries ||
			    t[i].assoc != t[k].assoc || strcmp(t[i].page_sizes, "4k") ||
			    strcmp(t[k].page_sizes, "2m,4m"))
				continue;
			snprintf(t[i].page_sizes, sizeof(t[i].page_sizes), "4k,2m,4m");
			memmove(&t[k], &t[k + 1], (n - k - 1) * sizeof(*t));
			n--;
			break;
		}
	}
	return n;
}

unsigned cpuid_amd_tlbs(const struct cpuid_regs *l5, const struct cpuid_regs *l6,
			const struct cpuid_regs *l19, struct si_tlb *out, unsigned max)
{
	unsigned n = 0;

	/* Fn8000_0005: EBX 4k, EAX 2m/4m; [31:24] D ways, [23:16] D entries,
	 * [15:8] I ways, [7:0] I entries. */
	n = add(out, n, max, "l1d", "4k", (l5->ebx >> 16) & 0xff, amd_l1_assoc(l5->ebx >> 24));
	n = add(out, n, max, "l1d", "2m,4m", (l5->eax >> 16) & 0xff, amd_l1_assoc(l5->eax >> 24));
	n = add(out, n, max, "l1i", "4k", l5->ebx & 0xff, amd_l1_assoc((l5->ebx >> 8) & 0xff));
	n = add(out, n, max, "l1i", "2m,4m", l5->eax & 0xff, amd_l1_assoc((l5->eax >> 8) & 0xff));
	/* Fn8000_0006 and Fn8000_0019: [31:28] D ways, [27:16] D entries,
	 * [15:12] I ways, [11:0] I entries (4-bit associativity codes). */
	n = add(out, n, max, "l2d", "4k", (l6->ebx >> 16) & 0xfff, cpuid_amd_l2_assoc(l6->ebx >> 28));
	n = add(out, n, max, "l2d", "2m,4m", (l6->eax >> 16) & 0xfff, cpuid_amd_l2_assoc(l6->eax >> 28));
	n = add(out, n, max, "l2i", "4k", l6->ebx & 0xfff, cpuid_amd_l2_assoc((l6->ebx >> 12) & 0xf));
	n = add(out, n, max, "l2i", "2m,4m", l6->eax & 0xfff, cpuid_amd_l2_assoc((l6->eax >> 12) & 0xf));
	if (l19) {
		n = add(out, n, max, "l1d", "1g", (l19->eax >> 16) & 0xfff,
			cpuid_amd_l2_assoc(l19->eax >> 28));
		n = add(out, n, max, "l1i", "1g", l19->eax & 0xfff,
			cpuid_amd_l2_assoc((l19->eax >> 12) & 0xf));
		n = add(out, n, max, "l2d", "1g", (l19->ebx >> 16) & 0xfff,
			cpuid_amd_l2_assoc(l19->ebx >> 28));
		n = add(out, n, max, "l2i", "1g", l19->ebx & 0xfff,
			cpuid_amd_l2_assoc((l19->ebx >> 12) & 0xf));
	}
	return merge_sizes(out, n);
}

unsigned cpuid_intel_tlbs18(const struct cpuid_regs *sub, unsigned n,
			    struct si_tlb *out, unsigned max)
{
	static const char *const kind[8] = { NULL, "d", "i", "", "d-load", "d-store", NULL, NULL };
	unsigned count = 0;

	for (unsigned i = 0; i < n; i++) {
		const struct cpuid_regs *r = &sub[i];
		unsigned type = r->edx & 0x1f, level = (r->edx >> 5) & 7;
		unsigned ways = r->ebx >> 16, sets = r->ecx;
		char name[16], sizes[32] = "";

		if (type >= 8 || !kind[type] || !level)
			continue;
		snprintf(name, sizeof(name), "l%u%s", level, kind[type]);
		if (r->ebx & 1)
			strcat(sizes, "4k,");
		if (r->ebx & 2)
			strcat(sizes, "2m,");
		if (r->ebx & 4)
			strcat(sizes, "4m,");
		if (r->ebx & 8)
			strcat(sizes, "1g,");
		if (!*sizes)
			continue;
		sizes[strlen(sizes) - 1] = '\0';
		count = add(out, count, max, name, sizes, ways * sets,
			    (r->edx & 0x100) ? 0 : (int)ways);
	}
	return count;
}

/* A leaf 0x2 TLB descriptor: SDM vol. 2A table 3-12 (the common ones). */
struct desc {
	uint8_t code;
	const char *name, *sizes;
	unsigned entries;
	int ways;		/* 0 fully associative */
};

static const struct desc descs[] = {
	{ 0x01, "l1i", "4k", 32, 4 },
	{ 0x02, "l1i", "4m", 2, 0 },
	{ 0x03, "l1d", "4k", 64, 4 },
	{ 0x04, "l1d", "4m", 8, 4 },
	{ 0x05, "l1d", "4m", 32, 4 },
	{ 0x0b, "l1i", "4m", 4, 4 },
	{ 0x50, "l1i", "4k,2m,4m", 64, 0 },
	{ 0x51, "l1i", "4k,2m,4m", 128, 0 },
	{ 0x52, "l1i", "4k,2m,4m", 256, 0 },
	{ 0x55, "l1i", "2m,4m", 7, 0 },
	{ 0x56, "l1d", "4m", 16, 4 },
	{ 0x57, "l1d", "4k", 16, 4 },
	{ 0x59, "l1d", "4k", 16, 0 },
	{ 0x5a, "l1d", "2m,4m", 32, 4 },
	{ 0x5b, "l1d", "4k,4m", 64, 0 },
	{ 0x5c, "l1d", "4k,4m", 128, 0 },
	{ 0x5d, "l1d", "4k,4m", 256, 0 },
	{ 0x61, "l1i", "4k", 48, 0 },
	{ 0x63, "l1d", "2m,4m", 32, 4 },	/* also 4 x 1g, 4-way: see below */
	{ 0x64, "l1d", "4k", 512, 4 },
	{ 0x6b, "l1d", "4k", 256, 8 },
	{ 0x6c, "l1d", "2m,4m", 128, 8 },
	{ 0x6d, "l1d", "1g", 16, 0 },
	{ 0x76, "l1i", "2m,4m", 8, 0 },
	{ 0xa0, "l1d", "4k", 32, 0 },
	{ 0xb0, "l1i", "4k", 128, 4 },
	{ 0xb1, "l1i", "2m", 8, 4 },
	{ 0xb2, "l1i", "4k", 64, 4 },
	{ 0xb3, "l1d", "4k", 128, 4 },
	{ 0xb4, "l1d", "4k", 256, 4 },
	{ 0xb5, "l1i", "4k", 64, 8 },
	{ 0xb6, "l1i", "4k", 128, 8 },
	{ 0xba, "l1d", "4k", 64, 4 },
	{ 0xc0, "l1d", "4k,4m", 8, 4 },
	{ 0xc1, "l2", "4k,2m", 1024, 8 },
	{ 0xc2, "l1d", "4k,2m", 16, 4 },
	{ 0xc3, "l2", "4k,2m", 1536, 6 },	/* also 16 x 1g, 4-way: see below */
	{ 0xc4, "l1d", "2m,4m", 32, 4 },
	{ 0xca, "l2", "4k", 512, 4 },
};

unsigned cpuid_intel_tlbs2(const struct cpuid_regs *r, struct si_tlb *out, unsigned max)
{
	uint32_t regs[4] = { r->eax, r->ebx, r->ecx, r->edx };
	unsigned n = 0;

	for (int i = 0; i < 4; i++) {
		if (regs[i] & 0x80000000u)
			continue;	/* bit 31 set: register holds no descriptors */
		for (int b = i == 0 ? 1 : 0; b < 4; b++) {
			uint8_t code = (regs[i] >> (8 * b)) & 0xff;

			for (size_t k = 0; k < sizeof(descs) / sizeof(descs[0]); k++) {
				const struct desc *d = &descs[k];

				if (d->code != code)
					continue;
				n = add(out, n, max, d->name, d->sizes, d->entries, d->ways);
				if (code == 0x63)
					n = add(out, n, max, "l1d", "1g", 4, 4);
				if (code == 0xc3)
					n = add(out, n, max, "l2", "1g", 16, 4);
			}
		}
	}
	return n;
}

/*
 * An arm64 core's TLBs from its TRM, keyed by MIDR implementer and part.
 * Checked against the TRM text in this project: Cortex-A76 (100798, A5.2),
 * whose MMU the Neoverse N1 shares. The V1 and N2 rows are from their TRMs
 * as cited but were not re-read here: check them before relying on them.
 */
struct arm_core {
	unsigned implementer, part;
	const char *name;
	unsigned l1i, l1d, l2, l2_ways;	/* L1s are fully associative */
};

static const struct arm_core arm_cores[] = {
	/* Neoverse N1 TRM (100616), MMU chapter: 48-entry L1 iTLB and dTLB, fully
	 * associative; 1280-entry 5-way unified L2 TLB (as Cortex-A76). */
	{ 0x41, 0xd0c, "Neoverse N1", 48, 48, 1280, 5 },
	/* Neoverse V1 TRM (101427): 48-entry L1 iTLB and dTLB, fully
	 * associative; 2048-entry 8-way unified L2 TLB. */
	{ 0x41, 0xd40, "Neoverse V1", 48, 48, 2048, 8 },
	/* Neoverse N2 TRM (102099): 48-entry L1 iTLB and dTLB, fully
	 * associative; 1536-entry 6-way unified L2 TLB. */
	{ 0x41, 0xd49, "Neoverse N2", 48, 48, 1536, 6 },
	/* Cortex-A76 TRM (100798) A5.2: 48/48 fully associative, 1280 5-way. */
	{ 0x41, 0xd0b, "Cortex-A76", 48, 48, 1280, 5 },
};

unsigned arm64_tlbs(unsigned implementer, unsigned part, const char **name,
		    struct si_tlb *out, unsigned max)
{
	for (size_t i = 0; i < sizeof(arm_cores) / sizeof(arm_cores[0]); i++) {
		const struct arm_core *c = &arm_cores[i];
		unsigned n = 0;

		if (c->implementer != implementer || c->part != part)
			continue;
		*name = c->name;
		/* 4k granule sizes; the TRMs list more (16k, 64k, 32m, 512m). */
		n = add(out, n, max, "l1i", "4k,2m", c->l1i, 0);
		n = add(out, n, max, "l1d", "4k,2m", c->l1d, 0);
		n = add(out, n, max, "l2", "4k,2m,1g", c->l2, (int)c->l2_ways);
		return n;
	}
	*name = NULL;
	return 0;
}

const char *si_tlb_describe(const struct si_tlb *t, char *buf, size_t len)
{
	char ways[32];

	if (t->assoc == 0)
		snprintf(ways, sizeof(ways), "fully associative");
	else
		snprintf(ways, sizeof(ways), "%u-way", t->assoc);
	if (t->entries)
		snprintf(buf, len, "%u entries, %s, %s", t->entries, ways, t->page_sizes);
	else
		snprintf(buf, len, "entries unknown, %s", t->page_sizes);
	return buf;
}

unsigned sparc_tlbs(const char *cpu, const char *pgszs, struct si_tlb *out, unsigned max)
{
	char sizes[32];
	unsigned d = 0, i = 0, n = 0;
	size_t k = 0;

	/* "8K,64K,4MB,256MB" -> "8k,64k,4m,256m" */
	for (const char *c = pgszs; *c && k + 1 < sizeof(sizes); c++) {
		if ((*c == 'B' || *c == 'b') && c > pgszs && isalpha((unsigned char)c[-1]))
			continue;
		if (*c != ' ')
			sizes[k++] = (char)tolower((unsigned char)*c);
	}
	sizes[k] = '\0';
	if (strstr(cpu, "Niagara2"))
		d = 128, i = 64;
	else if (strstr(cpu, "Niagara"))
		d = 64, i = 64;
	for (int s = 0; s < 2 && n < max; s++, n++) {
		memset(&out[n], 0, sizeof(out[n]));
		snprintf(out[n].name, sizeof(out[n].name), "%s", s ? "l1i" : "l1d");
		snprintf(out[n].page_sizes, sizeof(out[n].page_sizes), "%s", sizes);
		out[n].entries = s ? i : d;
		out[n].assoc = 0;
	}
	return n;
}
