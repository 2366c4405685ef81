/* t_model.c - the TLB model: hand-computed cases, then the fast simulator
 * against the brute-force reference on many random small configurations. */
#include <stdio.h>
#include <string.h>
#include "model/model.h"
#include "tap.h"

/* One fully associative LRU level of e entries, one core, s strands. */
static void machine(struct model_machine *m, unsigned e, int tag, unsigned strands)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "test");
	m->nlevels = 1;
	m->level[0] = (struct model_level){ "l1d", e, 0, REPL_LRU, 1u << PSZ_4K, 0, { 0 }, 0, { 0 } };
	m->tag = tag;
	m->cores = 1;
	m->strands = strands;
}

static void run(struct model_run *r, unsigned tasks, uint64_t pages, uint64_t rounds, int shared)
{
	memset(r, 0, sizeof(*r));
	r->ops = workload_find("rounds");
	r->ntasks = tasks;
	r->pages = pages;
	r->rounds = rounds;
	r->sharedctx = shared;
	r->psz = PSZ_4K;
	r->seed = 1;
	r->quantum = 100000;
}

static uint64_t walks(const struct model_machine *m, const struct model_run *r)
{
	struct model_stats st;
	uint64_t n;

	if (model_simulate(m, r, &st))
		return UINT64_MAX;
	n = model_total_walks(&st);
	model_stats_free(&st);
	return n;
}

static void hand_cases(void)
{
	struct model_machine m;
	struct model_run r;
	const unsigned e = 16;

	machine(&m, e, TAG_ASID, 1);
	run(&r, 1, e + 1, 50, 0);
	is_u64(walks(&m, &r), (e + 1) * 50, "cyclic sweep of E+1 pages on E-entry LRU misses every time");
	run(&r, 1, e, 50, 0);
	is_u64(walks(&m, &r), e, "E pages miss only on the first round");
	machine(&m, 2 * e, TAG_ASID, 2);
	run(&r, 2, e, 50, 0);
	is_u64(walks(&m, &r), 2 * e, "asid: two tasks of E pages on a 2E TLB miss only while warming up");
	run(&r, 2, e + 1, 50, 0);
	is_u64(walks(&m, &r), 2 * (e + 1) * 50, "asid: two tasks of E+1 pages on a 2E TLB miss every time");
	run(&r, 2, e + 1, 50, 1);
	is_u64(walks(&m, &r), 2 * (e + 1) * 50, "asid ignores --sharedctx: still every time");
	machine(&m, 2 * e, TAG_CTX2, 2);
	run(&r, 2, e + 1, 50, 1);
	is_u64(walks(&m, &r), e + 1, "ctx2 shared: E+1 pages each on a 2E TLB, never miss after the first touch");
	run(&r, 2, 2 * e, 50, 1);
	is_u64(walks(&m, &r), 2 * e, "ctx2 shared: 2E pages each fill the 2E TLB exactly, never miss after warm-up");
	run(&r, 2, e + 1, 50, 0);
	is_u64(walks(&m, &r), 2 * (e + 1) * 50, "ctx2 private contexts behave like asid");
	r.threads = 1;
	is_u64(walks(&m, &r), e + 1, "threads share one context");
	/* tag none: two processes time-sliced on one strand, flushed at each switch */
	machine(&m, 4 * e, TAG_NONE, 1);
	run(&r, 2, e, 10, 0);
	r.quantum = e;
	is_u64(walks(&m, &r), 2 * e * 10, "none: a flush at every switch, each quantum starts cold");
	machine(&m, 4 * e, TAG_ASID, 1);
	is_u64(walks(&m, &r), 2 * e, "asid: the same schedule keeps both tasks' entries");
}

static unsigned pick(struct rng *g, unsigned n)
{
	return (unsigned)rng_below(g, n);
}

