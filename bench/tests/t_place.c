/* t_place.c - placement plans on made-up topologies, their errors, and this machine. */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "lib/log.h"
#include "machine/place.h"
#include "machine/place_topo.h"
#include "tap.h"

static struct place_topo topo;

/*
 * ncpus CPUs, all online and allowed; SMT siblings c and c+ncores when
 * smt == 2 and interleaved is 0 (Intel numbering), c and c+1 when 1 (AMD);
 * CPUs split evenly over nnodes nodes by core.
 */
static void make_topo(unsigned ncores, unsigned smt, int interleaved, int nnodes)
{
	memset(&topo, 0, sizeof(topo));
	topo.ncpus = ncores * smt;
	topo.smt = smt;
	topo.nnodes = nnodes;
	for (unsigned c = 0; c < topo.ncpus; c++) {
		unsigned core = interleaved ? c / smt : c % ncores;

		topo.online[c / 64] |= 1ULL << (c % 64);
		topo.allowed[c / 64] |= 1ULL << (c % 64);
		topo.core[c] = smt == 1 ? (int)c : interleaved ? (int)(core * smt) : (int)core;
		topo.node[c] = (int)(core * (unsigned)nnodes / ncores);
	}
}

/* Plan mode (with cpus list) for n tasks; check the CPUs against want. */
static void plan_is(const char *mode, const char *cpus, unsigned n, const int *want,
		    const char *name)
{
	struct place_spec s = { 0 };
	int cpu[32], ret;
	char err[512] = "";
	int same = 1;

	ok(place_parse(mode, &s) == 0, "parse '%s'", mode);
	s.cpus = cpus;
	ret = place_plan_topo(&topo, &s, n, cpu, err, sizeof(err));
	for (unsigned i = 0; i < n; i++)
		same &= ret == 0 && cpu[i] == want[i];
	ok(same, "%s", name);
	if (!same) {
		printf("#   ret %d err '%s' got", ret, err);
		for (unsigned i = 0; ret == 0 && i < n; i++)
			printf(" %d", cpu[i]);
		printf("\n");
	}
}

/* Plan must fail with status and a message containing text. */
static void plan_fails(const char *mode, const char *cpus, int status, const char *text,
		       const char *name)
{
	struct place_spec s = { 0 };
	int cpu[8], ret;
	char err[512] = "";

	place_parse(mode, &s);
	s.cpus = cpus;
	ret = place_plan_topo(&topo, &s, 4, cpu, err, sizeof(err));
	ok(ret == status && strstr(err, text), "%s", name);
	if (ret != status || !strstr(err, text))
		printf("#   ret %d err '%s'\n", ret, err);
}

static void test_parse(void)
{
	static const char *const bad[] = { "", "node:", "node:-1", "node:1x", "node", "spreads",
					   "SMT", "node:99999999999", NULL };
	struct place_spec s = { 0 };
	int all_bad = 1;

	ok(place_parse("node:3", &s) == 0 && s.mode == PLACE_NODE && s.node == 3, "parse node:3");
	ok(place_parse("spread", &s) == 0 && s.mode == PLACE_SPREAD, "parse spread");
	ok(place_parse("same-cpu", &s) == 0 && s.mode == PLACE_SAME_CPU, "parse same-cpu");
	for (int i = 0; bad[i]; i++)
		all_bad &= place_parse(bad[i], &s) == -EINVAL;
	ok(all_bad, "bad placements are -EINVAL (empty, node:, node:-1, node:1x, ...)");
}

/* 4 cores x 2 threads, Intel numbering (siblings 0/4, 1/5, ...), 2 nodes. */
static void test_smt_machine(void)
{
	static const int smt6[] = { 0, 4, 1, 5, 2, 6 };
	static const int spread10[] = { 0, 1, 2, 3, 4, 5, 6, 7, 0, 1 };
	static const int node1[] = { 2, 3, 6, 7, 2 };
	static const int same[] = { 0, 0, 0 };
	static const int same5[] = { 5, 5, 5 };
	static const int none[] = { -1, -1, -1 };
	static const int none_list[] = { 2, 3, 2 };
	static const int smt_list[] = { 1, 5, 2, 6, 1 };
	static const int spread_list[] = { 1, 2, 5, 6 };

	make_topo(4, 2, 0, 2);
	plan_is("smt", NULL, 6, smt6, "smt: fills both siblings of a core before the next core");
	plan_is("spread", NULL, 10, spread10, "spread: one per core, then the siblings, then wraps");
	plan_is("node:1", NULL, 5, node1, "node:1: round-robin over node 1's CPUs");
	plan_is("same-cpu", NULL, 3, same, "same-cpu: all on the first allowed CPU");
	plan_is("same-cpu", "5-7", 3, same5, "same-cpu with --cpus 5-7: all on CPU 5");
	plan_is("none", NULL, 3, none, "none: not pinned");
	plan_is("none", "2,3", 3, none_list, "none with --cpus: round-robin over the list");
	plan_is("smt", "1-2,5-6", 5, smt_list, "smt within --cpus 1-2,5-6");
	plan_is("spread", "1-2,5-6", 4, spread_list, "spread within --cpus 1-2,5-6");

	plan_fails("smt", "0-3", EX_USAGE, "no two SMT siblings", "smt with --cpus holding no siblings");
	plan_fails("node:2", NULL, EX_USAGE, "node:2: this machine has NUMA nodes 0..1",
		   "node out of range");
	plan_fails("node:1", "0-1", EX_USAGE, "node has none of the usable CPUs",
		   "node whose CPUs are all outside --cpus");
	plan_fails("spread", "", EX_USAGE, "--cpus '': not a CPU list", "empty CPU list");
	plan_fails("spread", "3-1", EX_USAGE, "not a CPU list", "reversed CPU range");
	plan_fails("spread", "9999", EX_USAGE, "CPU numbers go up to", "CPU beyond PLACE_MAX_CPUS");
	plan_fails("spread", "4-12", EX_USAGE, "CPU 8 is not online; usable CPUs here: 0-7",
		   "CPU beyond the machine names it and the usable list");
	topo.online[0] &= ~(1ULL << 6);
	plan_fails("spread", "5-6", EX_USAGE, "CPU 6 is not online; usable CPUs here: 0-5,7",
		   "offline CPU in --cpus");
	topo.allowed[0] &= ~(1ULL << 7);
	plan_fails("same-cpu", "7", EX_USAGE, "CPU 7 is not in this process's affinity mask",
		   "CPU outside the affinity mask");
	{
		static const int spread_left[] = { 0, 1, 2, 3, 4, 5, 0 };

		plan_is("spread", NULL, 7, spread_left,
			"without --cpus only online, allowed CPUs are used");
	}
}

