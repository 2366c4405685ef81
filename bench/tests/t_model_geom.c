/* t_model_geom.c - the published organisations (model.h, struct
 * model_level): levels whose entries are not a multiple of their ways,
 * and pages held as smaller entries, checked against physics (reach
 * knees, the smashed 1 GiB pages of Zen 2, N1's granules) and against the
 * brute-force reference. */
#include <stdio.h>
#include <string.h>
#include "model/backend.h"
#include "model/model.h"
#include "tap.h"

static unsigned pick(struct rng *g, unsigned n)
{
	return (unsigned)rng_below(g, n);
}

static void base_run(struct model_run *r, const char *pattern, unsigned tasks, uint64_t pages, uint64_t rounds)
{
	memset(r, 0, sizeof(*r));
	r->ops = workload_find(pattern);
	r->ntasks = tasks;
	r->pages = pages;
	r->rounds = rounds;
	r->psz = PSZ_4K;
	r->seed = 3;
	r->quantum = 100000;
	workload_default_args(&r->wl);
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

/* Fast and reference on m, r: 1 when both run and agree task by task. */
static int agree(const struct model_machine *m, const struct model_run *r, uint64_t *walks)
{
	struct model_stats a, b;
	int eq;

	if (model_simulate(m, r, &a))
		return 0;
	if (model_reference(m, r, &b)) {
		model_stats_free(&a);
		return 0;
	}
	eq = same(&a, &b);
	if (walks)
		*walks = model_total_walks(&a);
	model_stats_free(&a);
	model_stats_free(&b);
	return eq;
}

static void parser(void)
{
	struct model_machine m;
	char err[400];

	memset(&m, 0, sizeof(m));
	ok(model_parse_tlb("l2d:2048,12way,lru", &m, err, sizeof(err)) == 0 && m.level[0].ways == 12 &&
	   model_level_sets(&m.level[0]) == 170, "2048 entries in 12 ways parse: 170 sets (2040 modelled)");
	ok(model_parse_tlb("l2d:12,13way,lru", &m, err, sizeof(err)) != 0 && strstr(err, "exceed"),
	   "more ways than entries refused: %s", err);
	ok(model_parse_tlb("l2d:64,64way,lru", &m, err, sizeof(err)) == 0 && m.level[0].ways == 0,
	   "as many ways as entries is fully associative");
	ok(model_parse_tlb("l1d:64", &m, err, sizeof(err)) == 0 && m.level[0].ways == 0 &&
	   m.level[0].repl == REPL_LRU, "associativity and replacement default to full and lru");
	/* each error names the field it refuses, and why */
	static const char *const bad[][2] = {
		{ "l1d:0,full,lru", "'0': the entries" },
		{ "l1d:1048577,full,lru", "'1048577': the entries" },
		{ "l1d:64,full,lru,hit=-1", "'hit=-1': cycles of a hit" },
		{ "L1D:64,4WAY,LRU", "'4WAY': not a field" },
		{ "l1d:64,full,lru,ps=3k", "'ps=3k': page sizes" },
		{ "l1d:64,4way,lru,hit=5,hit=9", "'hit=9': given twice" },
		{ "l1d:64,full,lru,lru", "'lru': given twice" },
		{ "l1d:64,4way,8way", "'8way': given twice" },
		{ "l1d:64,,lru", "'': empty" },
		{ "l1d:64,4way,", "'': empty" },
		{ "l1d:64,", "'': empty" },
		{ "a b:64,full,lru", "'a b': a level's name is" },
		{ "a=b:64,full,lru", "'a=b': a level's name is" },
		{ ";l1d:64", "an empty level" },
		{ "l1d:64;;l2:512,8way", "an empty level" },
		{ "l1d:64,full,lru;", "an empty level" },
		{ "l1d:64,4way,lru,index=foo", "'index=foo': the set index: index=mod or index=hash" },
		{ "l1d:64,4way,lru,index=", "'index=': the set index" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok(model_parse_tlb(bad[i][0], &m, err, sizeof(err)) != 0 && strstr(err, bad[i][1]),
		   "'%s' refused: %s", bad[i][0], err);
	/* --page-size's help lists every size the model knows, in order */
	for (const struct opt *o = model_backend.opts; o->name || o->type == OPT_ROWS; o++) {
		size_t n = 0;

		if (!o->name || strcmp(o->name, "page-size") != 0)
			continue;
		err[0] = '\0';
		for (unsigned s = 0; s < PSZ_N; s++)
			n += (size_t)snprintf(err + n, sizeof(err) - n, "%s%s", s ? " " : ": ", model_psz_name(s));
		ok(strstr(o->help, err) != NULL, "--page-size's help lists the model's sizes%s", err);
	}
}

/*
 * A cyclic stream of P pages on one task through one LRU level of S sets
 * of W ways (entries E = S * W + R, R < W): consecutive pages fill the
 * sets in turn, so up to S * W pages every set holds its pages and only
 * the first round misses; at S * W + 1 set 0 holds W + 1 pages, which an
 * LRU set misses every time, so each later round misses W + 1 times.
 */
static void knees(void);

/*
 * The same physics for any index: in a cyclic stream of P pages each LRU
 * set sees its pages in a fixed cyclic order, so a set that holds at most
 * W of them hits from the second round on and one that holds more misses
 * every access. Walks = P + (rounds - 1) x the pages of overfull sets,
 * counted here from model_set_of() for hashed 170 x 12 and 37 x 5 levels.
 */
static void hashed_cyclic(void)
{
	static const unsigned geo[][2] = { { 2048, 12 }, { 187, 5 } };
	const unsigned rounds = 6;

	for (unsigned i = 0; i < 2; i++) {
		unsigned e = geo[i][0], w = geo[i][1], sets = e / w, bad = 0, knee = 0;
		struct model_machine m;
		struct model_run r;

		memset(&m, 0, sizeof(m));
		snprintf(m.name, sizeof(m.name), "hashed");
		m.nlevels = 1;
		m.level[0] = (struct model_level){ "l2d", e, w, REPL_LRU, 1u << PSZ_4K, 0, { 0 }, 1, { 0 } };
		m.tag = TAG_ASID;
		m.cores = m.strands = 1;
		for (unsigned p = sets * w / 2; p <= sets * w + sets; p += sets / 4) {
			unsigned load[256] = { 0 };
			uint64_t over = 0, walks = 0;

			for (unsigned q = 0; q < p; q++)
				load[model_set_of(q, sets, 1)]++;
			for (unsigned s = 0; s < sets; s++)
				over += load[s] > w ? load[s] : 0;
			if (!over)
				knee = p;
			base_run(&r, "rounds", 1, p, rounds);
			if (!agree(&m, &r, &walks) || walks != p + (rounds - 1) * over)
				bad++;
		}
		ok(!bad && knee > 0 && knee < sets * w, "hashed %u x %u: cyclic walks = pages + (rounds - 1) x the "
		   "pages of overfull sets at every size, fast = reference (all held up to %u pages or more, "
		   "below the %u modelled entries)", sets, w, knee, sets * w);
	}
}

static void knees(void)
{
	static const unsigned geo[][2] = { { 2048, 12 }, { 100, 7 }, { 1280, 5 }, { 61, 4 }, { 47, 46 } };
	const unsigned rounds = 12;

	for (unsigned i = 0; i < sizeof(geo) / sizeof(geo[0]); i++) {
		unsigned e = geo[i][0], w = geo[i][1], sets = e / w, reach = sets * w;
		struct model_machine m;
		struct model_run r;
		uint64_t below = 0, at = 0, above = 0;
		int eq;

		memset(&m, 0, sizeof(m));
		snprintf(m.name, sizeof(m.name), "knee");
		m.nlevels = 1;
		m.level[0] = (struct model_level){ "l2d", e, w, REPL_LRU, 1u << PSZ_4K, 0, { 0 }, 0, { 0 } };
		m.tag = TAG_ASID;
		m.cores = m.strands = 1;
		base_run(&r, "rounds", 1, reach, rounds);
		eq = agree(&m, &r, &below);
		base_run(&r, "rounds", 1, reach + 1, rounds);
		eq &= agree(&m, &r, &at);
		/* every set overfull: a cyclic LRU stream then misses every access */
		base_run(&r, "rounds", 1, (uint64_t)sets * (w + 1), rounds);
		eq &= agree(&m, &r, &above);
		ok(eq && below == reach && at == reach + 1 + (uint64_t)(rounds - 1) * (w + 1) &&
		   above == (uint64_t)sets * (w + 1) * rounds,
		   "%u entries, %u ways (%u sets, %u modelled): cyclic walks %llu at %u pages, %llu at %u, "
		   "%llu at %u (all), fast = reference", e, w, sets, reach, (unsigned long long)below, reach,
		   (unsigned long long)at, reach + 1, (unsigned long long)above, sets * (w + 1));
	}
}

/*
 * Random machines whose set-associative levels have entries that are not
 * a multiple of their ways (every replacement, tag, pattern, several
 * tasks and cores, jitter, start-up pages, several words, pages held as
 * smaller entries), through the loc table and the hash indexes: the fast
 * simulator equals the reference.
 */
static void against_reference(void)
{
	static const char *const pats[] = { "rounds", "random", "zipf", "chase" };
	unsigned n = 300, eq = 0, odd = 0, hashed = 0;
	char first_bad[160] = "";
	struct rng g;

	rng_seed(&g, 20261205, 0);
	for (unsigned i = 0; i < n; i++) {
		struct model_machine m;
		struct model_run r;
		unsigned held = pick(&g, 3);

		memset(&m, 0, sizeof(m));
		snprintf(m.name, sizeof(m.name), "rand");
		m.nlevels = 1 + pick(&g, 3);
		for (unsigned k = 0; k < m.nlevels; k++) {
			struct model_level *lv = &m.level[k];
			unsigned w = 2 + pick(&g, 12), sets = 1 + pick(&g, 9);

			snprintf(lv->name, sizeof(lv->name), "l%u", k + 1);
			lv->ways = k == 0 && pick(&g, 3) == 0 ? 0 : w;
			lv->entries = sets * w + pick(&g, w);
			lv->repl = (int)pick(&g, 3);
			lv->hashed = lv->ways && pick(&g, 2);
			hashed += lv->hashed;
			lv->psz_mask = 1u << PSZ_2M;
			if (held)
				lv->held_as[PSZ_2M] = (unsigned char)(1 + (held == 1 ? PSZ_4K : PSZ_64K));
			odd += lv->ways && lv->entries % lv->ways;
		}
		m.tag = (int)pick(&g, 3);
		m.cores = 1 + pick(&g, 2);
		m.strands = 1 + pick(&g, 3);
		base_run(&r, pats[pick(&g, 4)], 1 + pick(&g, 4), 2 + pick(&g, 60), 1 + pick(&g, 40));
		r.psz = PSZ_2M;
		r.seed = pick(&g, 1000);
		r.sharedctx = (int)pick(&g, 2);
		r.quantum = 1 + pick(&g, 50);
		r.jitter = pick(&g, 2) ? 0 : 1 + pick(&g, 8);
		r.startup = pick(&g, 3) ? 0 : pick(&g, 20);
		r.words = pick(&g, 2) ? 1 : 2u << pick(&g, 4);
		model_loc_limit = i % 2 ? 0 : 1u << 24;
		if (agree(&m, &r, NULL))
			eq++;
		else if (!first_bad[0])
			snprintf(first_bad, sizeof(first_bad), ": first difference at configuration %u", i);
	}
	model_loc_limit = 1u << 24;
	ok(eq == n && odd > n / 2 && hashed > n / 4, "entries not a multiple of the ways (%u such levels, %u "
	   "hashed): fast equals the reference on %u/%u random configurations%s", odd, hashed, eq, n, first_bad);
}

/* The walks and L1 misses of m's one task on r, fast = reference; 0 if not. */
static int run_both(const struct model_machine *m, const struct model_run *r, uint64_t *walks, uint64_t *l1)
{
	struct model_stats a;

	if (!agree(m, r, walks) || model_simulate(m, r, &a))
		return 0;
	*l1 = a.task[0].misses[0];
	model_stats_free(&a);
	return 1;
}

/*
 * Zen 2 holds 1 GiB pages as 1G in its L1 and as 2M entries in its L2
 * (WikiChip). 96 pages of 1 GiB, one word each at the page's start, need
 * 96 L2 entries, 2 x 2 MiB = 192 MiB of its 170 x 2 x 2 MiB reach (the
 * ways of 2M entries); their sets, model_set_of(page << 9, 170, hashed),
 * hold at most the 2 ways of the 2M partition (checked here), so the L2 keeps them all and only the first touch of
 * each page walks, however the L1's 64 entries miss. Its L1 misses are
 * those of 64 fully associative LRU entries over 96 pages: about 1/3.
 */
static void zen2_1g(void)
{
	struct model_machine m;
	struct model_run r;
	uint64_t walks = 0, l1 = 0;
	int eq;

	unsigned load[170] = { 0 }, most = 0;

	model_preset_find("amd-zen2", &m);
	for (uint64_t p = 0; p < 96; p++) {
		unsigned s = model_set_of(p << 9, model_level_sets(&m.level[1]), m.level[1].hashed);

		if (++load[s] > most)
			most = load[s];
	}
	base_run(&r, "random", 1, 96, 100);
	r.psz = PSZ_1G;
	r.seed = 1;
	eq = run_both(&m, &r, &walks, &l1);
	ok(most <= model_level_ways(&m.level[1], PSZ_1G) && eq && walks == 96 && l1 > 96 * 100 / 4 && l1 < 96 * 100 / 2,
	   "amd-zen2, 96 x 1g pages, random, 100 rounds: %llu walks (96), %llu L1 misses, fast = reference",
	   (unsigned long long)walks, (unsigned long long)l1);
}

/*
 * A fully associative LRU level of 48 entries holding 1 GiB pages as 512
 * MiB entries, read at 2 words a page (offsets 0 and 512 MiB): each page
 * takes 2 entries, so the reach is 24 pages. A cyclic stream of 24 pages
 * walks only in its first round; of 25, every access misses.
 */
static void split_knee(void)
{
	struct model_machine m;
	struct model_run r;
	char err[200];
	uint64_t below = 0, above = 0, l1 = 0;
	int eq;

	memset(&m, 0, sizeof(m));
	snprintf(m.name, sizeof(m.name), "split");
	m.tag = TAG_ASID;
	m.cores = m.strands = 1;
	if (model_parse_tlb("l1d:48,full,lru,ps=1g>512m", &m, err, sizeof(err))) {
		ok(0, "split knee: %s", err);
		return;
	}
	base_run(&r, "rounds", 1, 24, 10);
	r.psz = PSZ_1G;
	r.words = 2;
	eq = run_both(&m, &r, &below, &l1);
	base_run(&r, "rounds", 1, 25, 10);
	r.psz = PSZ_1G;
	r.words = 2;
	eq &= run_both(&m, &r, &above, &l1);
	ok(eq && below == 48 && above == 25 * 2 * 10,
	   "48 entries holding 1g as 512m, 2 words a page: cyclic walks %llu at 24 pages (48), %llu at 25 "
	   "(all 500), fast = reference", (unsigned long long)below, (unsigned long long)above);
}

/*
 * Neoverse N1 (Cortex-A76 TRM A5.2.2-3): the L1 holds a 1 GiB block as a
 * 512 MiB entry, the L2 holds it whole; 16 GiB blocks are 512 MiB
 * entries in both. 96 x 1g random: the L2's 256 sets of 5 ways hold all
 * 96 pages (page mod 256), so 96 walks, and the L1 misses as a 48-entry
 * level of whole pages does (one word a page: one entry each). 16g at 32
 * words: each page is 32 entries of the L1's 48, so a cyclic stream of 1
 * page hits after its first round and one of 2 pages misses every access
 * in the L1, while the L2 (1280) keeps both pages' 64 entries.
 */
static void n1_granules(void)
{
	struct model_machine m, whole;
	struct model_run r;
	uint64_t walks = 0, l1 = 0, wwalks = 0, wl1 = 0, w1 = 0, l1_1 = 0, w2 = 0, l1_2 = 0;
	int eq;

	model_preset_find("arm-neoverse-n1", &m);
	ok(model_held_shift(&m.level[0], PSZ_1G) == 1 && model_held_shift(&m.level[1], PSZ_1G) == 0 &&
	   model_held_shift(&m.level[0], PSZ_32M) == 4 && model_held_shift(&m.level[1], PSZ_32M) == 0 &&
	   model_held_shift(&m.level[0], PSZ_16G) == 5 && model_held_shift(&m.level[1], PSZ_16G) == 5,
	   "arm-neoverse-n1: L1 holds 1g as 512m, 32m as 2m, 16g as 512m; L2 holds 1g and 32m whole, 16g as 512m");
	base_run(&r, "random", 1, 96, 100);
	r.psz = PSZ_1G;
	whole = m;
	memset(whole.level[0].held_as, 0, sizeof(whole.level[0].held_as));
	eq = run_both(&m, &r, &walks, &l1) && run_both(&whole, &r, &wwalks, &wl1);
	ok(eq && walks == 96 && l1 == wl1 && wwalks == 96,
	   "arm-neoverse-n1, 96 x 1g random: %llu walks (96), %llu L1 misses as with whole entries, fast = reference",
	   (unsigned long long)walks, (unsigned long long)l1);
	base_run(&r, "rounds", 1, 1, 10);
	r.psz = PSZ_16G;
	r.words = 32;
	eq = run_both(&m, &r, &w1, &l1_1);
	base_run(&r, "rounds", 1, 2, 10);
	r.psz = PSZ_16G;
	r.words = 32;
	eq &= run_both(&m, &r, &w2, &l1_2);
	ok(eq && l1_1 == 32 && w1 == 32 && l1_2 == 2 * 32 * 10 && w2 == 64,
	   "arm-neoverse-n1, 16g at 32 words: 1 page %llu L1 misses (32), 2 pages %llu (all 640) and %llu walks (64)",
	   (unsigned long long)l1_1, (unsigned long long)l1_2, (unsigned long long)w2);
}

int main(void)
{
	parser();
	knees();
	hashed_cyclic();
	against_reference();
	zen2_1g();
	split_knee();
	n1_granules();
	return done_testing();
}