/* A random small machine and run. */
static void random_config(struct rng *g, struct model_machine *m, struct model_run *r)
{
	static const char *const pats[] = { "rounds", "random", "zipf", "chase" };
	static const unsigned ways[] = { 0, 1, 2, 4 };

	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "rand");
	m->nlevels = 1 + pick(g, 3);
	for (unsigned k = 0; k < m->nlevels; k++) {
		struct model_level *lv = &m->level[k];
		unsigned w = ways[pick(g, 4)];

		snprintf(lv->name, sizeof(lv->name), "l%u", k + 1);
		lv->entries = (w ? w : 1) * (1 + pick(g, 8)) * (k + 1);
		lv->ways = w >= lv->entries ? 0 : w;
		lv->repl = (int)pick(g, 3);
		lv->psz_mask = pick(g, 5) ? 1u << PSZ_4K : 1u << PSZ_2M;
	}
	m->level[0].psz_mask |= 1u << PSZ_4K;
	m->tag = (int)pick(g, 3);
	m->cores = 1 + pick(g, 2);
	m->strands = 1 + pick(g, 3);
	memset(r, 0, sizeof(*r));
	r->ops = workload_find(pats[pick(g, 4)]);
	r->ntasks = 1 + pick(g, 5);
	r->threads = pick(g, 4) == 0;
	r->sharedctx = (int)pick(g, 2);
	r->psz = PSZ_4K;
	r->pages = 2 + pick(g, 40);	/* zipf_open loops forever on 1 page (workloads/zipf.c) */
	r->rounds = 1 + pick(g, 60);
	r->seed = pick(g, 1000);
	workload_default_args(&r->wl);
	r->quantum = 1 + pick(g, 50);
	r->place = (int)pick(g, 3);
	r->strands = pick(g, 3);
	r->jitter = pick(g, 2) ? 0 : 1 + pick(g, 8);
	r->startup = pick(g, 3) ? 0 : pick(g, 20);
}

static int same(const struct model_stats *a, const struct model_stats *b)
{
	for (unsigned i = 0; i < a->ntasks; i++) {
		const struct model_task *x = &a->task[i], *y = &b->task[i];

		if (x->accesses != y->accesses || x->walks != y->walks || x->switches != y->switches ||
		    memcmp(x->probes, y->probes, sizeof(x->probes)) ||
		    memcmp(x->misses, y->misses, sizeof(x->misses)))
			return 0;
	}
	return a->ntasks == b->ntasks;
}

static void against_reference_as(const char *how);

static void against_reference(void)
{
	against_reference_as("");
}

/* The same 400 configurations with every level behind a hash index. */
static void against_reference_hash(void)
{
	against_reference_as(" through hash indexes");
}

static void against_reference_as(const char *how)
{
	struct rng g;
	unsigned n = 400, agree = 0, skipped_some = 0;
	char first_bad[200] = "";

	rng_seed(&g, 20261203, 0);
	for (unsigned i = 0; i < n; i++) {
		struct model_machine m;
		struct model_run r;
		struct model_stats a, b;

		random_config(&g, &m, &r);
		if (model_simulate(&m, &r, &a) || model_reference(&m, &r, &b)) {
			snprintf(first_bad, sizeof(first_bad), "config %u: a simulator refused it", i);
			continue;
		}
		if (same(&a, &b))
			agree++;
		else if (!first_bad[0])
			snprintf(first_bad, sizeof(first_bad), "config %u: %s tag %d, walks %llu vs %llu",
				 i, r.ops->name, m.tag, (unsigned long long)model_total_walks(&a),
				 (unsigned long long)model_total_walks(&b));
		if (a.skipped_accesses)
			skipped_some++;
		model_stats_free(&a);
		model_stats_free(&b);
	}
	ok(agree == n, "fast model equals the reference on %u/%u random configurations%s%s%s", agree, n,
	   how, first_bad[0] ? ": first difference " : "", first_bad);
	ok(skipped_some > n / 10, "period skipping was exercised (%u configurations)", skipped_some);
}

/* Whether a, a one-task run of r at r.words, misses in every level as r
 * at one word does, on r.words times the accesses. */
static int misses_as_one_word(const struct model_machine *m, struct model_run r, const struct model_stats *a)
{
	struct model_stats one;
	unsigned w = r.words;
	int same_misses;

	r.words = 1;
	if (model_simulate(m, &r, &one))
		return 0;
	same_misses = !memcmp(one.task[0].misses, a->task[0].misses, sizeof(one.task[0].misses)) &&
		      one.task[0].walks == a->task[0].walks && a->task[0].accesses == one.task[0].accesses * w;
	model_stats_free(&one);
	return same_misses;
}

