/*
 * tlbfloor.c - the least an exact TLB simulation of this kind costs here:
 * a minimal hand-written loop for one geometry, to set beside the model's
 * rate on the same run (scripts/bench-model, section 4).
 *
 *   tlbfloor PATTERN TASKS PAGES ROUNDS SEED
 *
 * TASKS tasks, each with its own stream of PAGES pages (wl_open, as
 * model/sim.c opens task i of TASKS), take one access each in turn on one
 * core with Skylake's 2 MiB translation levels: an L1 of 8 sets of 4 ways
 * and an L2 of 128 sets of 12 ways, both LRU, set = page mod sets, every
 * task's pages its own entries. That is the model's
 *   sgabench sim --machine custom --tlb 'l1d:32,4way,lru,ps=2m;l2d:1536,12way,lru,ps=2m'
 *     --cores 1 --strands TASKS --tasks TASKS --page-size 2m
 *     --working-set PAGES*2m --pattern PATTERN --rounds ROUNDS --seed SEED
 * and the bench checks that both count the same misses. The loop keeps
 * only what the result needs: a row per (task, page) saying which way of
 * each level holds it (0: none), a recency word of 4-bit way numbers per
 * set, and the ids in the ways; no dispatch, no run-time geometry, no
 * counters but the two printed.
 *
 * Prints "accesses L1-misses L2-misses cpu-seconds" on one line.
 * Exit: 0 ok, 2 usage, 3 out of memory or a stream that would not open.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "workloads/workload.h"

#define L1_SETS 8
#define L1_WAYS 4
#define L2_SETS 128
#define L2_WAYS 12
#define CHUNK 512

/* Move way w to the front of a recency word of 4-bit way numbers (most
 * recent lowest): the nibbles below w's move up one. */
static inline uint64_t front(uint64_t order, unsigned w)
{
	const uint64_t ones = 0x1111111111111111ull;
	uint64_t x = order ^ (ones * w), z = (x - ones) & ~x & (ones << 3), upto = z ^ (z - 1);

	return (order ^ ((order ^ (order << 4)) & upto)) | w;
}

/* A recency word of `ways` ways, way 0 least recent; nibbles above hold 0xf. */
static uint64_t order_init(unsigned ways)
{
	uint64_t o = ~0ull;

	for (unsigned p = 0; p < ways; p++)
		o = (o & ~(0xfull << (4 * p))) | ((uint64_t)(ways - 1 - p) << (4 * p));
	return o;
}

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	const struct workload_ops *ops;
	unsigned ntasks;
	uint64_t pages, rounds, seed, miss1 = 0, miss2 = 0, n;
	uint64_t ord1[L1_SETS], ord2[L2_SETS];
	uint32_t id1[L1_SETS * L1_WAYS], id2[L2_SETS * L2_WAYS], *loc, *buf, noid;
	struct wl_stream *s;
	double t0, t1;

	if (argc != 6) {
		fprintf(stderr, "usage: tlbfloor PATTERN TASKS PAGES ROUNDS SEED\n");
		return 2;
	}
	ops = workload_find(argv[1]);
	ntasks = (unsigned)strtoul(argv[2], NULL, 10);
	pages = strtoull(argv[3], NULL, 10);
	rounds = strtoull(argv[4], NULL, 10);
	seed = strtoull(argv[5], NULL, 10);
	if (!ops || !ntasks || ntasks > 256 || !pages || pages > (1u << 20) || !rounds ||
	    pages % CHUNK || rounds > (1ull << 32)) {
		fprintf(stderr, "tlbfloor: unknown pattern, or tasks not 1..256, pages not a multiple of %d "
			"up to 2^20, or rounds not 1..2^32\n", CHUNK);
		return 2;
	}
	noid = (uint32_t)(ntasks * pages);	/* the empty ways' id: a scratch row */
	loc = calloc((size_t)noid + 1, 2 * sizeof(*loc));
	buf = malloc((size_t)ntasks * CHUNK * sizeof(*buf));
	s = calloc(ntasks, sizeof(*s));
	if (!loc || !buf || !s)
		return 3;
	for (unsigned t = 0; t < ntasks; t++) {
		struct wl_params p = { .pages = pages, .rounds = rounds, .seed = seed, .task = t, .ntasks = ntasks };

		if (wl_open(&s[t], ops, &p)) {
			fprintf(stderr, "tlbfloor: task %u's stream would not open\n", t);
			return 3;
		}
	}
	for (unsigned k = 0; k < L1_SETS; k++)
		ord1[k] = order_init(L1_WAYS);
	for (unsigned k = 0; k < L2_SETS; k++)
		ord2[k] = order_init(L2_WAYS);
	for (unsigned k = 0; k < L1_SETS * L1_WAYS; k++)
		id1[k] = noid;
	for (unsigned k = 0; k < L2_SETS * L2_WAYS; k++)
		id2[k] = noid;
	n = pages * rounds;	/* accesses per task: a multiple of CHUNK */
	t0 = cpu_s();
	for (uint64_t done = 0; done < n; done += CHUNK) {
		for (unsigned t = 0; t < ntasks; t++)
			wl_fill(&s[t], buf + (size_t)t * CHUNK, CHUNK);
		for (unsigned j = 0; j < CHUNK; j++)
			for (unsigned t = 0; t < ntasks; t++) {
				uint32_t page = buf[(size_t)t * CHUNK + j], id = t * (uint32_t)pages + page;
				uint32_t *row = loc + (size_t)id * 2;
				unsigned c0 = row[0], c1 = row[1], w;
				size_t k;
				uint64_t o;

				k = page % L1_SETS;
				o = ord1[k];
				w = c0 ? c0 - 1 : (unsigned)(o >> (4 * (L1_WAYS - 1))) & 0xf;
				ord1[k] = front(o, w);
				loc[(size_t)id1[k * L1_WAYS + w] * 2] = 0;
				row[0] = w + 1;
				id1[k * L1_WAYS + w] = id;
				if (c0)
					continue;
				miss1++;
				miss2 += !c1;
				k = page % L2_SETS;
				o = ord2[k];
				w = c1 ? c1 - 1 : (unsigned)(o >> (4 * (L2_WAYS - 1))) & 0xf;
				ord2[k] = front(o, w);
				loc[(size_t)id2[k * L2_WAYS + w] * 2 + 1] = 0;
				row[1] = w + 1;
				id2[k * L2_WAYS + w] = id;
			}
	}
	t1 = cpu_s();
	printf("%llu %llu %llu %.6f\n", (unsigned long long)(n * ntasks), (unsigned long long)miss1,
	       (unsigned long long)miss2, t1 - t0);
	for (unsigned t = 0; t < ntasks; t++)
		wl_close(&s[t]);
	free(s);
	free(buf);
	free(loc);
	return 0;
}
