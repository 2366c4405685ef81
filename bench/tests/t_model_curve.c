/* t_model_curve.c - single-pass design curves (model/curve.h): every
 * point of a sweep equals a separate run of the fast simulator at that
 * size, task by task, for 30 sizes on random and zipf streams and on the
 * presets' own levels; and the cyclic knee falls where physics puts it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "model/curve.h"
#include "tap.h"

static void base_run(struct model_run *r, const char *pattern, unsigned tasks, uint64_t pages, uint64_t rounds)
{
	memset(r, 0, sizeof(*r));
	r->ops = workload_find(pattern);
	r->ntasks = tasks;
	r->pages = pages;
	r->rounds = rounds;
	r->psz = PSZ_4K;
	r->seed = 7;
	r->quantum = 1000;
	workload_default_args(&r->wl);
}

/*
 * Sweep lo..hi on m and r, then run the fast simulator at every size of
 * the curve: the swept level's misses must be equal for every task, and
 * the accesses too. Returns the number of sizes compared (0 on failure).
 */
static unsigned against_runs(const char *what, const struct model_machine *m, const struct model_run *r,
			     unsigned lo, unsigned hi)
{
	struct model_curve cv;
	char err[256];
	unsigned bad = 0, n;

	if (model_curve(m, r, lo, hi, &cv, err, sizeof(err))) {
		ok(0, "%s: curve refused: %s", what, err);
		return 0;
	}
	for (unsigned j = 0; j < cv.n; j++) {
		struct model_machine mj;
		struct model_stats st;

		model_curve_machine(m, cv.level, cv.sets, cv.entries[j], &mj);
		if (model_simulate(&mj, r, &st)) {
			bad++;
			continue;
		}
		for (unsigned i = 0; i < r->ntasks; i++) {
			if (st.task[i].misses[cv.level] != cv.misses[(size_t)i * cv.n + j] ||
			    st.task[i].accesses != cv.accesses[i]) {
				if (!bad)
					printf("#   %s: %u entries, task %u: run %llu misses, curve %llu\n", what,
					       cv.entries[j], i, (unsigned long long)st.task[i].misses[cv.level],
					       (unsigned long long)cv.misses[(size_t)i * cv.n + j]);
				bad++;
			}
		}
		model_stats_free(&st);
	}
	n = cv.n;
	ok(!bad && n, "%s: %u sizes (%u..%u), every task's misses equal a separate run", what, n,
	   cv.n ? cv.entries[0] : 0, cv.n ? cv.entries[cv.n - 1] : 0);
	model_curve_free(&cv);
	return bad ? 0 : n;
}

static void level(struct model_level *l, const char *name, unsigned e, unsigned ways)
{
	*l = (struct model_level){ "", e, ways, REPL_LRU, 1u << PSZ_4K, 0, { 0 }, 0, { 0 } };
	snprintf(l->name, sizeof(l->name), "%s", name);
}

static void machine(struct model_machine *m, int tag, unsigned cores, unsigned strands)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "test");
	m->tag = tag;
	m->cores = cores;
	m->strands = strands;
}

static void custom_curves(void)
{
	static const char *const pats[] = { "random", "zipf" };
	struct model_machine m;
	struct model_run r;
	char what[128];

	for (unsigned p = 0; p < 2; p++) {
		/* one fully associative level, 30 sizes about the working set */
		machine(&m, TAG_ASID, 1, 2);
		m.nlevels = 1;
		level(&m.level[0], "l1d", 64, 0);
		base_run(&r, pats[p], 3, 48, 200);
		snprintf(what, sizeof(what), "%s, one full level, 3 tasks on 2 strands", pats[p]);
		against_runs(what, &m, &r, 20, 49);
		/* the same as the L1 of two levels, several cores, jitter, start-up pages */
		m.nlevels = 2;
		m.cores = 2;
		level(&m.level[1], "l2", 256, 4);
		r.ntasks = 5;
		r.jitter = 3;
		r.startup = 7;
		snprintf(what, sizeof(what), "%s, L1 of two levels, 2 cores, jitter, start-up", pats[p]);
		against_runs(what, &m, &r, 1, 30);
		/* a set-associative L1: 8 sets, 1 to 30 ways */
		level(&m.level[0], "l1d", 64, 8);
		snprintf(what, sizeof(what), "%s, 8-set L1, ways 1..30", pats[p]);
		against_runs(what, &m, &r, 8, 240);
		/* 67 entries in 6 ways: 11 sets (1 entry left over), hashed */
		level(&m.level[0], "l1d", 67, 6);
		m.level[0].hashed = 1;
		snprintf(what, sizeof(what), "%s, 67-entry 6-way hashed L1 (11 sets), ways 1..30", pats[p]);
		against_runs(what, &m, &r, 11, 330);
		/* ctx2 with a shared context, a short quantum, 4 words per page */
		machine(&m, TAG_CTX2, 1, 2);
		m.nlevels = 1;
		level(&m.level[0], "dtlb", 64, 0);
		base_run(&r, pats[p], 4, 40, 50);
		r.sharedctx = 1;
		r.quantum = 37;
		r.words = 4;
		snprintf(what, sizeof(what), "%s, ctx2 shared, quantum 37, 4 words", pats[p]);
		against_runs(what, &m, &r, 100, 129);
	}
}