/*
 * Pages held as smaller entries (model_held_shift) and several words per
 * page (--words), on the random configurations with 2 MiB pages, through
 * the loc table and the hash indexes, against the reference. Odd runs
 * hold the pages per level whole or as 4 KiB or 64 KiB entries (set
 * (page << 9 or 5) % sets) at one word; even runs hold them alike in
 * every level, at 2 to 64 words. Physics: with one task and whole
 * entries, the words after a page's first hit the entry it just used, so
 * every level misses as with one word per page, on N times the accesses.
 */
static void split_against_reference(void)
{
	unsigned n = 0, agree = 0, shifted = 0, same_misses = 0, whole = 0;
	struct rng g;

	rng_seed(&g, 20261204, 0);
	for (unsigned i = 0; i < 600; i++) {
		struct model_machine m;
		struct model_run r;
		struct model_stats a, b;
		unsigned as = pick(&g, 3), words = i % 2 ? 1 : 2u << pick(&g, 6);

		model_loc_limit = i < 300 ? 1u << 24 : 0;
		random_config(&g, &m, &r);
		r.psz = PSZ_2M;
		r.words = words;
		for (unsigned k = 0; k < m.nlevels; k++) {
			as = words > 1 ? as : pick(&g, 3);
			m.level[k].psz_mask = 1u << PSZ_2M;
			if (as)
				m.level[k].held_as[PSZ_2M] = (unsigned char)(1 + (as == 1 ? PSZ_4K : PSZ_64K));
			shifted += model_held_shift(&m.level[k], PSZ_2M) > 0;
		}
		n++;
		if (model_simulate(&m, &r, &a) || model_reference(&m, &r, &b))
			continue;
		agree += same(&a, &b);
		if (words > 1 && !as && r.ntasks == 1 && !r.startup) {
			whole++;
			same_misses += misses_as_one_word(&m, r, &a);
		}
		model_stats_free(&a);
		model_stats_free(&b);
	}
	model_loc_limit = 1u << 24;
	ok(agree == n && shifted > n / 2, "pages held as smaller entries, one or several words per page: fast "
	   "equals the reference on %u/%u runs (%u levels shifted)", agree, n, shifted);
	ok(whole > 10 && same_misses == whole, "one task, whole entries: N words miss as one word does "
	   "(%u/%u runs)", same_misses, whole);
}

/*
 * The presets' own geometries (every level, way count, replacement and
 * tag), with working sets larger than their TLBs, against the reference:
 * zipf, random, rounds and chase, private and shared contexts, more tasks
 * than strands (time slicing), and once more through the hash indexes.
 */
static void presets_against_reference(void)
{
	static const char *const pats[] = { "zipf", "random", "rounds", "chase" };
	unsigned n = 0, agree = 0;
	char first_bad[200] = "";

	for (int loc = 1; loc >= 0; loc--) {
		model_loc_limit = loc ? 1u << 24 : 0;
		for (int p = 0; model_presets[p]; p++) {
			for (unsigned pi = 0; pi < 4; pi++) {
				struct model_machine m = *model_presets[p];
				struct model_run r;
				struct model_stats a, b;
				unsigned biggest = 0;

				for (unsigned k = 0; k < m.nlevels; k++)
					if (m.level[k].entries > biggest)
						biggest = m.level[k].entries;
				m.cores = 2;
				memset(&r, 0, sizeof(r));
				r.ops = workload_find(pats[pi]);
				r.ntasks = 2 * m.strands + 1;
				r.psz = m.strands == 8 ? PSZ_4M : PSZ_2M;
				r.pages = biggest * 3 / 2 + pi;
				r.rounds = loc ? 4 : 2;
				r.seed = 11 + p;
				workload_default_args(&r.wl);
				r.quantum = 3000;
				r.sharedctx = (int)(pi % 2);
				r.threads = p == 2 && pi == 1;
				r.jitter = pi == 2 ? 4 : 0;
				r.startup = pi == 3 ? 40 : 0;
				r.place = (int)(pi % 3);
				n++;
				if (model_simulate(&m, &r, &a) || model_reference(&m, &r, &b)) {
					snprintf(first_bad, sizeof(first_bad), "%s %s: refused", m.name, pats[pi]);
					continue;
				}
				if (same(&a, &b))
					agree++;
				else if (!first_bad[0])
					snprintf(first_bad, sizeof(first_bad), "%s %s%s: walks %llu vs %llu",
						 m.name, pats[pi], loc ? "" : " (hash)",
						 (unsigned long long)model_total_walks(&a),
						 (unsigned long long)model_total_walks(&b));
				model_stats_free(&a);
				model_stats_free(&b);
			}
		}
	}
	model_loc_limit = 1u << 24;
	ok(agree == n, "presets' full geometries: fast equals the reference on %u/%u runs%s%s", agree, n,
	   first_bad[0] ? ": first difference " : "", first_bad);
}

