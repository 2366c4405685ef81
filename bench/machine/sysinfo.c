/*
 * sysinfo.c - the machine record: CPU, TLB geometry, topology, hugetlb
 * pools, THP, kernel, perf and VM facts, and the fingerprint over them.
 *
 * The fingerprint is FNV-1a 64 over "key=value\n" lines of the identity
 * fields, printed as 16 hex digits. Identity means "would a run here be
 * comparable to a run there": arch, CPU vendor, model name, family/model/
 * stepping, microcode, every decoded TLB, online CPUs, SMT width, NUMA
 * nodes, the page sizes of the hugetlb pools that exist, THP and shmem THP
 * mode, kernel release and command line, perf_event_paranoid, VM-ness and
 * hypervisor, the core PMU name and the governor.
 * Left out on purpose: the hostname (a renamed or cloned VM is the same
 * machine), and every pool *count* (total, free, reserved, surplus): a test
 * that reserves hugepages with sysctl vm.nr_hugepages must not turn the
 * machine into a new one. Only which pool page sizes exist counts.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "machine/cpuid.h"
#include "lib/json.h"
#include "lib/kver.h"
#include "lib/log.h"
#include "lib/parse.h"
#include "machine/place.h"
#include "machine/sysinfo.h"

#define SI_MAX_CPUS 4096
#define SI_WORDS (SI_MAX_CPUS / 64)

/*
 * Read the first line of path into buf without its newline. Returns 0,
 * or -errno with buf set to "".
 */
static int si_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ret = 0;

	buf[0] = '\0';
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		ret = -EIO;
	else
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return ret;
}

/* Read a decimal long from path; def when unreadable. */
static long si_read_long(const char *path, long def)
{
	char buf[64], *end;
	long v;

	if (si_read_line(path, buf, sizeof(buf)))
		return def;
	v = strtol(buf, &end, 10);
	return end == buf ? def : v;
}

/*
 * Find "key<spaces/tabs>: value" in the text of a /proc/cpuinfo-style file
 * (first match) and copy value into buf. Returns 0 or -ENOENT.
 */
static int si_cpuinfo_field(const char *text, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);
	const char *p = text;

	buf[0] = '\0';
	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t l = eol ? (size_t)(eol - p) : strlen(p);

		if (l > klen && strncmp(p, key, klen) == 0) {
			const char *q = p + klen;

			while (q < p + l && (*q == ' ' || *q == '\t'))
				q++;
			if (q < p + l && *q == ':') {
				q++;
				while (q < p + l && *q == ' ')
					q++;
				snprintf(buf, len, "%.*s", (int)(p + l - q), q);
				return 0;
			}
		}
		p = eol ? eol + 1 : NULL;
	}
	return -ENOENT;
}

/* Slurp /proc/cpuinfo (up to 256 KiB: the first CPUs are enough). */
static char *read_cpuinfo(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	size_t cap = 256 * 1024, n;
	char *buf;

	if (!f)
		return NULL;
	buf = malloc(cap);
	if (buf) {
		n = fread(buf, 1, cap - 1, f);
		buf[n] = '\0';
	}
	fclose(f);
	return buf;
}

/* The bracketed word of a sysfs choice file ("always [madvise] never"). */
static void read_choice(const char *path, char *out, size_t len)
{
	char buf[256], *a, *b;

	snprintf(out, len, "unknown");
	if (si_read_line(path, buf, sizeof(buf)))
		return;
	a = strchr(buf, '[');
	b = a ? strchr(a, ']') : NULL;
	if (a && b)
		snprintf(out, len, "%.*s", (int)(b - a - 1), a + 1);
}

