/* t_model_paths.c - the fast simulator's compiled loops (step.c: the
 * presets' geometries, level kinds and the branch-free or branchy access)
 * against the brute-force reference, on `make bench`'s own configurations:
 * every preset, the zipf and random streams, 32 tasks over 4 GiB of the
 * preset's page size, long enough that every busy core runs both its first
 * sample and the loops chosen after it. */
#include <stdio.h>
#include <string.h>
#include "model/model.h"
#include "tap.h"

/* Every task's counts equal. */
static int same(const struct model_stats *a, const struct model_stats *b)
{
	if (a->ntasks != b->ntasks)
		return 0;
	for (unsigned i = 0; i < a->ntasks; i++) {
		const struct model_task *x = &a->task[i], *y = &b->task[i];

		if (x->accesses != y->accesses || x->walks != y->walks || x->switches != y->switches ||
		    memcmp(x->probes, y->probes, sizeof(x->probes)) ||
		    memcmp(x->misses, y->misses, sizeof(x->misses)))
			return 0;
	}
	return 1;
}

/* The fraction of accesses that hit the first level probed (the one
 * step.c's level0_mixed() reads), over every task. */
static double level0_hits(const struct model_stats *st)
{
	uint64_t probes = 0, misses = 0;

	for (unsigned i = 0; i < st->ntasks; i++)
		for (unsigned k = 0; k < MODEL_LEVELS; k++)
			if (st->task[i].probes[k]) {
				probes += st->task[i].probes[k];
				misses += st->task[i].misses[k];
				break;
			}
	return probes ? 1.0 - (double)misses / (double)probes : 0;
}

int main(void)
{
	static const char *const pats[] = { "zipf", "random" };

	for (int p = 0; model_presets[p]; p++) {
		const struct model_machine *m = model_presets[p];
		unsigned slots = m->cores * m->strands;
		/* the default placement (smt) fills a core's strands first */
		unsigned per_core = 32 >= slots ? 32 / m->cores : m->strands;

		for (unsigned pi = 0; pi < 2; pi++) {
			struct model_run r;
			struct model_stats a, b;
			double hits;

			memset(&r, 0, sizeof(r));
			r.ops = workload_find(pats[pi]);
			r.ntasks = 32;
			r.psz = m->strands == 8 ? PSZ_4M : PSZ_2M;
			r.pages = (4ull << 30) / model_psz_bytes(r.psz);
			/* each busy core: at least 4 times step.c's first sample of 2^14 slots */
			r.rounds = (65536 + per_core * r.pages - 1) / (per_core * r.pages);
			r.seed = 1;
			workload_default_args(&r.wl);
			r.quantum = 100000;
			if (model_simulate(m, &r, &a) || model_reference(m, &r, &b)) {
				ok(0, "%s %s: refused", m->name, pats[pi]);
				continue;
			}
			hits = level0_hits(&b);
			ok(same(&a, &b), "%s %s, %llu rounds: fast equals the reference (walks %llu and %llu)",
			   m->name, pats[pi], (unsigned long long)r.rounds,
			   (unsigned long long)model_total_walks(&a), (unsigned long long)model_total_walks(&b));
			/* which loops ran: zipf's level-0 hit rate puts it on the
			   branch-free ones, random's on the branchy ones (level0_mixed) */
			if (pi == 0)
				ok(hits >= 0.125 && hits <= 0.875, "%s zipf: level 0 hits %.3f, within 1/8..7/8",
				   m->name, hits);
			else
				ok(hits < 0.125, "%s random: level 0 hits %.3f, below 1/8", m->name, hits);
			model_stats_free(&a);
			model_stats_free(&b);
		}
	}
	return done_testing();
}