/*
 * The benchmark's own runs (scripts/bench-model: 32 tasks, the default
 * placement, every core of the preset), scaled down to a working set of
 * twice the largest level, on the zipf and random streams: the quiet loop
 * with each preset's level kinds (full LRU and NRU sets, hits and fills
 * taking one path, tasks time-sliced) against the reference.
 */
static void presets_as_benchmarked(void)
{
	static const char *const pats[] = { "zipf", "random" };
	unsigned n = 0, agree = 0;
	char first_bad[200] = "";

	for (int p = 0; model_presets[p]; p++) {
		for (unsigned pi = 0; pi < 2; pi++) {
			const struct model_machine *m = model_presets[p];
			struct model_run r;
			struct model_stats a, b;
			unsigned biggest = 0;

			for (unsigned k = 0; k < m->nlevels; k++)
				if (m->level[k].entries > biggest)
					biggest = m->level[k].entries;
			memset(&r, 0, sizeof(r));
			r.ops = workload_find(pats[pi]);
			r.ntasks = 32;
			r.psz = m->strands == 8 ? PSZ_4M : PSZ_2M;
			r.pages = 2 * biggest;
			r.rounds = 3;
			r.seed = 1;
			workload_default_args(&r.wl);
			r.quantum = r.pages / 2 + 7;	/* time slicing within the run */
			n++;
			if (model_simulate(m, &r, &a) || model_reference(m, &r, &b)) {
				snprintf(first_bad, sizeof(first_bad), "%s %s: refused", m->name, pats[pi]);
				continue;
			}
			if (same(&a, &b))
				agree++;
			else if (!first_bad[0])
				snprintf(first_bad, sizeof(first_bad), "%s %s: walks %llu vs %llu", m->name,
					 pats[pi], (unsigned long long)model_total_walks(&a),
					 (unsigned long long)model_total_walks(&b));
			model_stats_free(&a);
			model_stats_free(&b);
		}
	}
	ok(agree == n, "presets as benchmarked (32 tasks, every core): fast equals the reference on %u/%u runs%s%s",
	   agree, n, first_bad[0] ? ": first difference " : "", first_bad);
}

/* The table's long rows use period skipping; check one against the reference. */
static void long_run_skip(void)
{
	struct model_machine m;
	struct model_run r;
	struct model_stats a, b;

	model_preset_find("ultrasparc-t2", &m);
	run(&r, 2, 68, 3000, 0);
	r.psz = PSZ_4M;
	r.jitter = 256;
	r.startup = 30;
	if (model_simulate(&m, &r, &a) || model_reference(&m, &r, &b)) {
		ok(0, "t2 table configuration runs");
		return;
	}
	ok(a.skipped_accesses > 0 && same(&a, &b),
	   "t2, 68 TTEs per task, jitter 256, 3000 rounds: skipped %llu accesses, equal to the reference",
	   (unsigned long long)a.skipped_accesses);
	model_stats_free(&a);
	model_stats_free(&b);

	/* the table's own defaults, long enough for the 565,248-slot period to repeat */
	run(&r, 2, 69, 14000, 0);
	r.psz = PSZ_4M;
	r.jitter = 4096;
	r.startup = 300;
	if (model_simulate(&m, &r, &a) || model_reference(&m, &r, &b)) {
		ok(0, "t2 table defaults run");
		return;
	}
	ok(a.skipped_accesses > 0 && same(&a, &b),
	   "t2 table defaults (69 TTEs, jitter 4096, 300 start-up pages), 14000 rounds: skipped %llu, equal to the reference",
	   (unsigned long long)a.skipped_accesses);
	model_stats_free(&a);
	model_stats_free(&b);
}

