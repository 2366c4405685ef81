/* t_model_vec.c - the fast simulator's vector path (model/vec.c) for
 * narrow LRU levels gives the counts of its rows path and of the
 * brute-force reference, bit for bit (every task's accesses, walks, probes,
 * misses and switches), and is taken: on random machines of one or two
 * such levels, on intel-skylake as make bench runs it (on 1, 2 and 3
 * threads), and against physics. Off x86-64 (or without SSE4.1) the path is never taken, and
 * the tests say so and check the counts alone. */
#include <stdio.h>
#include <string.h>
#include "model/model.h"
#include "tests/model_same.h"
#include "tap.h"

/* m, r simulated with the vector path, without it, and by the reference:
 * whether all three agree; *used: whether the vector path ran. */
static int three_agree(const struct model_machine *m, const struct model_run *r, int *used)
{
	struct model_stats v, rows, ref;
	uint64_t before = model_vec_runs;
	int good = 0;

	model_vec = 1;
	if (model_simulate(m, r, &v))
		return 0;
	*used = model_vec_runs > before;
	model_vec = 0;
	if (!model_simulate(m, r, &rows)) {
		if (!model_reference(m, r, &ref)) {
			good = tasks_same(&v, &rows) && tasks_same(&v, &ref) && model_total_accesses(&v) > 0;
			model_stats_free(&ref);
		}
		model_stats_free(&rows);
	}
	model_vec = 1;
	model_stats_free(&v);
	return good;
}

/* m, r on 2 and 3 threads (each a core at a time, each core's vector
 * path its own) against 1, the vector path on. */
static int jobs_agree(const struct model_machine *m, const struct model_run *r)
{
	struct model_stats one, n;
	int good;

	model_vec = 1;
	if (model_simulate_jobs(m, r, &one, NULL, NULL, 1))
		return 0;
	good = model_total_accesses(&one) > 0;
	for (unsigned j = 2; good && j <= 3; j++) {
		good = !model_simulate_jobs(m, r, &n, NULL, NULL, j);
		if (good) {
			good = tasks_same(&one, &n);
			model_stats_free(&n);
		}
	}
	model_stats_free(&one);
	return good;
}

/* A narrow LRU level: ways 1..16, sets 1..40 (any number: masks, the
 * multiply-shift modulo, and hashed). */
static struct model_level narrow(struct rng *g, unsigned k)
{
	unsigned ways = 1 + (unsigned)rng_below(g, 16), sets = 1 + (unsigned)rng_below(g, 40);
	struct model_level l = { .entries = ways * sets, .ways = ways, .repl = REPL_LRU,
				 .psz_mask = 1u << PSZ_4K, .hashed = (unsigned char)(rng_below(g, 4) == 0) };

	snprintf(l.name, sizeof(l.name), "l%u", k + 1);
	return l;
}

static void random_machines(void)
{
	static const char *const pats[] = { "random", "zipf", "chase", "rounds" };
	unsigned n = 300, bad = 0, used = 0;
	struct rng g;

	rng_seed(&g, 20261205, 0);
	for (unsigned i = 0; i < n; i++) {
		struct model_machine m = { .nlevels = 1 + (unsigned)rng_below(&g, 2), .tag = (int)rng_below(&g, 3),
					   .cores = 1 + (unsigned)rng_below(&g, 2),
					   .strands = 1 + (unsigned)rng_below(&g, 4) };
		struct model_run r = { 0 };
		int u = 0;

		snprintf(m.name, sizeof(m.name), "vec");
		for (unsigned k = 0; k < m.nlevels; k++)
			m.level[k] = narrow(&g, k);
		r.ops = workload_find(pats[rng_below(&g, 4)]);
		r.ntasks = 1 + (unsigned)rng_below(&g, 8);
		r.threads = rng_below(&g, 4) == 0;
		r.sharedctx = (int)rng_below(&g, 2);
		r.psz = PSZ_4K;
		r.pages = 2 + rng_below(&g, 600);
		r.rounds = 50 + rng_below(&g, 100);
		r.seed = rng_below(&g, 1000);
		/* long quanta leave long quiet stretches, which the path needs */
		r.quantum = rng_below(&g, 3) ? 20000 + rng_below(&g, 50000) : 1 + rng_below(&g, 50);
		r.place = (int)rng_below(&g, 3);
		r.jitter = rng_below(&g, 3) ? 0 : 1 + (unsigned)rng_below(&g, 8);
		r.startup = rng_below(&g, 3) ? 0 : rng_below(&g, 30);
		workload_default_args(&r.wl);
		bad += !three_agree(&m, &r, &u);
		used += u;
	}
	ok(bad == 0, "%u random machines of 1 or 2 narrow LRU levels: vector path = rows = reference "
	   "(%u differ)", n, bad);
	ok(used > n / 3 || !model_vec_available(), "the vector path ran on %u of them%s", used,
	   model_vec_available() ? "" : " (not available here)");
}