/* 4 cores x 2 threads, AMD numbering (siblings 0/1, 2/3, ...); and no SMT. */
static void test_other_machines(void)
{
	static const int smt4[] = { 0, 1, 2, 3 };
	static const int spread4[] = { 0, 2, 4, 6 };
	static const int spread2[] = { 0, 1, 0 };

	make_topo(4, 2, 1, 1);
	plan_is("smt", NULL, 4, smt4, "smt, adjacent siblings: 0 1 2 3");
	plan_is("spread", NULL, 4, spread4, "spread, adjacent siblings: 0 2 4 6");
	make_topo(2, 1, 1, 1);
	plan_fails("smt", NULL, EX_RESOURCE, "--place smt: this machine has no SMT",
		   "smt on a machine without SMT is a missing resource");
	plan_is("spread", NULL, 3, spread2, "spread on 2 cores without SMT wraps");
	plan_fails("node:1", NULL, EX_USAGE, "this machine has NUMA node 0..0",
		   "node:1 on a one-node machine");
}

/* The real machine: plan, pin, bind and check numa_maps. */
static void test_this_machine(void)
{
	struct place_spec s = { .mode = PLACE_SAME_CPU };
	struct place_topo *t = malloc(sizeof(*t));
	int cpu[2] = { -2, -2 }, ret;
	char err[512] = "";
	size_t len = 4 << 20;
	uint64_t on, off;
	void *p;

	ret = t ? place_topo_read(t) : -ENOMEM;
	if (ret) {
		ok(0, "place_topo_read: %d", ret);
		free(t);
		return;
	}
	ok(t->ncpus >= 1 && t->smt >= 1 && t->nnodes >= 1,
	   "place_topo_read: %u CPUs, SMT %u, %d nodes", t->ncpus, t->smt, t->nnodes);
	ret = place_plan(&s, 2, cpu, err, sizeof(err));
	ok(ret == 0 && cpu[0] >= 0 && cpu[0] == cpu[1], "same-cpu plan here: CPU %d", cpu[0]);
	ok(place_pin(cpu[0]) == 0 && sched_getcpu() == cpu[0], "place_pin moves us to CPU %d", cpu[0]);
	ok(place_pin(-1) == 0, "place_pin(-1) is a no-op");
	s.mode = PLACE_SMT;
	ret = place_plan(&s, 2, cpu, err, sizeof(err));
	if (t->smt < 2)
		ok(ret == EX_RESOURCE, "smt here (no SMT) is EX_RESOURCE: %s", err);
	else
		ok(ret == 0, "smt here plans");
	ok(place_numa_nodes() >= 1, "place_numa_nodes: %d", place_numa_nodes());
	ok(place_bind_memory(NULL, 4096, place_numa_nodes()) == -EINVAL, "bind to a missing node is -EINVAL");
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ret = p == MAP_FAILED ? -errno : place_bind_memory(p, len, 0);
	ok(ret == 0, "mbind a 4 MiB shared mapping to node 0 (%d)", ret);
	for (size_t o = 0; p != MAP_FAILED && o < len; o += 4096)
		((volatile char *)p)[o] = 1;
	ret = p == MAP_FAILED ? -ENOMEM : place_check_numa_maps(p, 0, &on, &off);
	if (ret == -ENOENT && access("/proc/self/numa_maps", F_OK))
		skip("no /proc/self/numa_maps on this kernel");
	else
		ok(ret == 0 && on == len / 4096 && off == 0,
		   "numa_maps: %llu pages on node 0, %llu elsewhere", (unsigned long long)on,
		   (unsigned long long)off);
	ok(place_check_numa_maps((char *)p + 4096, 0, &on, &off) == -ENOENT,
	   "numa_maps: an address that starts no mapping is -ENOENT");
	if (p != MAP_FAILED)
		munmap(p, len);
	free(t);
}

int main(void)
{
	test_parse();
	test_smt_machine();
	test_other_machines();
	test_this_machine();
	return done_testing();
}