/* x86: the vendor (when cpuinfo lacked it), the hypervisor bit and vendor, and the TLBs. */
static void collect_x86(struct sysinfo *si)
{
	struct cpuid_regs r, l5, l6, l19, sub[16];
	uint32_t maxb, maxe;

	if (cpuid_read(0, 0, &r))
		return;
	maxb = r.eax;
	if (!si->cpu_vendor[0]) {
		memcpy(si->cpu_vendor, &r.ebx, 4);
		memcpy(si->cpu_vendor + 4, &r.edx, 4);
		memcpy(si->cpu_vendor + 8, &r.ecx, 4);
		si->cpu_vendor[12] = '\0';
	}
	if (cpuid_read(1, 0, &r) == 0 && (r.ecx & (1u << 31))) {
		struct cpuid_regs h;
		char v[13];

		si->is_vm = 1;
		cpuid_read(0x40000000, 0, &h);
		memcpy(v, &h.ebx, 4);
		memcpy(v + 4, &h.ecx, 4);
		memcpy(v + 8, &h.edx, 4);
		v[12] = '\0';
		for (int i = 0; i < 12; i++)
			if (v[i] && !isprint((unsigned char)v[i]))
				v[i] = '?';
		snprintf(si->hypervisor, sizeof(si->hypervisor), "%s", v);
	}
	cpuid_read(0x80000000, 0, &r);
	maxe = r.eax;
	if (!strcmp(si->cpu_vendor, "AuthenticAMD") || !strcmp(si->cpu_vendor, "HygonGenuine")) {
		if (maxe < 0x80000006)
			return;
		cpuid_read(0x80000005, 0, &l5);
		cpuid_read(0x80000006, 0, &l6);
		if (maxe >= 0x80000019)
			cpuid_read(0x80000019, 0, &l19);
		si->ntlb = cpuid_amd_tlbs(&l5, &l6, maxe >= 0x80000019 ? &l19 : NULL,
					  si->tlb, SI_TLB_MAX);
	} else if (!strcmp(si->cpu_vendor, "GenuineIntel")) {
		if (maxb >= 0x18) {
			unsigned n;

			cpuid_read(0x18, 0, &sub[0]);
			n = sub[0].eax + 1 > 16 ? 16 : sub[0].eax + 1;
			for (unsigned i = 1; i < n; i++)
				cpuid_read(0x18, i, &sub[i]);
			si->ntlb = cpuid_intel_tlbs18(sub, n, si->tlb, SI_TLB_MAX);
		}
		if (!si->ntlb && maxb >= 2) {
			cpuid_read(2, 0, &r);
			si->ntlb = cpuid_intel_tlbs2(&r, si->tlb, SI_TLB_MAX);
		}
	}
	if (si->ntlb)
		snprintf(si->tlb_source, sizeof(si->tlb_source), "cpuid");
}

/* arm64: MIDR fields from cpuinfo, core name and TLBs from the table. */
static void collect_arm64(struct sysinfo *si, const char *ci)
{
	char impl[32], part[32], var[32], rev[32];
	const char *name = NULL;
	unsigned i, p;

	if (si_cpuinfo_field(ci, "CPU implementer", impl, sizeof(impl)) ||
	    si_cpuinfo_field(ci, "CPU part", part, sizeof(part)))
		return;
	si_cpuinfo_field(ci, "CPU variant", var, sizeof(var));
	si_cpuinfo_field(ci, "CPU revision", rev, sizeof(rev));
	i = (unsigned)strtoul(impl, NULL, 0);
	p = (unsigned)strtoul(part, NULL, 0);
	si->family = (unsigned)strtoul(var, NULL, 0);	/* variant */
	si->model = p;
	si->stepping = (unsigned)strtoul(rev, NULL, 0);	/* revision */
	snprintf(si->cpu_vendor, sizeof(si->cpu_vendor), "%s", i == 0x41 ? "ARM" : impl);
	si->ntlb = arm64_tlbs(i, p, &name, si->tlb, SI_TLB_MAX);
	if (name)
		snprintf(si->cpu_model, sizeof(si->cpu_model), "%s", name);
	else
		snprintf(si->cpu_model, sizeof(si->cpu_model), "implementer %s part %s", impl, part);
	if (si->ntlb)
		snprintf(si->tlb_source, sizeof(si->tlb_source), "table");
}

/* sparc64: "cpu", "MMU Type" and "MMU PGSZs" from cpuinfo; see sparc_tlbs(). */
static void collect_sparc(struct sysinfo *si, const char *ci)
{
	char mmu[64], pgsz[64];

	si_cpuinfo_field(ci, "cpu", si->cpu_model, sizeof(si->cpu_model));
	snprintf(si->cpu_vendor, sizeof(si->cpu_vendor), "sparc");
	if (si_cpuinfo_field(ci, "MMU Type", mmu, sizeof(mmu)) ||
	    si_cpuinfo_field(ci, "MMU PGSZs", pgsz, sizeof(pgsz)))
		return;
	si->ntlb = sparc_tlbs(si->cpu_model, pgsz, si->tlb, SI_TLB_MAX);
	snprintf(si->tlb_source, sizeof(si->tlb_source), "cpuinfo");
}

