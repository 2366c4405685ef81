/* t_model_geom.c - the published organisations (model.h, struct
 * model_level): levels whose entries are not a multiple of their ways,
 * and pages held as smaller entries, checked against physics (reach
 * knees, the smashed 1 GiB pages of Zen 2, N1's granules) and against the
 * brute-force reference. */
#include <stdio.h>
#include <string.h>
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
	char err[200];

	memset(&m, 0, sizeof(m));
	ok(model_parse_tlb("l2d:2048,12way,lru", &m, err, sizeof(err)) == 0 && m.level[0].ways == 12 &&
	   model_level_sets(&m.level[0]) == 170, "2048 entries in 12 ways parse: 170 sets (2040 modelled)");
	ok(model_parse_tlb("l2d:12,13way,lru", &m, err, sizeof(err)) != 0 && strstr(err, "exceed"),
	   "more ways than entries refused: %s", err);
	ok(model_parse_tlb("l2d:64,64way,lru", &m, err, sizeof(err)) == 0 && m.level[0].ways == 0,
	   "as many ways as entries is fully associative");
}

/*
 * A cyclic stream of P pages on one task through one LRU level of S sets
 * of W ways (entries E = S * W + R, R < W): consecutive pages fill the
 * sets in turn, so up to S * W pages every set holds its pages and only
 * the first round misses; at S * W + 1 set 0 holds W + 1 pages, which an
 * LRU set misses every time, so each later round misses W + 1 times.
 */
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
		m.level[0] = (struct model_level){ "l2d", e, w, REPL_LRU, 1u << PSZ_4K, 0, { 0 } };
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
	unsigned n = 300, eq = 0, odd = 0;
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
	ok(eq == n && odd > n / 2, "entries not a multiple of the ways (%u such levels): fast equals the "
	   "reference on %u/%u random configurations%s", odd, eq, n, first_bad);
}

int main(void)
{
	parser();
	knees();
	against_reference();
	return done_testing();
}
