/* t_workload.c - the access-order generators: exact sequences where they are
 * defined, determinism for a seed, chunking invariance, and distribution checks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "workloads/fastpow.h"
#include "workloads/workload.h"

/* Generate the whole stream of (name, pages, rounds, seed, task) in chunks of `chunk`. */
static uint32_t *gen(const char *name, uint64_t pages, uint64_t rounds, uint64_t seed,
		     unsigned task, size_t chunk, uint64_t *n)
{
	struct wl_params p = { .pages = pages, .rounds = rounds, .seed = seed, .task = task,
			       .ntasks = 4 };
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

/* The zipf generator as it was before streams were made in blocks: one
 * rng_double() and one libm pow() per access, the page by 128-bit modulo
 * (workloads/zipf.c at 836f5cf, zipf_open's constants recomputed here). */
static void old_zipf(uint64_t pages, uint64_t seed, unsigned task, double theta, uint64_t n,
		     uint32_t *out)
{
	double zetan = 0, alpha = 1.0 / (1.0 - theta), eta, half_pow = 1 + pow(0.5, theta), zeta2;
	uint64_t m = pages < (1u << 20) ? pages : (1u << 20), mul, add;
	struct rng r, g;

	for (uint64_t i = 1; i <= m; i++)
		zetan += pow((double)i, -theta);
	if (pages != m) {
		double a = (double)m, b = (double)pages;

		zetan += (pow(b, 1 - theta) - pow(a, 1 - theta)) / (1 - theta);
		zetan += (pow(b, -theta) - pow(a, -theta)) / 2;
		zetan += (-theta * pow(b, -theta - 1) + theta * pow(a, -theta - 1)) / 12;
	}
	zeta2 = 1 + pow(2.0, -theta);
	eta = (1 - pow(2.0 / (double)pages, 1 - theta)) / (1 - zeta2 / zetan);
	rng_seed(&r, seed, 0x21bf);
	mul = (rng_next(&r) | 1) % pages;
	if (pages == 1)
		mul = 1;
	for (;;) {
		uint64_t a = mul, b = pages;

		while (b) {
			uint64_t t = a % b;

			a = b;
			b = t;
		}
		if (mul != 0 && a == 1)
			break;
		mul = (mul + 1) % pages;
	}
	add = rng_below(&r, pages);
	rng_seed(&g, seed, task);
	for (uint64_t i = 0; i < n; i++) {
		double u = rng_double(&g), uz = u * zetan;
		uint64_t rank;

		if (pages == 1 || uz < 1.0)
			rank = 0;
		else if (uz < half_pow)
			rank = 1;
		else
			rank = (uint64_t)((double)pages * pow(eta * u - eta + 1, alpha));
		if (rank >= pages)
			rank = pages - 1;
		out[i] = (uint32_t)(((__uint128_t)rank * mul + add) % pages);
	}
}

/* The random generator as it was: rng_below() per access. */
static void old_random(uint64_t pages, uint64_t seed, unsigned task, uint64_t n, uint32_t *out)
{
	struct rng g;

	rng_seed(&g, seed, task);
	for (uint64_t i = 0; i < n; i++)
		out[i] = (uint32_t)rng_below(&g, pages);
}

/* The workloads' parameters with --zipf-theta theta, as a command line gives them. */
static void theta_args(struct wl_args *a, double theta)
{
	char v[32], *argv[] = { "t_workload", "--zipf-theta", v };

	snprintf(v, sizeof(v), "%.17g", theta);
	if (opt_parse(workload_option_rows(), a, 3, argv, "t_workload", "", NULL, NULL))
		abort();
}

/* The first n accesses of (name, pages, rounds, seed, task, theta) in chunks of `chunk`, into out. */
static uint64_t gen_into(const char *name, uint64_t pages, uint64_t rounds, uint64_t seed,
			 unsigned task, double theta, size_t chunk, uint32_t *out, uint64_t n)
{
	struct wl_args a;
	struct wl_params p = { .pages = pages, .rounds = rounds, .seed = seed, .task = task,
			       .ntasks = task + 1, .args = &a };
	struct wl_stream s;
	uint64_t got = 0;
	size_t k;

	theta_args(&a, theta);
	if (wl_open(&s, workload_find(name), &p))
		return 0;
	while (got < n && (k = wl_fill(&s, out + got, chunk < n - got ? chunk : n - got)) > 0)
		got += k;
	wl_close(&s);
	return got;
}

/* The block generators give exactly the old per-access streams. */
static void same_as_old(void)
{
	static const uint64_t pages[] = { 2, 3, 69, 1000, 1024, 2048, 8192, 1000003, 3u << 20 };
	static const double thetas[] = { 0.99, 0.5, 0.01, 0.9999, 1.5, 10 };
	static const size_t chunks[] = { 1, 7, 512, 100000 };
	const uint64_t n = 200000;
	uint32_t *a = malloc(n * sizeof(*a)), *b = malloc(n * sizeof(*b));
	unsigned zbad = 0, zn = 0, rbad = 0, rn = 0;

	for (size_t pi = 0; pi < sizeof(pages) / sizeof(pages[0]); pi++) {
		uint64_t rounds = (n + pages[pi] - 1) / pages[pi];

		for (size_t ti = 0; ti < sizeof(thetas) / sizeof(thetas[0]); ti++) {
			uint64_t seed = 1 + pi * 31 + ti;

			old_zipf(pages[pi], seed, (unsigned)ti, thetas[ti], n, a);
			gen_into("zipf", pages[pi], rounds, seed, (unsigned)ti, thetas[ti],
				 chunks[(pi + ti) % 4], b, n);
			zbad += memcmp(a, b, n * sizeof(*a)) != 0;
			zn++;
		}
		old_random(pages[pi], 7 + pi, 2, n, a);
		gen_into("random", pages[pi], rounds, 7 + pi, 2, 0.99, chunks[pi % 4], b, n);
		rbad += memcmp(a, b, n * sizeof(*a)) != 0;
		rn++;
	}
	ok(zbad == 0, "zipf: the block generator equals the old per-access one on %u streams of %llu "
	   "(9 working sets up to 3 Mi pages, theta 0.01..10, chunks 1..100000)", zn - zbad,
	   (unsigned long long)n);
	ok(rbad == 0, "random: the block generator equals rng_below() per access on %u streams", rn - rbad);
	/* a non-power-of-two beyond 2^31: Lemire's rejection happens */
	old_random(0xfffffffbull, 3, 0, n, a);
	gen_into("random", 0xfffffffbull, 1, 3, 0, 0.99, 333, b, n);
	ok(memcmp(a, b, n * sizeof(*a)) == 0, "random: equal with 2^32-5 pages (rejections)");
	free(a);
	free(b);
}

/* fastpow stays within its stated relative error (fastpow.h). */
static void fastpow_bound(void)
{
	struct rng g;
	double worst = 0;

	fastpow_init();
	rng_seed(&g, 99, 0);
	for (int i = 0; i < 2000000; i++) {
		double x = i % 2 ? 1 - rng_double(&g) * 0.5 : exp2(rng_double(&g) * 40 - 20);
		double a = i % 3 ? 100 : (rng_double(&g) - 0.5) * 2 * FASTPOW_MAX_A;
		double want = pow(x, a), got = fastpow(x, a);

		if (fabs(a * log2(x)) > 1000 || want < 0x1p-1000)
			continue;
		if (fabs(got / want - 1) > worst)
			worst = fabs(got / want - 1);
	}
	ok(worst < FASTPOW_REL_ERROR, "fastpow: worst relative error %.2g < %.0g on 2 million inputs",
	   worst, FASTPOW_REL_ERROR);
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
		struct wl_params p1 = { .pages = 1, .rounds = 8, .seed = 3, .ntasks = 1 };
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
	same_as_old();
	fastpow_bound();
	return done_testing();
}
