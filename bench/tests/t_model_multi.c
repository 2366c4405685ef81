/*
 * t_model_multi.c - two page sizes in one run (a private heap per task
 * beside the shared area, model_run.heap_pages) and levels whose ways are
 * partitioned by page size (model_level.part): hand-computed cases from
 * the geometry, and the fast simulator against the brute-force reference
 * on random machines and on the presets.
 */
#include <stdio.h>
#include <string.h>
#include "model/model.h"
#include "tap.h"

static unsigned pick(struct rng *g, unsigned n)
{
	return (unsigned)rng_below(g, n);
}

static void base_run(struct model_run *r, const char *pattern, unsigned tasks, unsigned psz, uint64_t pages,
		     uint64_t rounds)
{
	memset(r, 0, sizeof(*r));
	r->ops = workload_find(pattern);
	r->ntasks = tasks;
	r->psz = psz;
	r->pages = pages;
	r->rounds = rounds;
	r->seed = 5;
	r->quantum = 100000;
	workload_default_args(&r->wl);
}

static void add_heap(struct model_run *r, unsigned psz, uint64_t pages, unsigned share)
{
	r->heap_psz = psz;
	r->heap_pages = pages;
	r->heap_share = share;
}

/* Every count of every task equal, per area too. */
static int same(const struct model_stats *a, const struct model_stats *b)
{
	if (a->ntasks != b->ntasks)
		return 0;
	for (unsigned i = 0; i < a->ntasks; i++) {
		const struct model_task *x = &a->task[i], *y = &b->task[i];

		if (x->accesses != y->accesses || x->walks != y->walks || x->switches != y->switches ||
		    x->core != y->core || x->strand != y->strand ||
		    memcmp(x->probes, y->probes, sizeof(x->probes)) ||
		    memcmp(x->misses, y->misses, sizeof(x->misses)) ||
		    memcmp(x->area_accesses, y->area_accesses, sizeof(x->area_accesses)) ||
		    memcmp(x->area_misses, y->area_misses, sizeof(x->area_misses)) ||
		    memcmp(x->area_walks, y->area_walks, sizeof(x->area_walks)))
			return 0;
	}
	return 1;
}

/* Fast (jobs threads) and reference on m, r agree; *fast keeps the fast
 * result (free it) when fast is not NULL. */
static int agree(const struct model_machine *m, const struct model_run *r, unsigned jobs, struct model_stats *fast)
{
	struct model_stats a, b;
	int eq;

	if (model_simulate_jobs(m, r, &a, NULL, NULL, jobs))
		return 0;
	if (model_reference(m, r, &b)) {
		model_stats_free(&a);
		return 0;
	}
	eq = same(&a, &b);
	model_stats_free(&b);
	if (fast)
		*fast = a;
	else
		model_stats_free(&a);
	return eq;
}

static void parser(void)
{
	struct model_machine m;
	char err[200], buf[512];

	memset(&m, 0, sizeof(m));
	ok(model_parse_tlb("l2d:2048,12way,lru,ps=4k+2m+1g>2m,part=4k:8+2m:2,index=hash", &m, err, sizeof(err)) == 0 &&
	   m.level[0].part[PSZ_4K] == 8 && m.level[0].part[PSZ_2M] == 2 && model_level_ways(&m.level[0], PSZ_1G) == 2 &&
	   model_level_ways(&m.level[0], PSZ_4K) == 8 && model_level_sets(&m.level[0]) == 170,
	   "part=4k:8+2m:2 parses: 170 sets, 8 ways for 4k, 2 for 2m and 1g held as 2m");
	model_tlb_str(&m, buf, sizeof(buf));
	ok(strcmp(buf, "l2d:2048,12way,lru,ps=4k+2m+1g>2m,part=4k:8+2m:2,index=hash") == 0,
	   "written back as given: %s", buf);
	ok(model_parse_tlb("l2:64,4way,lru,ps=4k+2m,part=4k:3+2m:2", &m, err, sizeof(err)) != 0 &&
	   strstr(err, "more than its 4"), "more partition ways than ways is refused: %s", err);
	ok(model_parse_tlb("l2:64,4way,lru,ps=4k+2m,part=4k:2", &m, err, sizeof(err)) != 0 &&
	   strstr(err, "2m has none"), "a held size without a partition is refused: %s", err);
	ok(model_parse_tlb("l2:64,4way,lru,ps=4k+2m+1g>2m,part=4k:2+2m:1+1g:1", &m, err, sizeof(err)) != 0 &&
	   strstr(err, "1g is not held"), "a partition for a size held as another is refused: %s", err);
}

