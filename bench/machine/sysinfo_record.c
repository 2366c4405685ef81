/*
 * sysinfo_record.c - the machine record as data: one table of its fields
 * drives the fingerprint and the JSON; the human description is laid out
 * by hand. Collecting the record is sysinfo.c's job.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/json.h"
#include "lib/parse.h"
#include "machine/sysinfo.h"

/* FNV-1a 64 of one "key=value\n" line, continuing from h. */
static uint64_t fnv(uint64_t h, const char *key, const char *val)
{
	const char *parts[4] = { key, "=", val, "\n" };

	for (int i = 0; i < 4; i++)
		for (const unsigned char *p = (const unsigned char *)parts[i]; *p; p++)
			h = (h ^ *p) * 0x100000001b3ULL;
	return h;
}

/* fnv() of an unsigned value in decimal. */
static uint64_t fnv_u(uint64_t h, const char *key, long long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", v);
	return fnv(h, key, buf);
}

/* The kinds of field a sysinfo row describes. */
enum si_kind { SI_STR, SI_UNSIGNED, SI_INT, SI_BOOL, SI_TLBS, SI_POOLS };

/*
 * Every field of the record, once: its JSON key, its key in the fingerprint
 * (NULL: not part of the identity), its kind and where it is. The order is
 * the fingerprint's order, so fingerprints stay what they were; JSON follows
 * it too (the fingerprint itself is written first).
 */
static const struct si_field {
	const char *json;
	const char *fp;
	enum si_kind kind;
	size_t off;
} si_fields[] = {
	{ "hostname", NULL, SI_STR, offsetof(struct sysinfo, hostname) },
	{ "arch", "arch", SI_STR, offsetof(struct sysinfo, arch) },
	{ "cpu_vendor", "cpu_vendor", SI_STR, offsetof(struct sysinfo, cpu_vendor) },
	{ "cpu_model", "cpu_model", SI_STR, offsetof(struct sysinfo, cpu_model) },
	{ "family", "family", SI_UNSIGNED, offsetof(struct sysinfo, family) },
	{ "model", "model", SI_UNSIGNED, offsetof(struct sysinfo, model) },
	{ "stepping", "stepping", SI_UNSIGNED, offsetof(struct sysinfo, stepping) },
	{ "microcode", "microcode", SI_STR, offsetof(struct sysinfo, microcode) },
	{ "tlb_source", "tlb_source", SI_STR, offsetof(struct sysinfo, tlb_source) },
	{ "tlbs", "tlb", SI_TLBS, 0 },
	{ "ncpus", "ncpus", SI_UNSIGNED, offsetof(struct sysinfo, ncpus) },
	{ "threads_per_core", "threads_per_core", SI_UNSIGNED, offsetof(struct sysinfo, threads_per_core) },
	{ "numa_nodes", "numa_nodes", SI_UNSIGNED, offsetof(struct sysinfo, numa_nodes) },
	{ "hugepage_pools", "pool", SI_POOLS, 0 },
	{ "thp", "thp", SI_STR, offsetof(struct sysinfo, thp) },
	{ "shmem_thp", "shmem_thp", SI_STR, offsetof(struct sysinfo, shmem_thp) },
	{ "kernel", "kernel", SI_STR, offsetof(struct sysinfo, kernel) },
	{ "kernel_variant", NULL, SI_STR, offsetof(struct sysinfo, kernel_variant) },
	{ "cmdline", "cmdline", SI_STR, offsetof(struct sysinfo, cmdline) },
	{ "boot_id", NULL, SI_STR, offsetof(struct sysinfo, boot_id) },
	{ "governor", "governor", SI_STR, offsetof(struct sysinfo, governor) },
	{ "perf_event_paranoid", "paranoid", SI_INT, offsetof(struct sysinfo, paranoid) },
	{ "is_vm", "is_vm", SI_BOOL, offsetof(struct sysinfo, is_vm) },
	{ "hypervisor", "hypervisor", SI_STR, offsetof(struct sysinfo, hypervisor) },
	{ "has_core_pmu", NULL, SI_BOOL, offsetof(struct sysinfo, has_core_pmu) },
	{ "core_pmu", "core_pmu", SI_STR, offsetof(struct sysinfo, core_pmu) },
};

