/*
 * t_exact.c - compare's pieces for the vendor: which metrics a
 * deterministic backend gives exactly, the exact verdict against the
 * threshold, and --ignore-axis names (sweep axes to cell keys, lists that
 * accumulate, each key once).
 */
#include <math.h>
#include <string.h>
#include "compare/compare.h"
#include "tap.h"

static void test_clock_metrics(void)
{
	const char *clock[] = { "model-wall-s", "model-cpu-s", "model-accesses-per-s", "wall-s",
				"accesses-per-cpu-s-best", "window-s-spread", "task-clock" };
	const char *count[] = { "dTLB-load-misses", "model-l2-misses", "est-translation-s",
				"est-translation-ns-per-access", "dtlb-misses-per-round", "pte-bytes",
				"model-period-cycles", "windows" };

	for (size_t i = 0; i < sizeof(clock) / sizeof(clock[0]); i++)
		ok(cmp_clock_metric(clock[i]), "'%s' is read from a clock", clock[i]);
	for (size_t i = 0; i < sizeof(count) / sizeof(count[0]); i++)
		ok(!cmp_clock_metric(count[i]), "'%s' is not", count[i]);
}

/* The exact verdict of b -> c at threshold t. */
static enum verdict exact(double b, double c, double t, int higher_better, struct cmp_row *r)
{
	memset(r, 0, sizeof(*r));
	r->threshold = t;
	r->higher_better = higher_better;
	cmp_exact_fill(r, b, c);
	cmp_decide_exact(r);
	return r->v;
}

static void test_exact_verdict(void)
{
	struct cmp_row r;

	is_u64(exact(4096, 8192, 0.02, 0, &r), V_REGRESSION, "twice the misses: a regression");
	ok(r.ci.ratio == 2 && r.ci.lo == 2 && r.ci.hi == 2, "the ratio is exact and the CI collapses onto it");
	ok(isnan(r.mwu.p) && isnan(r.q) && r.floor == 0, "no test, no q, floor 0");
	ok(r.mde == 0.02, "the smallest change it resolves is the threshold");
	is_u64(exact(8192, 4096, 0.02, 0, &r), V_IMPROVEMENT, "half the misses: an improvement");
	is_u64(exact(1000, 1010, 0.02, 0, &r), V_NO_CHANGE, "1 % more, threshold 2 %: no change");
	is_u64(exact(1000, 1010, 0, 0, &r), V_REGRESSION, "1 % more, threshold 0: a regression");
	is_u64(exact(1000, 1000, 0, 0, &r), V_NO_CHANGE, "identical at threshold 0: no change");
	ok(strcmp(r.why, "exact: identical") == 0, "and says identical");
	is_u64(exact(100, 50, 0.02, 1, &r), V_REGRESSION, "half when higher is better: a regression");
	is_u64(exact(0, 0, 0.02, 0, &r), V_NO_CHANGE, "0 against 0: no change");
	is_u64(exact(0, 5, 0.02, 0, &r), V_REGRESSION, "0 to 5: a regression (ratio infinite)");
}

static void test_ignore_names(void)
{
	struct cmp c = { 0 };

	ok(cmp_ignore_add(&c, "tlb") == 0 && cmp_ignore_add(&c, "machine,layout,tlb") == 0,
	   "two --ignore-axis values, one a list, are added");
	is_u64(c.nignore, 5, "tlb, backend, page, align, backing: each once");
	ok(c.nignore == 5 && strcmp(c.ignore[0], "tlb") == 0 && strcmp(c.ignore[1], "backend") == 0 &&
	   strcmp(c.ignore[2], "page") == 0 && strcmp(c.ignore[4], "backing") == 0,
	   "the sweep's axes name their cell keys");
	cmp_release(&c);
}

int main(void)
{
	test_clock_metrics();
	test_exact_verdict();
	test_ignore_names();
	return done_testing();
}