/* vendor, model, f/m/s, microcode and the TLBs for this architecture. */
static void collect_cpu(struct sysinfo *si)
{
	char *ci = read_cpuinfo();
	char buf[64], flags[8192];

	snprintf(si->tlb_source, sizeof(si->tlb_source), "unknown");
	if (!ci)
		return;
	si_cpuinfo_field(ci, "vendor_id", si->cpu_vendor, sizeof(si->cpu_vendor));
	si_cpuinfo_field(ci, "model name", si->cpu_model, sizeof(si->cpu_model));
	si_cpuinfo_field(ci, "microcode", si->microcode, sizeof(si->microcode));
	if (!si_cpuinfo_field(ci, "cpu family", buf, sizeof(buf)))
		si->family = (unsigned)strtoul(buf, NULL, 10);
	if (!si_cpuinfo_field(ci, "model", buf, sizeof(buf)))
		si->model = (unsigned)strtoul(buf, NULL, 10);
	if (!si_cpuinfo_field(ci, "stepping", buf, sizeof(buf)))
		si->stepping = (unsigned)strtoul(buf, NULL, 10);
	if (!strcmp(si->arch, "x86_64") || !strncmp(si->arch, "i", 1))
		collect_x86(si);
	else if (!strcmp(si->arch, "aarch64"))
		collect_arm64(si, ci);
	else if (!strncmp(si->arch, "sparc", 5))
		collect_sparc(si, ci);
	/* Without CPUID: the "hypervisor" flag some kernels print. */
	if (!si->is_vm && !si_cpuinfo_field(ci, "flags", flags, sizeof(flags))) {
		char *w = strstr(flags, "hypervisor");

		if (w && (w == flags || w[-1] == ' ') && (!w[10] || w[10] == ' '))
			si->is_vm = 1;
	}
	free(ci);
}

/* The highest SMT width over the online CPUs (thread_siblings_list). */
static unsigned smt_width(unsigned ncpu_conf)
{
	static uint64_t set[SI_WORDS];
	char path[128], buf[1024];
	unsigned best = 1;

	for (unsigned c = 0; c < ncpu_conf && c < SI_MAX_CPUS; c++) {
		int n;

		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%u/topology/thread_siblings_list", c);
		if (si_read_line(path, buf, sizeof(buf)))
			continue;
		n = parse_cpulist(buf, set, SI_MAX_CPUS);
		if (n > 0 && (unsigned)n > best)
			best = (unsigned)n;
	}
	return best;
}

/* Compare pools by page size for qsort. */
static int pool_cmp(const void *a, const void *b)
{
	const struct si_pool *x = a, *y = b;

	return x->page_size < y->page_size ? -1 : x->page_size > y->page_size;
}

/* Every hugetlb pool the kernel offers, smallest page size first. */
static void collect_pools(struct sysinfo *si)
{
	DIR *d = opendir("/sys/kernel/mm/hugepages");
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) && si->npool < SI_POOL_MAX) {
		unsigned long long kb;

		if (sscanf(e->d_name, "hugepages-%llukB", &kb) != 1)
			continue;
		if (!sysinfo_pool(kb * 1024, &si->pool[si->npool]))
			si->npool++;
	}
	closedir(d);
	qsort(si->pool, si->npool, sizeof(si->pool[0]), pool_cmp);
}

/*
 * A core (hardware) PMU under /sys/bus/event_source/devices: one of perf's
 * core PMU names, or any PMU registered with type PERF_TYPE_RAW (4).
 * software, tracepoint, breakpoint, msr, uprobe, kprobe, power and uncore
 * PMUs do not count.
 */
static void collect_pmu(struct sysinfo *si)
{
	static const char *const core_names[] = { "cpu", "cpu_core", "cpu_atom", "cpum_cf", NULL };
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) && !si->has_core_pmu) {
		char path[512];
		int core = 0;

		if (e->d_name[0] == '.')
			continue;
		for (int i = 0; core_names[i]; i++)
			core |= !strcmp(e->d_name, core_names[i]);
		core |= !strncmp(e->d_name, "armv8_", 6) || !strncmp(e->d_name, "armv9_", 6);
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", e->d_name);
		core |= si_read_long(path, -1) == 4;
		if (core) {
			si->has_core_pmu = 1;
			snprintf(si->core_pmu, sizeof(si->core_pmu), "%.31s", e->d_name);
		}
	}
	closedir(d);
}

int sysinfo_pool(uint64_t page_size, struct si_pool *p)
{
	static const char *const files[4] = {
		"nr_hugepages", "free_hugepages", "resv_hugepages", "surplus_hugepages",
	};
	long *dst[4] = { &p->total, &p->free, &p->resv, &p->surplus };
	char path[256];

	memset(p, 0, sizeof(*p));
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/hugepages-%llukB/%s",
			 (unsigned long long)(page_size / 1024), files[i]);
		*dst[i] = si_read_long(path, -1);
		if (*dst[i] < 0)
			return -ENOENT;
	}
	p->page_size = page_size;
	return 0;
}

