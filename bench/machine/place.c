/*
 * place.c - task placement on the sysfs CPU topology, and NUMA memory
 * binding through libnuma.
 *
 * A plan is a list of CPUs, one per task, chosen from the candidate CPUs:
 * online, in this process's affinity mask and, with --cpus, in that list.
 * Tasks beyond the number of distinct CPUs in the order wrap round.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <numa.h>
#include <numaif.h>
#include "lib/log.h"
#include "lib/parse.h"
#include "machine/place.h"
#include "machine/place_topo.h"

static int test_bit(const uint64_t *set, unsigned i)
{
	return (set[i / 64] >> (i % 64)) & 1;
}

static void set_bit(uint64_t *set, unsigned i)
{
	set[i / 64] |= 1ULL << (i % 64);
}

int place_parse(const char *s, struct place_spec *spec)
{
	static const char *const names[] = { "none", "same-cpu", "smt", "spread" };
	static const enum place_mode modes[] = { PLACE_NONE, PLACE_SAME_CPU, PLACE_SMT, PLACE_SPREAD };
	char *end;
	long n;

	if (!s)
		return -EINVAL;
	for (int i = 0; i < 4; i++) {
		if (!strcmp(s, names[i])) {
			spec->mode = modes[i];
			spec->node = 0;
			return 0;
		}
	}
	if (strncmp(s, "node:", 5) || !isdigit((unsigned char)s[5]))
		return -EINVAL;
	errno = 0;
	n = strtol(s + 5, &end, 10);
	if (*end || errno || n > INT_MAX)
		return -EINVAL;
	spec->mode = PLACE_NODE;
	spec->node = (int)n;
	return 0;
}

/* Format set (CPUs below n) as a CPU list "0-3,8" into buf. */
static const char *fmt_cpulist(const uint64_t *set, unsigned n, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned c = 0; c < n; c++) {
		unsigned e = c;

		if (!test_bit(set, c))
			continue;
		while (e + 1 < n && test_bit(set, e + 1))
			e++;
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, off ? ",%u" : "%u", c);
		if (e > c && off < len)
			off += (size_t)snprintf(buf + off, len - off, "-%u", e);
		c = e;
	}
	if (!buf[0])
		snprintf(buf, len, "none");
	return buf;
}

/*
 * Fill cand with the CPUs tasks may use: online & allowed, narrowed to the
 * --cpus list. Returns 0, or EX_USAGE with a message naming the CPU.
 */
static int candidates(const struct place_topo *t, const char *list, uint64_t *cand,
		      char *err, size_t errlen)
{
	uint64_t want[PLACE_WORDS], usable[PLACE_WORDS];
	char ok_list[256];
	int n;

	for (unsigned w = 0; w < PLACE_WORDS; w++)
		usable[w] = t->online[w] & t->allowed[w];
	fmt_cpulist(usable, t->ncpus, ok_list, sizeof(ok_list));
	if (!list) {
		memcpy(cand, usable, sizeof(usable));
		return 0;
	}
	n = parse_cpulist(list, want, PLACE_MAX_CPUS);
	if (n == -ERANGE) {
		snprintf(err, errlen, "--cpus '%s': CPU numbers go up to %d; usable CPUs here: %s",
			 list, PLACE_MAX_CPUS - 1, ok_list);
		return EX_USAGE;
	}
	if (n <= 0) {
		snprintf(err, errlen, "--cpus '%s': not a CPU list (e.g. 0-3,8); usable CPUs here: %s",
			 list, ok_list);
		return EX_USAGE;
	}
	for (unsigned c = 0; c < PLACE_MAX_CPUS; c++) {
		if (!test_bit(want, c))
			continue;
		if (c >= t->ncpus || !test_bit(t->online, c)) {
			snprintf(err, errlen, "--cpus '%s': CPU %u is not online; usable CPUs here: %s",
				 list, c, ok_list);
			return EX_USAGE;
		}
		if (!test_bit(t->allowed, c)) {
			snprintf(err, errlen, "--cpus '%s': CPU %u is not in this process's affinity "
				 "mask (taskset); usable CPUs here: %s", list, c, ok_list);
			return EX_USAGE;
		}
	}
	memcpy(cand, want, sizeof(want));
	return 0;
}

static int core_of(const struct place_topo *t, unsigned c)
{
	return t->core[c] < 0 ? (int)c : t->core[c];
}

/*
 * Order cand for mode: smt lists each core's siblings together, core by
 * core; spread takes the first sibling of every core, then the second...;
 * node keeps the CPUs of spec->node; others keep ascending CPU order.
 * Returns the number of CPUs written to order.
 */
