/*
 * tlbfloor.c - the least an exact TLB simulation of this kind costs here:
 * a minimal hand-written loop for one geometry, to set beside the model's
 * rate on the same run (scripts/bench-model, section 9).
 *
 *   tlbfloor rows|simd|stream PATTERN TASKS PAGES ROUNDS SEED
 *
 * TASKS tasks, each with its own stream of PAGES pages (wl_open, as
 * model/sim.c opens task i of TASKS), take one access each in turn on one
 * core with Skylake's 2 MiB translation levels: an L1 of 8 sets of 4 ways
 * and an L2 of 128 sets of 12 ways, both LRU, set = page mod sets, every
 * task's pages its own entries. That is the model's
 *   sgabench sim --machine ultrasparc-t2 --tlb 'l1d:32,4way,lru,ps=4m;l2d:1536,12way,lru,ps=4m'
 *     --cores 1 --strands TASKS --tasks TASKS --page-size 4m
 *     --working-set PAGES*4m --pattern PATTERN --rounds ROUNDS --seed SEED
 * for TASKS up to 8 (T2 for its 8 strands a core, its levels replaced
 * by Skylake's 2 MiB ones; the page size only names the entries), and
 * t0572 checks that both count the same misses. Two methods:
 *  - rows, the model's: a row per (task, page) saying which way of each
 *    level holds it (0: none), a recency word of 4-bit way numbers per
 *    set, and the ids in the ways;
 *  - simd (x86-64 with SSE4.1): no rows; each set keeps its ids in
 *    recency order, most recent first, found by vector compares and
 *    moved to the front by a vector shift and blend.
 * Neither has dispatch, run-time geometry or counters but the two printed.
 * A third, stream, makes the same streams and reads every page, and
 * simulates nothing (it prints 0 misses): what any method pays first.
 *
 * Prints "accesses L1-misses L2-misses cpu-seconds" on one line.
 * Exit: 0 ok, 2 usage, 3 out of memory, a stream that would not open, or
 * simd where the CPU has no SSE4.1.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "workloads/workload.h"
#if defined(__x86_64__)
#include <immintrin.h>
#endif

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

/* The run's state and counts; ids are task * pages + page. */
struct floor {
	unsigned ntasks;
	uint32_t pages, noid;
	uint64_t miss1, miss2;
	/* rows */
	uint64_t ord1[L1_SETS], ord2[L2_SETS];
	uint32_t id1[L1_SETS * L1_WAYS], id2[L2_SETS * L2_WAYS], *loc;
	/* simd: each set's ids + 1 (0: empty), most recent first */
	uint32_t *set1, *set2;
};

/* One block of every task's pages, in turn, read and summed. */
static uint64_t block_sum(unsigned ntasks, const uint32_t *buf)
{
	uint64_t sum = 0;

	for (unsigned j = 0; j < CHUNK; j++)
		for (unsigned t = 0; t < ntasks; t++)
			sum += buf[(size_t)t * CHUNK + j];
	return sum;
}

/* One block of CHUNK accesses of every task, in turn, by rows. */
static void block_rows(struct floor *f, const uint32_t *buf)
{
	uint32_t *const loc = f->loc;

	for (unsigned j = 0; j < CHUNK; j++)
		for (unsigned t = 0; t < f->ntasks; t++) {
			uint32_t page = buf[(size_t)t * CHUNK + j], id = t * f->pages + page;
			uint32_t *row = loc + (size_t)id * 2;
			unsigned c0 = row[0], c1 = row[1], w;
			size_t k;
			uint64_t o;

			k = page % L1_SETS;
			o = f->ord1[k];
			w = c0 ? c0 - 1 : (unsigned)(o >> (4 * (L1_WAYS - 1))) & 0xf;
			f->ord1[k] = front(o, w);
			loc[(size_t)f->id1[k * L1_WAYS + w] * 2] = 0;
			row[0] = w + 1;
			f->id1[k * L1_WAYS + w] = id;
			if (c0)
				continue;
			f->miss1++;
			f->miss2 += !c1;
			k = page % L2_SETS;
			o = f->ord2[k];
			w = c1 ? c1 - 1 : (unsigned)(o >> (4 * (L2_WAYS - 1))) & 0xf;
			f->ord2[k] = front(o, w);
			loc[(size_t)f->id2[k * L2_WAYS + w] * 2 + 1] = 0;
			row[1] = w + 1;
			f->id2[k * L2_WAYS + w] = id;
		}
}