/* intel-skylake's 2m levels as make bench runs them (32 tasks, zipf and
 * random), shorter */
static void skylake(void)
{
	static const char *const pats[] = { "zipf", "random" };

	for (unsigned k = 0; k < 2; k++) {
		struct model_machine m;
		struct model_run r = { 0 };
		int u = 0, good;

		model_preset_find("intel-skylake", &m);
		r.ops = workload_find(pats[k]);
		r.ntasks = 32;
		r.psz = PSZ_2M;
		r.pages = 2048;
		r.rounds = 40;
		r.seed = 1;
		r.quantum = 100000;
		workload_default_args(&r.wl);
		good = three_agree(&m, &r, &u);
		ok(good && (u || !model_vec_available()), "intel-skylake, %s, 32 tasks over 2048 2m pages: "
		   "vector path = rows = reference%s", pats[k], u ? " (vector path ran)" : "");
		ok(jobs_agree(&m, &r), "intel-skylake, %s: the vector path on 2 and 3 threads = on 1", pats[k]);
	}
}

/*
 * Physics: one task, random pages, exactly `ways` pages per set (pages =
 * sets * ways, set = page mod sets): after its first touch a page is never
 * evicted, so the walks are the pages touched, and the accesses after the
 * first touches all hit the first level.
 */
static void physics(void)
{
	struct model_machine m = { .nlevels = 1, .tag = TAG_ASID, .cores = 1, .strands = 1 };
	struct model_run r = { 0 };
	struct model_stats st;
	uint64_t before = model_vec_runs;

	snprintf(m.name, sizeof(m.name), "vec");
	m.level[0] = (struct model_level){ .name = "l1", .entries = 16 * 12, .ways = 12, .repl = REPL_LRU,
					   .psz_mask = 1u << PSZ_4K };
	r.ops = workload_find("random");
	r.ntasks = 1;
	r.psz = PSZ_4K;
	r.pages = 16 * 12;
	r.rounds = 200;
	r.seed = 7;
	r.quantum = 1000000;
	workload_default_args(&r.wl);
	model_vec = 1;
	if (model_simulate(&m, &r, &st)) {
		ok(0, "one task, 12 pages per set of 12 ways: simulated");
		return;
	}
	ok(st.task[0].walks == r.pages && st.task[0].accesses == r.pages * r.rounds &&
	   (model_vec_runs > before || !model_vec_available()),
	   "one task, random over 12 pages per set of 12 ways: walks %llu = the 192 pages, of %llu accesses",
	   (unsigned long long)st.task[0].walks, (unsigned long long)st.task[0].accesses);
	model_stats_free(&st);
}

int main(void)
{
	if (!model_vec_available())
		printf("# the vector path is not available here (x86-64 with SSE4.1): counts checked alone\n");
	random_machines();
	skylake();
	physics();
	return done_testing();
}