static unsigned order_cpus(const struct place_topo *t, const struct place_spec *spec,
			   const uint64_t *cand, int *order)
{
	int rank[PLACE_MAX_CPUS];
	uint64_t done[PLACE_WORDS];
	unsigned n = 0, maxrank = 0;

	memset(done, 0, sizeof(done));
	for (unsigned c = 0; c < t->ncpus; c++) {
		if (!test_bit(cand, c))
			continue;
		if (spec->mode == PLACE_NODE && t->node[c] != spec->node)
			continue;
		if (spec->mode == PLACE_SMT) {
			if (test_bit(done, c))
				continue;
			for (unsigned d = c; d < t->ncpus; d++) {
				if (test_bit(cand, d) && core_of(t, d) == core_of(t, c)) {
					set_bit(done, d);
					order[n++] = (int)d;
				}
			}
			continue;
		}
		if (spec->mode == PLACE_SPREAD) {
			rank[c] = 0;
			for (unsigned d = 0; d < c; d++)
				rank[c] += test_bit(cand, d) && core_of(t, d) == core_of(t, c);
			if ((unsigned)rank[c] > maxrank)
				maxrank = (unsigned)rank[c];
			continue;
		}
		order[n++] = (int)c;
	}
	if (spec->mode == PLACE_SPREAD)
		for (unsigned r = 0; r <= maxrank; r++)
			for (unsigned c = 0; c < t->ncpus; c++)
				if (test_bit(cand, c) && (unsigned)rank[c] == r)
					order[n++] = (int)c;
	return n;
}

/* Whether some core has two or more CPUs in cand. */
static int has_siblings(const struct place_topo *t, const uint64_t *cand)
{
	for (unsigned c = 0; c < t->ncpus; c++) {
		if (!test_bit(cand, c))
			continue;
		for (unsigned d = c + 1; d < t->ncpus; d++)
			if (test_bit(cand, d) && core_of(t, d) == core_of(t, c))
				return 1;
	}
	return 0;
}

int place_plan_topo(const struct place_topo *t, const struct place_spec *spec,
		    unsigned ntasks, int *cpu, char *err, size_t errlen)
{
	uint64_t cand[PLACE_WORDS];
	int order[PLACE_MAX_CPUS];
	char list[256];
	unsigned n;
	int ret;

	ret = candidates(t, spec->cpus, cand, err, errlen);
	if (ret)
		return ret;
	fmt_cpulist(cand, t->ncpus, list, sizeof(list));
	if (spec->mode == PLACE_NONE && !spec->cpus) {
		for (unsigned i = 0; i < ntasks; i++)
			cpu[i] = -1;
		return 0;
	}
	if (spec->mode == PLACE_NODE && (spec->node < 0 || spec->node >= t->nnodes)) {
		snprintf(err, errlen, "--place node:%d: this machine has NUMA node%s 0..%d",
			 spec->node, t->nnodes > 1 ? "s" : "", t->nnodes - 1);
		return EX_USAGE;
	}
	if (spec->mode == PLACE_SMT && t->smt < 2) {
		snprintf(err, errlen, "--place smt: this machine has no SMT (1 thread per core); "
			 "use --place same-cpu to share one TLB, or --place spread");
		return EX_RESOURCE;
	}
	if (spec->mode == PLACE_SMT && !has_siblings(t, cand)) {
		snprintf(err, errlen, "--place smt: no two SMT siblings among the usable CPUs (%s); "
			 "widen --cpus or the affinity mask", list);
		return EX_USAGE;
	}
	n = order_cpus(t, spec, cand, order);
	if (!n) {
		if (spec->mode == PLACE_NODE)
			snprintf(err, errlen, "--place node:%d: the node has none of the usable CPUs "
				 "(%s); for memory only, use --mem-node %d", spec->node, list, spec->node);
		else
			snprintf(err, errlen, "no usable CPU: online and allowed CPUs: %s", list);
		return EX_USAGE;
	}
	for (unsigned i = 0; i < ntasks; i++)
		cpu[i] = spec->mode == PLACE_SAME_CPU ? order[0] : order[i % n];
	return 0;
}

/* Read a sysfs CPU list file into set; returns the count or -errno. */
static int read_cpulist(const char *path, uint64_t *set)
{
	char buf[4096];
	FILE *f = fopen(path, "r");
	int ret;

	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	ret = parse_cpulist(buf, set, PLACE_MAX_CPUS);
	return ret;
}