#define SI_NFIELDS (sizeof(si_fields) / sizeof(si_fields[0]))

/* The string field of row f in si. */
static const char *field_str(const struct sysinfo *si, const struct si_field *f)
{
	return (const char *)si + f->off;
}

/* The numeric field of row f in si (unsigned, int and bool rows). */
static long long field_num(const struct sysinfo *si, const struct si_field *f)
{
	const char *p = (const char *)si + f->off;

	if (f->kind == SI_UNSIGNED)
		return *(const unsigned *)(const void *)p;
	return *(const int *)(const void *)p;
}

/*
 * Tests only: SGABENCH_TEST_FINGERPRINT (16 lower-case hex digits) replaces
 * the fingerprint, so one machine can stand in for a fleet of machines
 * writing one database. Anything else in it is ignored.
 */
static void test_fingerprint(struct sysinfo *si)
{
	const char *fp = getenv("SGABENCH_TEST_FINGERPRINT");

	if (!fp || strlen(fp) != 16 || strspn(fp, "0123456789abcdef") != 16)
		return;
	snprintf(si->fingerprint, sizeof(si->fingerprint), "%s", fp);
}

void sysinfo_fingerprint(struct sysinfo *si)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	char buf[96];

	for (size_t k = 0; k < SI_NFIELDS; k++) {
		const struct si_field *f = &si_fields[k];

		if (!f->fp)
			continue;
		switch (f->kind) {
		case SI_STR:
			h = fnv(h, f->fp, field_str(si, f));
			break;
		case SI_UNSIGNED:
		case SI_INT:
		case SI_BOOL:
			h = fnv_u(h, f->fp, field_num(si, f));
			break;
		case SI_TLBS:
			for (unsigned i = 0; i < si->ntlb && i < SI_TLB_MAX; i++) {
				const struct si_tlb *t = &si->tlb[i];

				snprintf(buf, sizeof(buf), "%s %s %u %u", t->name, t->page_sizes,
					 t->entries, t->assoc);
				h = fnv(h, f->fp, buf);
			}
			break;
		case SI_POOLS:
			/* which pools exist, not their counts */
			for (unsigned i = 0; i < si->npool && i < SI_POOL_MAX; i++)
				h = fnv_u(h, f->fp, (long long)si->pool[i].page_size);
			break;
		}
	}
	snprintf(si->fingerprint, sizeof(si->fingerprint), "%016" PRIx64, h);
	test_fingerprint(si);
}

/* The TLB list as a JSON array member. */
static void tlbs_json(const struct sysinfo *si, struct json *j, const char *key)
{
	json_arr_open(j, key);
	for (unsigned i = 0; i < si->ntlb && i < SI_TLB_MAX; i++) {
		const struct si_tlb *t = &si->tlb[i];

		json_obj_open(j, NULL);
		json_str(j, "name", t->name);
		json_str(j, "page_sizes", t->page_sizes);
		if (t->entries)
			json_u64(j, "entries", t->entries);
		else
			json_null(j, "entries");
		json_u64(j, "assoc", t->assoc);
		json_bool(j, "fully_associative", t->assoc == 0);
		json_obj_close(j);
	}
	json_arr_close(j);
}

/* The hugepage pools as a JSON array member. */
static void pools_json(const struct sysinfo *si, struct json *j, const char *key)
{
	json_arr_open(j, key);
	for (unsigned i = 0; i < si->npool && i < SI_POOL_MAX; i++) {
		const struct si_pool *p = &si->pool[i];

		json_obj_open(j, NULL);
		json_u64(j, "page_size", p->page_size);
		json_i64(j, "total", p->total);
		json_i64(j, "free", p->free);
		json_i64(j, "resv", p->resv);
		json_i64(j, "surplus", p->surplus);
		json_obj_close(j);
	}
	json_arr_close(j);
}