/*
 * Skylake, a 4 KiB heap that fits its 4K L1 (64 entries, 16 sets x 4: 64
 * pages, 4 a set) beside an area that fits its 2M L1 (32 entries, 8 x 4:
 * 32 pages): only the compulsory misses, in each area's own L1 and in
 * the STLB they share (128 sets x 12: 4 + 1 pages a set at most).
 * Then a heap of 512 cyclic 4K pages (32 a set of the L1: every heap
 * access misses it) that the STLB holds beside the area (4 + 1 a set):
 * the L1 misses all heap accesses, the walks stay compulsory.
 */
static void skylake_fit(void)
{
	struct model_machine m;
	struct model_run r;
	struct model_stats st;
	uint64_t heap, l1 = 0;
	int eq;

	model_preset_find("intel-skylake", &m);
	base_run(&r, "random", 1, PSZ_2M, 32, 50);
	add_heap(&r, PSZ_4K, 64, 50);
	eq = agree(&m, &r, 1, &st);
	heap = st.task[0].area_accesses[1];
	eq = eq && model_count_of(&m, &r, &st.task[0], MC_L1_MISSES, &l1) == 0;
	ok(eq && heap == 32 * 50 && st.task[0].walks == 64 + 32 && st.task[0].misses[0] == 64 &&
	   st.task[0].misses[1] == 32 && st.task[0].misses[3] == 96 && st.task[0].area_walks[1] == 64 && l1 == 96,
	   "skylake: a 64-page 4k heap and a 32-page 2m area take only their compulsory misses "
	   "(walks %llu, l1d-4k %llu, l1d-2m %llu, stlb %llu, l1-dtlb-misses %llu of %llu accesses; = reference)",
	   (unsigned long long)st.task[0].walks, (unsigned long long)st.task[0].misses[0],
	   (unsigned long long)st.task[0].misses[1], (unsigned long long)st.task[0].misses[3],
	   (unsigned long long)l1, (unsigned long long)st.task[0].accesses);
	model_stats_free(&st);

	/* two threads on one core's two strands: one address space, so the
	   area's 16 pages walk once for both, and their heaps are distinct
	   pages (32 each, 0..31 and 32..63: 4 a set of the 4k L1) */
	base_run(&r, "random", 2, PSZ_2M, 16, 50);
	r.threads = 1;
	add_heap(&r, PSZ_4K, 32, 50);
	eq = agree(&m, &r, 1, &st);
	ok(eq && model_total_walks(&st) == 16 + 64 && st.task[0].area_walks[1] == 32 &&
	   st.task[1].area_walks[1] == 32 && st.task[0].misses[0] + st.task[1].misses[0] == 64,
	   "skylake: two threads share the area's 16 walks, their 32-page heaps are their own: %llu walks",
	   (unsigned long long)model_total_walks(&st));
	model_stats_free(&st);
	r.threads = 0;
	eq = agree(&m, &r, 1, &st);
	ok(eq && model_total_walks(&st) == 32 + 64, "as two processes the area walks once a page for each: "
	   "%llu walks", (unsigned long long)model_total_walks(&st));
	model_stats_free(&st);

	base_run(&r, "rounds", 1, PSZ_2M, 32, 20);
	add_heap(&r, PSZ_4K, 512, 75);
	eq = agree(&m, &r, 1, &st);
	heap = st.task[0].area_accesses[1];
	ok(eq && heap == 3 * 32 * 20 && st.task[0].misses[0] == heap && st.task[0].walks == 512 + 32 &&
	   st.task[0].misses[3] == 512 + 32,
	   "skylake: a 512-page cyclic 4k heap misses the 4k L1 on all %llu heap accesses, the shared "
	   "STLB holds it beside the area: %llu walks = 512 + 32",
	   (unsigned long long)heap, (unsigned long long)st.task[0].walks);
	model_stats_free(&st);
}

