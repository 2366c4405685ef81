/*
 * t_mde.c - the decision rule (significant and the ratio of medians
 * beyond the bound) and the minimum detectable effect, against synthetic
 * data with a known truth (seeded).
 */
#include <math.h>
#include <stdio.h>
#include "lib/rng.h"
#include "stats/stats.h"
#include "tap.h"

/* A normal deviate (Box-Muller) from r. */
static double gauss(struct rng *r)
{
	double u1 = rng_double(r), u2 = rng_double(r);

	if (u1 < 1e-300)
		u1 = 1e-300;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

static void noise(struct rng *r, double *x, size_t n, double mean, double cv)
{
	for (size_t i = 0; i < n; i++)
		x[i] = mean * (1 + cv * gauss(r));
}

/* One cell through MWU, the bootstrap and the rule (q = p), higher is better. */
static enum verdict decide_hb(const double *b, size_t nb, const double *c, size_t nc, double floor)
{
	struct decide_params dp;
	struct ratio_ci ci;
	struct mwu m;
	char why[96];

	stats_decide_defaults(&dp);
	stats_mwu(b, nb, c, nc, &m);
	stats_ratio_ci(b, nb, c, nc, 2000, STATS_BOOT_SEED, STATS_BOOT_LEVEL, &ci);
	return stats_decide(&dp, nb, nc, m.p, m.p, &ci, floor, 1, why, sizeof(why));
}

int main(void)
{
	double b[40], c[40], m;
	struct rng r;
	int hit = 0, alarms = 0, trials = 400;

	m = stats_mde(0.01, 10, 10, 0.01, 0.8);
	ok(fabs(m - 1.0233 * (2.5758 + 0.8416) * 0.01 * sqrt(0.2)) < 2e-4,
	   "MDE of 10 vs 10 runs at 1%% noise, alpha 0.01, power 0.8: %.4f", m);
	ok(isinf(stats_mde(0.01, 3, 3, 0.01, 0.8)), "3 vs 3 runs cannot reach alpha 0.01: no MDE");
	ok(stats_mde(0.01, 40, 40, 0.01, 0.8) < stats_mde(0.01, 10, 10, 0.01, 0.8) &&
	   stats_mde(0.02, 10, 10, 0.01, 0.8) > stats_mde(0.01, 10, 10, 0.01, 0.8),
	   "more runs shrink the MDE, more noise widens it");

	rng_seed(&r, 7, 0);
	noise(&r, b, 40, 100, 0.05);
	noise(&r, c, 40, 100, 0.05);
	m = stats_robust_cv(b, 40, c, 40);
	ok(m > 0.035 && m < 0.065, "robust CV of 5%% noise reads %.4f", m);
	for (int i = 0; i < 40; i++)
		c[i] *= 2;
	ok(fabs(stats_robust_cv(b, 40, c, 40) - m) < 1e-12, "a shift between the sides is not noise");

	/* At a shift equal to the MDE the rule should fire in about 80 % of trials. */
	m = stats_mde(0.03, 10, 10, 0.01, 0.8);
	for (int t = 0; t < trials; t++) {
		noise(&r, b, 10, 1000, 0.03);
		noise(&r, c, 10, 1000 * (1 - m), 0.03);
		hit += decide_hb(b, 10, c, 10, NAN) == V_REGRESSION;
		noise(&r, c, 10, 1000, 0.03);
		alarms += decide_hb(b, 10, c, 10, NAN) != V_NO_CHANGE;
	}
	printf("# 10 vs 10 runs at 3%% noise: MDE %.1f%%; a drop of the MDE caught in %d of %d, "
	       "pure noise alarmed in %d of %d\n", m * 100, hit, trials, alarms, trials);
	ok(hit >= trials * 65 / 100 && hit <= trials * 95 / 100,
	   "a drop of exactly the MDE is caught in 65..95 %% of trials (%d/%d)", hit, trials);
	ok(alarms <= trials * 2 / 100, "pure noise: at most 2 %% alarms (%d/%d)", alarms, trials);

	/* The case: 5 vs 5 runs, a 40 % drop with a wide CI, p about 0.008. */
	{
		double base[5] = { 100, 80, 120, 95, 110 }, cand[5] = { 60, 50, 72, 58, 66 };

		ok(decide_hb(base, 5, cand, 5, 0.186) == V_REGRESSION,
		   "a 40 %% drop, significant, beyond an 18.6 %% floor: regression, CI or not");
		ok(decide_hb(base, 5, cand, 5, 0.45) == V_NO_CHANGE,
		   "the same drop inside a 45 %% floor: no change");
	}
	return done_testing();
}