void sysinfo_json(const struct sysinfo *si, struct json *j, const char *key)
{
	json_obj_open(j, key);
	json_str(j, "fingerprint", si->fingerprint);
	for (size_t k = 0; k < SI_NFIELDS; k++) {
		const struct si_field *f = &si_fields[k];

		switch (f->kind) {
		case SI_STR:
			json_str(j, f->json, field_str(si, f));
			break;
		case SI_UNSIGNED:
			json_u64(j, f->json, (uint64_t)field_num(si, f));
			break;
		case SI_INT:
			json_i64(j, f->json, field_num(si, f));
			break;
		case SI_BOOL:
			json_bool(j, f->json, (int)field_num(si, f));
			break;
		case SI_TLBS:
			tlbs_json(si, j, f->json);
			break;
		case SI_POOLS:
			pools_json(si, j, f->json);
			break;
		}
	}
	json_obj_close(j);
}

void sysinfo_print(const struct sysinfo *si, FILE *f)
{
	char buf[128], sz[32];

	fprintf(f, "%-18s %s\n", "fingerprint", si->fingerprint);
	fprintf(f, "%-18s %s\n", "hostname", si->hostname);
	fprintf(f, "%-18s %s (SGABENCH_MACHINE, else the hostname)\n", "machine", si->machine_name);
	fprintf(f, "%-18s %s\n", "arch", si->arch);
	fprintf(f, "%-18s %s %s (family %u model %u stepping %u)\n", "cpu",
		si->cpu_vendor, si->cpu_model, si->family, si->model, si->stepping);
	fprintf(f, "%-18s %s\n", "microcode", si->microcode[0] ? si->microcode : "unknown");
	fprintf(f, "%-18s %u online, %u thread%s per core, %u NUMA node%s\n", "cpus",
		si->ncpus, si->threads_per_core, si->threads_per_core == 1 ? "" : "s",
		si->numa_nodes, si->numa_nodes == 1 ? "" : "s");
	if (!si->ntlb && !strcmp(si->arch, "aarch64"))
		fprintf(f, "%-18s unknown: arm64 has no CPUID TLB geometry, and this core (MIDR "
			"implementer %s, part 0x%03x) is not in sgabench's table\n", "tlb",
			si->cpu_vendor, si->model);
	else if (!si->ntlb && !strcmp(si->arch, "x86_64"))
		fprintf(f, "%-18s unknown: CPUID describes no TLB here (leaf 2 descriptors, "
			"leaf 0x18, AMD 0x80000005/6)\n", "tlb");
	else if (!si->ntlb)
		fprintf(f, "%-18s unknown (source: %s)\n", "tlb", si->tlb_source);
	for (unsigned i = 0; i < si->ntlb && i < SI_TLB_MAX; i++) {
		char label[32];

		snprintf(label, sizeof(label), "tlb %s", si->tlb[i].name);
		fprintf(f, "%-18s %s\n", label, si_tlb_describe(&si->tlb[i], buf, sizeof(buf)));
	}
	if (si->ntlb)
		fprintf(f, "%-18s %s\n", "tlb source", si->tlb_source);
	if (!si->npool)
		fprintf(f, "%-18s none\n", "hugepages");
	for (unsigned i = 0; i < si->npool && i < SI_POOL_MAX; i++) {
		const struct si_pool *p = &si->pool[i];
		char label[32];

		snprintf(label, sizeof(label), "hugepages %s", fmt_size(p->page_size, sz, sizeof(sz)));
		fprintf(f, "%-18s %ld total, %ld free, %ld reserved, %ld surplus\n", label,
			p->total, p->free, p->resv, p->surplus);
	}
	fprintf(f, "%-18s %s (shmem: %s)\n", "thp", si->thp, si->shmem_thp);
	fprintf(f, "%-18s %s\n", "kernel", si->kernel);
	fprintf(f, "%-18s %s (SGABENCH_KERNEL_VARIANT, else the Debian version)\n", "kernel variant",
		si->kernel_variant);
	fprintf(f, "%-18s %s\n", "cmdline", si->cmdline);
	fprintf(f, "%-18s %s\n", "boot id", si->boot_id[0] ? si->boot_id : "unknown");
	fprintf(f, "%-18s %s\n", "governor", si->governor);
	fprintf(f, "%-18s %d\n", "perf_event_paranoid", si->paranoid);
	fprintf(f, "%-18s %s%s%s\n", "vm", si->is_vm ? "yes" : "no",
		si->hypervisor[0] ? ", hypervisor " : "", si->hypervisor);
	fprintf(f, "%-18s %s\n", "core pmu", si->has_core_pmu ? si->core_pmu :
		"none (hardware counters are not available here)");
}