/*
 * Competition in a shared level: Skylake's STLB (128 sets x 12) holds a
 * cyclic heap of 1024 4K pages (8 a set) beside one 2M page, and a cyclic
 * area of 640 2M pages (5 a set) alone, each walking once a page; with
 * both (13 a set) LRU cycles through every set's 12 ways and the run
 * walks more than the 1664 pages. The 4K L1 misses every heap access
 * either way (64 a set), as the 2M L1 every area access (80 a set).
 */
static void skylake_compete(void)
{
	struct model_machine m;
	struct model_run r;
	struct model_stats st;
	int eq;

	model_preset_find("intel-skylake", &m);
	base_run(&r, "rounds", 1, PSZ_2M, 640, 4);
	add_heap(&r, PSZ_4K, 1024, 50);
	eq = agree(&m, &r, 1, &st);
	ok(eq && st.task[0].area_accesses[1] == 2560 && st.task[0].walks > 640 + 1024 &&
	   st.task[0].misses[0] == 2560 && st.task[0].misses[1] == 2560,
	   "skylake: a 1024-page 4k heap and 640 2m pages compete in the STLB: %llu walks > 1664 pages; "
	   "= reference", (unsigned long long)st.task[0].walks);
	model_stats_free(&st);
	base_run(&r, "rounds", 1, PSZ_2M, 640, 4);
	eq = agree(&m, &r, 1, &st);
	ok(eq && st.task[0].walks == 640, "skylake: the area alone walks once a page: %llu",
	   (unsigned long long)st.task[0].walks);
	model_stats_free(&st);
	base_run(&r, "rounds", 1, PSZ_2M, 1, 2560);
	add_heap(&r, PSZ_4K, 1024, 50);
	eq = agree(&m, &r, 1, &st);
	ok(eq && st.task[0].walks == 1024 + 1, "skylake: the heap beside one 2m page walks once a page: %llu",
	   (unsigned long long)st.task[0].walks);
	model_stats_free(&st);
}

/*
 * Partitioned ways: a 64-entry 4-way level (16 sets) whose ways are 2 for
 * 4K and 2 for 2M entries. A cyclic 2M working set of 48 pages (3 a set)
 * exceeds its partition's reach (32) and misses on every access though
 * the 4K ways stay empty; unpartitioned, the same level holds it (4 a
 * set) and walks once a page. 32 pages (2 a set) fit the partition.
 */