#if defined(__x86_64__)
/*
 * The same block by simd. A set of 4 ways is one vector, of 12 three.
 * The position p of the id (or the last way, the least recent, when no
 * way holds it) and the ways before it move back one: each vector is
 * blended with itself shifted by one way (alignr, which brings in the
 * previous vector's last way, or the id before the first) in the lanes
 * at positions up to p.
 */
__attribute__((target("sse4.1")))
static void block_simd(struct floor *f, const uint32_t *buf)
{
	const __m128i at0 = _mm_setr_epi32(0, 1, 2, 3), at1 = _mm_setr_epi32(4, 5, 6, 7);
	const __m128i at2 = _mm_setr_epi32(8, 9, 10, 11);
	__m128i *const s1 = (__m128i *)f->set1, *const s2 = (__m128i *)f->set2;
	uint64_t miss1 = 0, miss2 = 0;

	for (unsigned j = 0; j < CHUNK; j++)
		for (unsigned t = 0; t < f->ntasks; t++) {
			uint32_t page = buf[(size_t)t * CHUNK + j];
			__m128i key = _mm_set1_epi32((int)(t * f->pages + page + 1)), *v = &s1[page % L1_SETS];
			__m128i a = _mm_load_si128(v), b0, b1, b2, upto;
			unsigned hit = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(a, key))), p;

			p = hit ? (unsigned)__builtin_ctz(hit) : L1_WAYS - 1;
			upto = _mm_set1_epi32((int)p + 1);
			_mm_store_si128(v, _mm_blendv_epi8(a, _mm_alignr_epi8(a, key, 12), _mm_cmpgt_epi32(upto, at0)));
			if (hit)
				continue;
			miss1++;
			v = &s2[(page % L2_SETS) * 3];
			b0 = _mm_load_si128(v);
			b1 = _mm_load_si128(v + 1);
			b2 = _mm_load_si128(v + 2);
			hit = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(b0, key))) |
			      (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(b1, key))) << 4 |
			      (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(b2, key))) << 8;
			miss2 += !hit;
			p = hit ? (unsigned)__builtin_ctz(hit) : L2_WAYS - 1;
			upto = _mm_set1_epi32((int)p + 1);
			_mm_store_si128(v, _mm_blendv_epi8(b0, _mm_alignr_epi8(b0, key, 12), _mm_cmpgt_epi32(upto, at0)));
			_mm_store_si128(v + 1, _mm_blendv_epi8(b1, _mm_alignr_epi8(b1, b0, 12), _mm_cmpgt_epi32(upto, at1)));
			_mm_store_si128(v + 2, _mm_blendv_epi8(b2, _mm_alignr_epi8(b2, b1, 12), _mm_cmpgt_epi32(upto, at2)));
		}
	f->miss1 += miss1;
	f->miss2 += miss2;
}

static int simd_here(void)
{
	return __builtin_cpu_supports("sse4.1");
}
#else
static void block_simd(struct floor *f, const uint32_t *buf)
{
	(void)f;
	(void)buf;
}

static int simd_here(void)
{
	return 0;
}
#endif

