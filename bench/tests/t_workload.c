/* t_workload.c - the access-order generators: exact sequences where they are
 * defined, determinism for a seed, chunking invariance, and distribution checks. */
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "workloads/workload.h"

/* Generate the whole stream of (name, pages, rounds, seed, task) in chunks of `chunk`. */
static uint32_t *gen(const char *name, uint64_t pages, uint64_t rounds, uint64_t seed,
		     unsigned task, size_t chunk, uint64_t *n)
{
	struct wl_params p = { .pages = pages, .rounds = rounds, .seed = seed, .task = task,
			       .ntasks = 4, .zipf_theta = 0.99 };
	struct wl_stream s;
	uint32_t *out;
	uint64_t got = 0;
	size_t k;

	if (wl_open(&s, workload_find(name), &p))
		return NULL;
	out = malloc(s.total * sizeof(*out));
	while ((k = wl_fill(&s, out + got, chunk)) > 0)
		got += k;
	wl_close(&s);
	*n = got;
	return out;
}

int main(void)
{
	uint64_t n1, n2;
	uint32_t *a, *b;
	struct wl_stream s;
	struct wl_params bad = { .pages = 0, .rounds = 1, .ntasks = 1 };
	uint32_t one[8];

	ok(workload_find("rounds") && workload_find("random") && workload_find("zipf") &&
	   workload_find("chase") && !workload_find("nope"), "registry lists the four patterns");
	ok(wl_open(&s, workload_find("rounds"), &bad) != 0, "zero pages refused");
	bad.pages = 4;
	bad.task = 1;
	ok(wl_open(&s, workload_find("rounds"), &bad) != 0, "task >= ntasks refused");

	for (int w = 0; workload_registry[w]; w++) {
		struct wl_params p1 = { .pages = 1, .rounds = 8, .seed = 3, .ntasks = 1, .zipf_theta = 0.99 };
		int zero = 1;

		ok(wl_open(&s, workload_registry[w], &p1) == 0 && wl_fill(&s, one, 8) == 8,
		   "%s: a one-page working set works", workload_registry[w]->name);
		for (int i = 0; i < 8; i++)
			zero &= one[i] == 0;
		ok(zero, "%s: and touches page 0 only", workload_registry[w]->name);
		wl_close(&s);
	}

	/* rounds: 0..P-1 each round, exactly. */
	a = gen("rounds", 5, 3, 1, 0, 4, &n1);
	{
		int exact = n1 == 15;

		for (uint64_t i = 0; exact && i < n1; i++)
			exact = a[i] == i % 5;
		ok(exact, "rounds is 0..P-1 repeated, 15 accesses for 5 pages x 3 rounds");
	}
	free(a);

	/* Chunk size never changes the stream. */
	for (int w = 0; workload_registry[w]; w++) {
		const char *name = workload_registry[w]->name;

		a = gen(name, 1000, 7, 42, 2, 1, &n1);
		b = gen(name, 1000, 7, 42, 2, 4096, &n2);
		ok(n1 == 7000 && n2 == 7000 && memcmp(a, b, n1 * 4) == 0,
		   "%s: same stream in chunks of 1 and 4096", name);
		free(b);
		b = gen(name, 1000, 7, 42, 2, 333, &n2);
		ok(memcmp(a, b, n1 * 4) == 0, "%s: deterministic for a seed", name);
		free(b);
		{
			int inrange = 1;

			for (uint64_t i = 0; i < n1; i++)
				inrange &= a[i] < 1000;
			ok(inrange, "%s: every page index is in range", name);
		}
		free(a);
	}

	/* random: tasks differ, seeds differ, roughly uniform (chi-square). */
	a = gen("random", 100, 1000, 7, 0, 4096, &n1);
	b = gen("random", 100, 1000, 7, 1, 4096, &n2);
	ok(memcmp(a, b, n1 * 4) != 0, "random: each task has its own stream");
	{
		double chi = 0, expect = n1 / 100.0;
		uint64_t cnt[100] = { 0 };

		for (uint64_t i = 0; i < n1; i++)
			cnt[a[i]]++;
		for (int i = 0; i < 100; i++)
			chi += (cnt[i] - expect) * (cnt[i] - expect) / expect;
		/* 99 degrees of freedom: P(chi2 > 160) < 1e-4. */
		ok(chi < 160, "random: uniform (chi2 = %.1f < 160 for 99 df)", chi);
	}
	free(a);
	free(b);

	/* chase: one cycle through all pages, the same for every task. */
	a = gen("chase", 1000, 2, 9, 0, 4096, &n1);
	b = gen("chase", 1000, 2, 9, 3, 4096, &n2);
	ok(memcmp(a, b, n1 * 4) == 0, "chase: every task walks the same chain");
	{
		char seen[1000] = { 0 };
		int cycle = a[0] == 0;

		for (int i = 0; i < 1000; i++) {
			cycle &= !seen[a[i]];
			seen[a[i]] = 1;
		}
		ok(cycle, "chase: a round visits each page exactly once, starting at page 0");
		ok(memcmp(a, a + 1000, 4000) == 0, "chase: every round repeats the cycle");
	}
	free(a);
	free(b);

	/* zipf: skewed, with the skew the theory predicts for theta 0.99. */
	a = gen("zipf", 10000, 20, 5, 0, 4096, &n1);
	{
		uint64_t *cnt = calloc(10000, sizeof(*cnt)), top = 0;

		for (uint64_t i = 0; i < n1; i++)
			cnt[a[i]]++;
		/* The 100 most frequent pages (1 %) should take about
		 * H(100, .99) / H(10000, .99) = 0.55 of the accesses. */
		for (int k = 0; k < 100; k++) {
			uint64_t best = 0;
			int bi = 0;

			for (int i = 0; i < 10000; i++)
				if (cnt[i] > best) {
					best = cnt[i];
					bi = i;
				}
			top += best;
			cnt[bi] = 0;
		}
		ok(top > 0.45 * n1 && top < 0.65 * n1, "zipf: top 1%% of pages take %.2f of accesses (0.45..0.65)",
		   (double)top / n1);
		free(cnt);
	}
	free(a);
	return done_testing();
}