static void parser(void)
{
	struct model_machine m;
	char err[200];

	memset(&m, 0, sizeof(m));
	ok(model_parse_tlb("l1d:64,full,lru;l2:2048,8way,lru", &m, err, sizeof(err)) == 0 &&
	   m.nlevels == 2 && m.level[0].ways == 0 && m.level[1].ways == 8 && m.level[1].entries == 2048,
	   "--tlb parses two levels");
	ok(model_parse_tlb("l1d:64,3way,lru", &m, err, sizeof(err)) == 0 && model_level_sets(&m.level[0]) == 21,
	   "64 entries in 3 ways: 21 sets");
	ok(model_parse_tlb("l1d:64,full,nru,ps=4k+2m,hit=2", &m, err, sizeof(err)) == 0 &&
	   m.level[0].repl == REPL_NRU && m.level[0].psz_mask == ((1u << PSZ_4K) | (1u << PSZ_2M)),
	   "page sizes and hit cost parse");
	ok(model_parse_tlb("l1d", &m, err, sizeof(err)) != 0, "a level without a size refused");
	for (int i = 0; model_presets[i]; i++)
		ok(model_presets[i]->source[0] && model_presets[i]->nlevels > 0,
		   "preset %s has levels and a source", model_presets[i]->name);
}

/*
 * Tag none flushes a strand's entries at each switch, leaving empty ways
 * in the middle of LRU sets of 4 to 32 ways: the fast model keeps them
 * least recent (level.h), and must still match the reference, with loc
 * tables and through hash indexes.
 */
static void flushes_against_reference(void)
{
	static const char *const pats[] = { "zipf", "random", "rounds" };
	static const struct model_level geo[][2] = {
		{ { "l1", 16, 4, REPL_LRU, 1u << PSZ_4K, 0, { 0 }, 0, { 0 } }, { "l2", 64, 8, REPL_LRU, 1u << PSZ_4K, 0, { 0 }, 0, { 0 } } },
		{ { "l1", 48, 12, REPL_LRU, 1u << PSZ_4K, 0, { 0 }, 0, { 0 } }, { "l2", 40, 5, REPL_LRU, 1u << PSZ_4K, 0, { 0 }, 0, { 0 } } },
		{ { "l1", 32, 0, REPL_LRU, 1u << PSZ_4K, 0, { 0 }, 0, { 0 } }, { "l2", 128, 16, REPL_LRU, 1u << PSZ_4K, 0, { 0 }, 0, { 0 } } },
	};
	unsigned n = 0, agree = 0;

	for (int loc = 1; loc >= 0; loc--) {
		model_loc_limit = loc ? 1u << 24 : 0;
		for (unsigned g = 0; g < 3; g++) {
			for (unsigned pi = 0; pi < 3; pi++) {
				for (unsigned q = 0; q < 2; q++) {
					struct model_machine m;
					struct model_run r;
					struct model_stats a, b;

					machine(&m, 1, TAG_NONE, 2);
					m.nlevels = 2;
					m.level[0] = geo[g][0];
					m.level[1] = geo[g][1];
					/* strand 1 keeps its entries while strand 0 flushes
					   (one task), or the strands drift apart (jitter) */
					run(&r, q ? 6 : 3, 40, 20, 0);
					r.ops = workload_find(pats[pi]);
					workload_default_args(&r.wl);
					r.quantum = q ? 50 : 7;
					r.jitter = q ? 3 : 0;
					r.startup = 3;
					r.seed = 1 + q;
					n++;
					if (model_simulate(&m, &r, &a))
						continue;
					if (!model_reference(&m, &r, &b)) {
						agree += same(&a, &b);
						model_stats_free(&b);
					}
					model_stats_free(&a);
				}
			}
		}
	}
	model_loc_limit = 1u << 24;
	ok(agree == n, "tag none, flushes in narrow and wide LRU sets (4 to 32 ways): fast equals the reference on %u/%u runs",
	   agree, n);
}

int main(void)
{
	hand_cases();
	parser();
	long_run_skip();
	against_reference();
	model_loc_limit = 0;
	against_reference_hash();
	model_loc_limit = 1u << 24;
	presets_against_reference();
	split_against_reference();
	presets_as_benchmarked();
	flushes_against_reference();
	return done_testing();
}