int main(int argc, char **argv)
{
	const struct workload_ops *ops;
	struct floor f = { 0 };
	uint64_t pages, rounds, seed, n;
	uint32_t *buf;
	struct wl_stream *s;
	int simd, stream;
	uint64_t sum = 0;
	double t0, t1;

	if (argc != 7 || (strcmp(argv[1], "rows") && strcmp(argv[1], "simd") && strcmp(argv[1], "stream"))) {
		fprintf(stderr, "usage: tlbfloor rows|simd|stream PATTERN TASKS PAGES ROUNDS SEED\n");
		return 2;
	}
	simd = strcmp(argv[1], "simd") == 0;
	stream = strcmp(argv[1], "stream") == 0;
	ops = workload_find(argv[2]);
	f.ntasks = (unsigned)strtoul(argv[3], NULL, 10);
	pages = strtoull(argv[4], NULL, 10);
	rounds = strtoull(argv[5], NULL, 10);
	seed = strtoull(argv[6], NULL, 10);
	if (!ops || !f.ntasks || f.ntasks > 256 || !pages || pages > (1u << 20) || !rounds ||
	    pages % CHUNK || rounds > (1ull << 32)) {
		fprintf(stderr, "tlbfloor: unknown pattern, or tasks not 1..256, pages not a multiple of %d "
			"up to 2^20, or rounds not 1..2^32\n", CHUNK);
		return 2;
	}
	if (simd && !simd_here()) {
		fprintf(stderr, "tlbfloor: simd needs x86-64 with SSE4.1\n");
		return 3;
	}
	f.pages = (uint32_t)pages;
	f.noid = (uint32_t)(f.ntasks * pages);	/* the empty ways' id: a scratch row */
	f.loc = calloc((size_t)f.noid + 1, 2 * sizeof(*f.loc));
	f.set1 = aligned_alloc(64, L1_SETS * L1_WAYS * sizeof(uint32_t));
	f.set2 = aligned_alloc(64, L2_SETS * L2_WAYS * sizeof(uint32_t));
	buf = malloc((size_t)f.ntasks * CHUNK * sizeof(*buf));
	s = calloc(f.ntasks, sizeof(*s));
	if (!f.loc || !f.set1 || !f.set2 || !buf || !s) {
		fprintf(stderr, "tlbfloor: out of memory\n");
		return 3;
	}
	memset(f.set1, 0, L1_SETS * L1_WAYS * sizeof(uint32_t));
	memset(f.set2, 0, L2_SETS * L2_WAYS * sizeof(uint32_t));
	for (unsigned t = 0; t < f.ntasks; t++) {
		struct wl_params p = { .pages = pages, .rounds = rounds, .seed = seed, .task = t,
				       .ntasks = f.ntasks };

		if (wl_open(&s[t], ops, &p)) {
			fprintf(stderr, "tlbfloor: task %u's stream would not open\n", t);
			return 3;
		}
	}
	for (unsigned k = 0; k < L1_SETS; k++)
		f.ord1[k] = order_init(L1_WAYS);
	for (unsigned k = 0; k < L2_SETS; k++)
		f.ord2[k] = order_init(L2_WAYS);
	for (unsigned k = 0; k < L1_SETS * L1_WAYS; k++)
		f.id1[k] = f.noid;
	for (unsigned k = 0; k < L2_SETS * L2_WAYS; k++)
		f.id2[k] = f.noid;
	n = pages * rounds;	/* accesses per task: a multiple of CHUNK */
	t0 = cpu_s();
	for (uint64_t done = 0; done < n; done += CHUNK) {
		for (unsigned t = 0; t < f.ntasks; t++)
			wl_fill(&s[t], buf + (size_t)t * CHUNK, CHUNK);
		if (simd)
			block_simd(&f, buf);
		else if (stream)
			sum += block_sum(f.ntasks, buf);
		else
			block_rows(&f, buf);
	}
	t1 = cpu_s();
	__asm__ volatile("" : : "r"(sum));	/* the pages are read, not dropped */
	printf("%llu %llu %llu %.6f\n", (unsigned long long)(n * f.ntasks), (unsigned long long)f.miss1,
	       (unsigned long long)f.miss2, t1 - t0);
	for (unsigned t = 0; t < f.ntasks; t++)
		wl_close(&s[t]);
	free(s);
	free(buf);
	free(f.set2);
	free(f.set1);
	free(f.loc);
	return 0;
}