/* The presets' own first levels, on their page sizes. */
static void preset_curves(void)
{
	static const struct {
		const char *machine, *pattern;
		unsigned psz, lo, hi;
	} c[] = {
		{ "amd-zen2", "zipf", PSZ_4K, 40, 69 },
		{ "amd-zen2", "random", PSZ_2M, 40, 69 },
		{ "intel-skylake", "zipf", PSZ_2M, 8, 240 },
		{ "intel-skylake", "random", PSZ_4K, 16, 480 },
		{ "arm-neoverse-n1", "zipf", PSZ_64K, 33, 62 },
	};

	for (unsigned k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		struct model_machine m;
		struct model_run r;
		char what[128];

		if (model_preset_find(c[k].machine, &m)) {
			ok(0, "preset %s", c[k].machine);
			continue;
		}
		m.cores = 2;
		base_run(&r, c[k].pattern, 6, 96, 30);
		r.psz = c[k].psz;
		r.threads = k == 4;	/* one address space: the tasks share their keys */
		snprintf(what, sizeof(what), "%s, %s, %s pages%s", c[k].machine, c[k].pattern, model_psz_name(r.psz),
			 r.threads ? ", threads" : "");
		against_runs(what, &m, &r, c[k].lo, c[k].hi);
	}
}

/* A cyclic sweep of P pages on one task: every access misses below P
 * entries, only the first round's from P on. */
static void knee(void)
{
	struct model_machine m;
	struct model_run r;
	struct model_curve cv;
	char err[256];
	const unsigned p = 50, rounds = 20;
	int good = 1;

	machine(&m, TAG_ASID, 1, 1);
	m.nlevels = 1;
	level(&m.level[0], "l1d", 64, 0);
	base_run(&r, "rounds", 1, p, rounds);
	if (model_curve(&m, &r, 1, 100, &cv, err, sizeof(err))) {
		ok(0, "knee: %s", err);
		return;
	}
	for (unsigned j = 0; j < cv.n; j++)
		good &= cv.misses[j] == (cv.entries[j] < p ? (uint64_t)p * rounds : p);
	ok(good && cv.n == 100, "cyclic %u pages: %u misses below %u entries, %u from %u on", p, p * rounds, p, p, p);
	model_curve_free(&cv);
}

/* The presets' fully associative L1s: a cyclic stream over entries + 1
 * pages misses every access at the preset's size, and only the first
 * round's one entry more (the reach knee at entries + 1). */
static void preset_knees(void)
{
	static const char *const names[] = { "amd-zen2", "arm-neoverse-n1" };

	for (unsigned k = 0; k < 2; k++) {
		struct model_machine m;
		struct model_run r;
		struct model_curve cv;
		char err[256];
		unsigned e;
		uint64_t at_e = 0, at_e1 = 0;

		if (model_preset_find(names[k], &m)) {
			ok(0, "preset %s", names[k]);
			continue;
		}
		e = m.level[0].entries;
		base_run(&r, "rounds", 1, e + 1, 40);
		model_psz_parse(m.default_page, &r.psz);
		if (model_curve(&m, &r, e, e + 1, &cv, err, sizeof(err))) {
			ok(0, "%s knee: %s", names[k], err);
			continue;
		}
		at_e = cv.misses[0];
		at_e1 = cv.misses[1];
		ok(cv.n == 2 && at_e == (uint64_t)(e + 1) * 40 && at_e1 == e + 1,
		   "%s: %u pages in turn miss all %u accesses at its %u L1 entries, %u at %u entries", names[k],
		   e + 1, (e + 1) * 40, e, e + 1, e + 1);
		model_curve_free(&cv);
	}
}

static void refusals(void)
{
	struct model_machine m;
	struct model_run r;
	struct model_curve cv;
	char err[256];

	machine(&m, TAG_ASID, 1, 1);
	m.nlevels = 1;
	level(&m.level[0], "l1d", 64, 0);
	base_run(&r, "random", 1, 50, 2);
	m.level[0].repl = REPL_NRU;
	ok(model_curve(&m, &r, 1, 10, &cv, err, sizeof(err)) == -EINVAL && strstr(err, "not LRU"),
	   "NRU is refused: %s", err);
	m.level[0].repl = REPL_LRU;
	m.tag = TAG_NONE;
	ok(model_curve(&m, &r, 1, 10, &cv, err, sizeof(err)) == -EINVAL && strstr(err, "tag none"),
	   "tag none is refused: %s", err);
	m.tag = TAG_ASID;
	ok(model_curve(&m, &r, 10, 9, &cv, err, sizeof(err)) == -EINVAL, "B < A is refused: %s", err);
	level(&m.level[0], "l1d", 64, 4);
	ok(model_curve(&m, &r, 17, 31, &cv, err, sizeof(err)) == -EINVAL && strstr(err, "multiple of 16"),
	   "no multiple of the sets in the range: %s", err);
}

int main(void)
{
	knee();
	preset_knees();
	refusals();
	custom_curves();
	preset_curves();
	return done_testing();
}
