/* t_model_jobs.c - `sim --jobs N`: the cores simulated on N threads give
 * the counts of one thread, bit for bit (every task's accesses, walks,
 * probes, misses and switches; skipped accesses and the period), on the
 * presets and on random small machines of several cores. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "model/model.h"
#include "tests/model_same.h"
#include "tap.h"

/* The counts and, as one thread has them, the periods skipped. */
static int same(const struct model_stats *a, const struct model_stats *b)
{
	return a->skipped_accesses == b->skipped_accesses && a->simulated_accesses == b->simulated_accesses &&
	       a->period_cycles == b->period_cycles && tasks_same(a, b);
}

/* jobs 2, 3 and 8 against 1 on m and r; *skipped += accesses skipped. */
static int jobs_agree(const struct model_machine *m, const struct model_run *r, uint64_t *skipped)
{
	static const unsigned jobs[] = { 2, 3, 8 };
	struct model_stats one, n;
	int good;

	if (model_simulate_jobs(m, r, &one, NULL, NULL, 1))
		return 0;
	good = model_total_accesses(&one) > 0;
	*skipped += one.skipped_accesses;
	for (unsigned k = 0; good && k < sizeof(jobs) / sizeof(jobs[0]); k++) {
		if (model_simulate_jobs(m, r, &n, NULL, NULL, jobs[k]))
			good = 0;
		else
			good = same(&one, &n);
		model_stats_free(&n);
	}
	model_stats_free(&one);
	return good;
}

static void presets(void)
{
	static const char *const pats[] = { "zipf", "random", "rounds" };

	for (int p = 0; model_presets[p]; p++) {
		for (unsigned k = 0; k < 3; k++) {
			struct model_machine m = *model_presets[p];
			struct model_run r = { 0 };
			uint64_t skipped = 0;

			r.ops = workload_find(pats[k]);
			r.ntasks = 4 * m.strands + 3;	/* several cores, one of them short of tasks */
			m.cores = 5;
			model_psz_parse(m.default_page, &r.psz);
			r.pages = 300;
			r.rounds = 40;
			r.seed = 3;
			r.quantum = 5000;
			r.jitter = k == 2 ? 16 : 0;
			workload_default_args(&r.wl);
			int good = jobs_agree(&m, &r, &skipped);

			ok(good, "%s, %s, %u tasks on 5 cores: jobs 2, 3, 8 equal jobs 1%s",
			   m.name, pats[k], r.ntasks, skipped ? " (periods skipped)" : "");
		}
	}
}

static void random_machines(void)
{
	struct rng g;
	unsigned bad = 0, n = 200;

	rng_seed(&g, 11, 0);
	for (unsigned i = 0; i < n; i++) {
		static const char *const pats[] = { "rounds", "random", "zipf", "chase" };
		struct model_machine m = { .nlevels = 2, .tag = (int)rng_below(&g, 3),
					   .cores = 1 + (unsigned)rng_below(&g, 6),
					   .strands = 1 + (unsigned)rng_below(&g, 3) };
		struct model_run r = { 0 };
		uint64_t skipped = 0;

		m.level[0] = (struct model_level){ "l1", 8, (unsigned)rng_below(&g, 2) * 2,
						   (int)rng_below(&g, 3), 1u << PSZ_4K, 0, { 0 }, 0, { 0 } };
		m.level[1] = (struct model_level){ "l2", 32, 4, (int)rng_below(&g, 3), 1u << PSZ_4K, 0, { 0 }, 0, { 0 } };
		r.ops = workload_find(pats[rng_below(&g, 4)]);
		r.ntasks = 1 + (unsigned)rng_below(&g, 12);
		r.threads = rng_below(&g, 4) == 0;
		r.sharedctx = (int)rng_below(&g, 2);
		r.psz = PSZ_4K;
		r.pages = 2 + rng_below(&g, 40);
		r.rounds = 1 + rng_below(&g, 60);
		r.seed = rng_below(&g, 1000);
		r.quantum = 1 + rng_below(&g, 50);
		r.place = (int)rng_below(&g, 3);
		r.jitter = rng_below(&g, 2) ? 0 : 1 + (unsigned)rng_below(&g, 8);
		r.startup = rng_below(&g, 3) ? 0 : rng_below(&g, 20);
		workload_default_args(&r.wl);
		bad += !jobs_agree(&m, &r, &skipped);
	}
	ok(bad == 0, "%u random machines of 1 to 6 cores: jobs 2, 3, 8 equal jobs 1 (%u differ)", n, bad);
}

int main(void)
{
	struct model_machine m = *model_presets[0];
	struct model_run r = { .ops = workload_find("rounds"), .ntasks = 2, .pages = 10, .rounds = 2,
			       .psz = PSZ_4M, .quantum = 100 };
	struct model_stats st;

	ok(model_simulate_jobs(&m, &r, &st, NULL, NULL, 0) == -EINVAL, "jobs 0 is refused");
	presets();
	random_machines();
	/* long periodic runs: each core skips periods on its own thread */
	for (int p = 0; model_presets[p]; p++) {
		uint64_t skipped = 0;
		int good;

		m = *model_presets[p];
		m.cores = 4;
		r = (struct model_run){ .ops = workload_find("rounds"), .ntasks = 4 * m.strands - 1, .pages = 100,
					.rounds = 3000, .seed = 5, .quantum = 1000000000 };
		model_psz_parse(m.default_page, &r.psz);
		workload_default_args(&r.wl);
		good = jobs_agree(&m, &r, &skipped);
		ok(good && skipped > 0, "%s, rounds, 4 cores: periods skipped (%llu "
		   "accesses), jobs 2, 3, 8 equal jobs 1", m.name, (unsigned long long)skipped);
	}
	return done_testing();
}