int place_topo_read(struct place_topo *t)
{
	uint64_t sib[PLACE_WORDS];
	cpu_set_t *mask;
	size_t msize = CPU_ALLOC_SIZE(PLACE_MAX_CPUS);
	char path[128];
	int ret = 0;

	memset(t, 0, sizeof(*t));
	if (read_cpulist("/sys/devices/system/cpu/online", t->online) <= 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		for (long c = 0; c < n && c < PLACE_MAX_CPUS; c++)
			set_bit(t->online, (unsigned)c);
	}
	for (unsigned c = 0; c < PLACE_MAX_CPUS; c++)
		if (test_bit(t->online, c))
			t->ncpus = c + 1;
	mask = CPU_ALLOC(PLACE_MAX_CPUS);
	if (!mask)
		return -ENOMEM;
	CPU_ZERO_S(msize, mask);
	if (sched_getaffinity(0, msize, mask)) {
		ret = -errno;
		goto out;
	}
	t->smt = 1;
	t->nnodes = place_numa_nodes();
	for (unsigned c = 0; c < t->ncpus; c++) {
		int n;

		if (CPU_ISSET_S(c, msize, mask))
			set_bit(t->allowed, c);
		t->core[c] = -1;
		t->node[c] = -1;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%u/topology/thread_siblings_list", c);
		n = read_cpulist(path, sib);
		if (n <= 0)
			continue;
		if ((unsigned)n > t->smt)
			t->smt = (unsigned)n;
		for (unsigned d = 0; d < PLACE_MAX_CPUS; d++) {
			if (test_bit(sib, d)) {
				t->core[c] = (int)d;
				break;
			}
		}
	}
	for (int node = 0; node < t->nnodes; node++) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", node);
		if (read_cpulist(path, sib) <= 0)
			continue;
		for (unsigned c = 0; c < t->ncpus; c++)
			if (test_bit(sib, c))
				t->node[c] = node;
	}
	if (t->nnodes == 1)
		for (unsigned c = 0; c < t->ncpus; c++)
			t->node[c] = 0;
out:
	CPU_FREE(mask);
	return ret;
}

int place_plan(const struct place_spec *spec, unsigned ntasks, int *cpu,
	       char *err, size_t errlen)
{
	struct place_topo *t = malloc(sizeof(*t));
	int ret;

	if (!t) {
		snprintf(err, errlen, "out of memory reading the CPU topology");
		return EX_RESOURCE;
	}
	ret = place_topo_read(t);
	if (ret) {
		snprintf(err, errlen, "reading the CPU topology: %s", strerror(-ret));
		ret = EX_RESOURCE;
	} else {
		ret = place_plan_topo(t, spec, ntasks, cpu, err, errlen);
	}
	free(t);
	return ret;
}

int place_pin(int cpu)
{
	size_t size = CPU_ALLOC_SIZE(PLACE_MAX_CPUS);
	cpu_set_t *set;
	int ret = 0;

	if (cpu < 0)
		return 0;
	if (cpu >= PLACE_MAX_CPUS)
		return -EINVAL;
	set = CPU_ALLOC(PLACE_MAX_CPUS);
	if (!set)
		return -ENOMEM;
	CPU_ZERO_S(size, set);
	CPU_SET_S((unsigned)cpu, size, set);
	if (sched_setaffinity(0, size, set))
		ret = -errno;
	CPU_FREE(set);
	return ret;
}

/*
 * Node ids run 0..place_numa_nodes()-1: numa_max_node()+1, which equals the
 * configured node count except on machines with holes in their node ids
 * (place_bind_memory rejects a hole with -EINVAL).
 */
int place_numa_nodes(void)
{
	if (numa_available() < 0)
		return 1;
	return numa_max_node() + 1;
}

int place_bind_memory(void *addr, size_t len, int node)
{
	unsigned long mask[1024 / (8 * sizeof(unsigned long))];
	struct bitmask *allowed;
	int ok;

	if (node < 0 || node >= place_numa_nodes() || node >= 1024)
		return -EINVAL;
	if (numa_available() < 0)
		return 0;	/* no NUMA: all memory is on node 0 already */
	allowed = numa_get_mems_allowed();
	ok = allowed && numa_bitmask_isbitset(allowed, (unsigned)node);
	if (allowed)
		numa_bitmask_free(allowed);
	if (!ok)
		return -EINVAL;
	memset(mask, 0, sizeof(mask));
	mask[node / (8 * sizeof(unsigned long))] |= 1UL << (node % (8 * sizeof(unsigned long)));
	/* maxnode counts bits plus one: the kernel reads maxnode - 1 bits. */
	if (mbind(addr, len, MPOL_BIND, mask, sizeof(mask) * 8 + 1, 0))
		return -errno;
	return 0;
}

int place_check_numa_maps(void *addr, int node, uint64_t *on, uint64_t *off)
{
	FILE *f = fopen("/proc/self/numa_maps", "r");
	char line[4096];
	int ret = -ENOENT;

	*on = *off = 0;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *tok, *save = NULL;

		if (strtoull(line, NULL, 16) != (unsigned long long)(uintptr_t)addr)
			continue;
		for (tok = strtok_r(line, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
			int n;
			unsigned long long pages;

			if (sscanf(tok, "N%d=%llu", &n, &pages) != 2)
				continue;
			if (n == node)
				*on += pages;
			else
				*off += pages;
		}
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}