int sysinfo_name_ok(const char *name)
{
	size_t l = name ? strlen(name) : 0;

	return l >= 1 && l <= 63 &&
	       strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") == l;
}

/*
 * The machine's name, as LNT names machines: SGABENCH_MACHINE, else the
 * hostname. A name that sysinfo_name_ok refuses is warned about (once) and
 * the hostname used.
 */
static void machine_name(struct sysinfo *si)
{
	static int warned;
	const char *env = getenv("SGABENCH_MACHINE");

	if (env && *env && sysinfo_name_ok(env)) {
		snprintf(si->machine_name, sizeof(si->machine_name), "%s", env);
		return;
	}
	if (env && *env && !warned++)
		warning("SGABENCH_MACHINE '%s' is not a machine name (1-63 of A-Z a-z 0-9 . _ -): "
			"using the hostname '%s'", env, si->hostname);
	snprintf(si->machine_name, sizeof(si->machine_name), "%s", si->hostname[0] ? si->hostname : "unknown");
}

void sysinfo_collect(struct sysinfo *si)
{
	struct utsname u;
	long n;

	memset(si, 0, sizeof(*si));
	if (uname(&u) == 0) {
		snprintf(si->hostname, sizeof(si->hostname), "%.63s", u.nodename);
		snprintf(si->arch, sizeof(si->arch), "%.15s", u.machine);
		snprintf(si->kernel, sizeof(si->kernel), "%.127s", u.release);
	}
	machine_name(si);
	kvariant_current(si->kernel, si->kernel_variant, sizeof(si->kernel_variant));
	collect_cpu(si);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	si->ncpus = n > 0 ? (unsigned)n : 1;
	n = sysconf(_SC_NPROCESSORS_CONF);
	si->threads_per_core = smt_width(n > 0 ? (unsigned)n : si->ncpus);
	si->numa_nodes = (unsigned)place_numa_nodes();
	collect_pools(si);
	read_choice("/sys/kernel/mm/transparent_hugepage/enabled", si->thp, sizeof(si->thp));
	read_choice("/sys/kernel/mm/transparent_hugepage/shmem_enabled",
		    si->shmem_thp, sizeof(si->shmem_thp));
	si_read_line("/proc/cmdline", si->cmdline, sizeof(si->cmdline));
	si_read_line("/proc/sys/kernel/random/boot_id", si->boot_id, sizeof(si->boot_id));
	if (si_read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
			 si->governor, sizeof(si->governor)) || !si->governor[0])
		snprintf(si->governor, sizeof(si->governor), "none");
	si->paranoid = (int)si_read_long("/proc/sys/kernel/perf_event_paranoid", 99);
	if (!si->is_vm) {
		char t[32];

		/* Xen guests without CPUID's bit; device-tree hypervisor node on arm64. */
		if (!si_read_line("/sys/hypervisor/type", t, sizeof(t)) && t[0]) {
			si->is_vm = 1;
			snprintf(si->hypervisor, sizeof(si->hypervisor), "%s", t);
		} else if (access("/proc/device-tree/hypervisor", F_OK) == 0) {
			si->is_vm = 1;
		}
	}
	collect_pmu(si);
	sysinfo_fingerprint(si);
}

/*
 * Whether this process may create SHM_HUGETLB segments: CAP_IPC_LOCK in
 * its effective set, or membership of the group vm.hugetlb_shm_group
 * names (the kernel's can_do_hugetlb_shm()). 1 when it cannot tell.
 */
int sysinfo_shm_hugetlb_allowed(void)
{
	char line[256];
	unsigned long long cap = 0;
	long grp = -1;
	gid_t gs[256];
	int n, ok = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (f) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "CapEff: %llx", &cap) == 1)
				ok = (cap >> 14) & 1;	/* CAP_IPC_LOCK */
		fclose(f);
	}
	if (ok == 1)
		return 1;
	f = fopen("/proc/sys/vm/hugetlb_shm_group", "r");
	if (!f || fscanf(f, "%ld", &grp) != 1) {
		if (f)
			fclose(f);
		return 1;
	}
	fclose(f);
	if ((gid_t)grp == getegid())
		return 1;
	n = getgroups(256, gs);
	for (int i = 0; i < n; i++)
		if (gs[i] == (gid_t)grp)
			return 1;
	return ok == -1;
}