static void partitioned(void)
{
	struct model_machine m;
	struct model_run r;
	struct model_stats st;
	char err[200];
	int eq;

	memset(&m, 0, sizeof(m));
	snprintf(m.name, sizeof(m.name), "custom");
	m.tag = TAG_ASID;
	m.cores = 1;
	m.strands = 1;
	model_parse_tlb("l2:64,4way,lru,ps=4k+2m,part=4k:2+2m:2", &m, err, sizeof(err));
	base_run(&r, "rounds", 1, PSZ_2M, 48, 30);
	eq = agree(&m, &r, 1, &st);
	ok(eq && st.task[0].walks == 48 * 30, "partitioned 2+2 ways: 48 cyclic 2m pages (3 a set) miss every "
	   "access with the 4k ways empty: %llu walks of %llu", (unsigned long long)st.task[0].walks, 48ull * 30);
	model_stats_free(&st);
	base_run(&r, "rounds", 1, PSZ_2M, 32, 30);
	eq = agree(&m, &r, 1, &st);
	ok(eq && st.task[0].walks == 32, "partitioned: 32 pages fit the 2m partition's 16 x 2: %llu walks",
	   (unsigned long long)st.task[0].walks);
	model_stats_free(&st);
	model_parse_tlb("l2:64,4way,lru,ps=4k+2m", &m, err, sizeof(err));
	base_run(&r, "rounds", 1, PSZ_2M, 48, 30);
	eq = agree(&m, &r, 1, &st);
	ok(eq && st.task[0].walks == 48, "unpartitioned, the same 48 pages fit: %llu walks",
	   (unsigned long long)st.task[0].walks);
	model_stats_free(&st);
	/* with a 4k heap of 32 pages (2 a set): each size keeps its own ways */
	model_parse_tlb("l2:64,4way,lru,ps=4k+2m,part=4k:2+2m:2", &m, err, sizeof(err));
	base_run(&r, "random", 1, PSZ_2M, 32, 30);
	add_heap(&r, PSZ_4K, 32, 50);
	eq = agree(&m, &r, 1, &st);
	ok(eq && st.task[0].walks == 64, "partitioned: a 32-page 4k heap and 32 2m pages (2 + 2 a set) walk "
	   "once a page: %llu", (unsigned long long)st.task[0].walks);
	model_stats_free(&st);
}

/*
 * Zen 2's L2 (170 hashed sets; 8 ways for 4K entries, 2 for 2M): a cyclic
 * stream of P pages, above the L1's 64 entries so that every access
 * reaches the L2, walks P times in its first round and, in each later
 * one, once for every page of a set holding more pages than its size's
 * ways (LRU cycles through them), counted here from model_set_of().
 */
static void zen2_partition(void)
{
	static const struct {
		unsigned psz;
		uint64_t pages;
	} c[] = { { PSZ_2M, 300 }, { PSZ_2M, 200 }, { PSZ_4K, 1200 }, { PSZ_4K, 1000 } };

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct model_machine m;
		struct model_run r;
		struct model_stats st;
		unsigned load[170] = { 0 }, ways;
		uint64_t over = 0, rounds = 6, want;
		int eq;

		model_preset_find("amd-zen2", &m);
		ways = model_level_ways(&m.level[1], c[i].psz);
		for (uint64_t p = 0; p < c[i].pages; p++)
			load[model_set_of(p, 170, 1)]++;
		for (unsigned s = 0; s < 170; s++)
			over += load[s] > ways ? load[s] : 0;
		want = c[i].pages + (rounds - 1) * over;
		base_run(&r, "rounds", 1, c[i].psz, c[i].pages, rounds);
		eq = agree(&m, &r, 1, &st);
		ok(eq && st.task[0].walks == want && st.task[0].misses[0] == c[i].pages * rounds,
		   "amd-zen2 %s, %llu cyclic pages: %llu walks = %llu + %llu x %llu pages of sets above the %u "
		   "ways of the size's partition; = reference", model_psz_name(c[i].psz),
		   (unsigned long long)c[i].pages, (unsigned long long)st.task[0].walks,
		   (unsigned long long)c[i].pages, (unsigned long long)rounds - 1, (unsigned long long)over, ways);
		model_stats_free(&st);
	}
}

/*
 * Split ways keep sizes apart: on Zen 2, a 2m area whose pages fall at
 * most 2 to a set of the L2's hash (its 2M ways) beside a cyclic 4k heap
 * of 3000 pages taking 98 % of the accesses (more pages than the 4K ways
 * hold and than the 64-entry L1: every access reaches the L2; some 38
 * heap pages a set between two uses of an area page) walks for the area
 * only on first touches; with the same L2 unsplit (12 ways any size),
 * the heap evicts the area.
 */
static void zen2_apart(void)
{
	struct model_machine m;
	struct model_run r;
	struct model_stats st;
	unsigned load[170] = { 0 }, most = 0;
	uint64_t area = 0, split, whole;
	char err[200];
	int eq;

	/* the most pages 0..n-1 with at most 2 in a set */
	while (area < 170) {
		unsigned s = model_set_of(area, 170, 1);

		if (load[s] == 2)
			break;
		if (++load[s] > most)
			most = load[s];
		area++;
	}
	model_preset_find("amd-zen2", &m);
	base_run(&r, "rounds", 1, PSZ_2M, area, 20);
	add_heap(&r, PSZ_4K, 3000, 98);
	eq = agree(&m, &r, 1, &st);
	split = st.task[0].area_walks[0];
	model_stats_free(&st);
	model_parse_tlb("l1d:64,full,lru,ps=4k+2m+1g;l2d:2048,12way,lru,ps=4k+2m+1g>2m,index=hash", &m, err,
			sizeof(err));
	eq = eq && agree(&m, &r, 1, &st);
	whole = st.task[0].area_walks[0];
	model_stats_free(&st);
	ok(eq && most <= 2 && area > 20 && split == area && whole > area,
	   "amd-zen2: %llu 2m pages (at most %u a set) beside a cyclic 3000-page 4k heap (98 %%) walk %llu times with "
	   "the ways split (first touches), %llu with 12 ways any size; = reference", (unsigned long long)area,
	   most, (unsigned long long)split, (unsigned long long)whole);
}

/* A random level for against_reference(): sizes from 4k, 2m, 1g. */
static void random_level(struct rng *g, struct model_level *lv, unsigned k)
{
	static const unsigned sizes[] = { PSZ_4K, PSZ_2M, PSZ_1G };
	unsigned w = 2 + pick(g, 10), sets = 1 + pick(g, 8);

	memset(lv, 0, sizeof(*lv));
	snprintf(lv->name, sizeof(lv->name), "l%u", k + 1);
	lv->ways = pick(g, 4) == 0 ? 0 : w;
	lv->entries = lv->ways ? sets * w + pick(g, w) : 4 + pick(g, 40);
	lv->repl = (int)pick(g, 3);
	lv->hashed = lv->ways && pick(g, 3) == 0;
	for (unsigned i = 0; i < 3; i++)
		if (pick(g, 3))
			lv->psz_mask |= 1u << sizes[i];
	if (!lv->psz_mask)
		lv->psz_mask = 1u << sizes[pick(g, 3)];
	if ((lv->psz_mask & (1u << PSZ_1G)) && pick(g, 2))
		lv->held_as[PSZ_1G] = 1 + PSZ_2M;
	if (lv->ways && pick(g, 2)) {
		/* ways partitioned among the entry sizes held, each at least 1 */
		unsigned n = 0, left = lv->ways, ent[3];

		unsigned want = 0;

		for (unsigned i = 0; i < 3; i++)
			if (lv->psz_mask & (1u << sizes[i]))
				want |= 1u << model_entry_psz(lv, sizes[i]);
		for (unsigned i = 0; i < 3; i++)
			if (want & (1u << sizes[i]))
				ent[n++] = sizes[i];
		if (n <= left)
			for (unsigned i = 0; i < n; i++) {
				unsigned give = 1 + pick(g, left - (n - 1 - i));

				lv->part[ent[i]] = (unsigned char)give;
				left -= give;
			}
	}
}

/* 400 random machines and runs with two page sizes (or one on partitioned
 * levels): the fast simulator equals the reference, task by task and
 * area by area. */
static void against_reference(void)
{
	static const char *const pats[] = { "rounds", "random", "zipf", "chase" };
	static const unsigned sizes[] = { PSZ_4K, PSZ_2M, PSZ_1G };
	unsigned n = 400, tried = 0, eq = 0, heaps = 0, parted = 0;
	char first_bad[160] = "", err[200];
	struct rng g;

	rng_seed(&g, 20261205, 7);
	while (tried < n) {
		struct model_machine m;
		struct model_run r;

		memset(&m, 0, sizeof(m));
		snprintf(m.name, sizeof(m.name), "rand");
		m.nlevels = 1 + pick(&g, 3);
		for (unsigned k = 0; k < m.nlevels; k++)
			random_level(&g, &m.level[k], k);
		m.tag = (int)pick(&g, 3);
		m.cores = 1 + pick(&g, 2);
		m.strands = 1 + pick(&g, 3);
		base_run(&r, pats[pick(&g, 4)], 1 + pick(&g, 4), sizes[pick(&g, 3)], 2 + pick(&g, 50), 1 + pick(&g, 20));
		r.seed = pick(&g, 1000);
		r.sharedctx = (int)pick(&g, 2);
		r.threads = pick(&g, 4) == 0;
		r.quantum = 1 + pick(&g, 50);
		r.jitter = pick(&g, 2) ? 0 : 1 + pick(&g, 6);
		r.startup = pick(&g, 3) ? 0 : pick(&g, 10);
		r.words = pick(&g, 3) ? 1 : 2u << pick(&g, 3);
		if (pick(&g, 4))
			add_heap(&r, sizes[pick(&g, 3)], 2 + pick(&g, 60), 1 + pick(&g, 99));
		if (model_check(&m, &r, err, sizeof(err)))
			continue;
		for (unsigned k = 0; k < m.nlevels; k++)
			if (model_level_parted(&m.level[k])) {
				parted++;
				break;
			}
		heaps += !!r.heap_pages;
		/* half through the loc tables, half through the hash indexes */
		model_loc_limit = tried % 2 ? 0 : 1u << 24;
		if (agree(&m, &r, 1 + pick(&g, 3), NULL))
			eq++;
		else if (!first_bad[0])
			snprintf(first_bad, sizeof(first_bad), ": first difference at configuration %u", tried);
		tried++;
	}
	model_loc_limit = 1u << 24;
	ok(eq == n && heaps > n / 2 && parted > n / 4, "two page sizes (%u runs with a heap) and partitioned "
	   "ways (%u machines), loc tables and hash indexes: fast equals the reference on %u/%u random "
	   "configurations%s", heaps, parted, eq, n,
	   first_bad);
}

/* The presets with a heap beside the area, 2 tasks, 2 cores on 2 threads. */
static void presets(void)
{
	static const struct {
		const char *name;
		unsigned psz, heap_psz;
	} c[] = {
		{ "intel-skylake", PSZ_2M, PSZ_4K }, { "intel-skylake", PSZ_1G, PSZ_4K },
		{ "amd-zen2", PSZ_2M, PSZ_4K }, { "amd-zen2", PSZ_1G, PSZ_4K },
		{ "arm-neoverse-n1", PSZ_2M, PSZ_4K }, { "arm-neoverse-n1", PSZ_1G, PSZ_64K },
		{ "ultrasparc-t2", PSZ_4M, PSZ_8K }, { "sparc-m7", PSZ_256M, PSZ_64K },
	};
	static const char *const pats[] = { "zipf", "random", "rounds" };
	unsigned eq = 0, n = 0;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		for (unsigned p = 0; p < 3; p++, n++) {
			struct model_machine m;
			struct model_run r;

			model_preset_find(c[i].name, &m);
			m.cores = 2;
			base_run(&r, pats[p], 4, c[i].psz, 300, 6);
			r.place = MPLACE_SPREAD;
			r.quantum = 97;
			add_heap(&r, c[i].heap_psz, 700, 30);
			model_loc_limit = p == 2 ? 0 : 1u << 24;
			eq += agree(&m, &r, 2, NULL);
			model_loc_limit = 1u << 24;
		}
	}
	ok(eq == n, "presets with a heap (skylake, zen2, n1, t2, m7; zipf, random, rounds; 2 threads): fast "
	   "equals the reference on %u/%u", eq, n);
}

int main(void)
{
	parser();
	skylake_fit();
	skylake_compete();
	partitioned();
	zen2_partition();
	zen2_apart();
	against_reference();
	presets();
	return done_testing();
}
