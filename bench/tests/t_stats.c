/*
 * t_stats.c - the statistics library against hand-computed cases and
 * synthetic data with a known truth (seeded, so every run is the same).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "lib/rng.h"
#include "stats/stats.h"
#include "tap.h"

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol))


/* The whole two-sample pipeline for one cell with q = p (a single comparison). */
static enum verdict one_cell(const double *b, size_t nb, const double *c, size_t nc,
			     double floor, int higher_better, struct ratio_ci *ci, double *p)
{
	struct decide_params dp;
	struct mwu m;
	char why[96];

	stats_decide_defaults(&dp);
	stats_mwu(b, nb, c, nc, &m);
	stats_ratio_ci(b, nb, c, nc, STATS_BOOT_RESAMPLES, STATS_BOOT_SEED, STATS_BOOT_LEVEL, ci);
	*p = m.p;
	return stats_decide(&dp, nb, nc, m.p, m.p, ci, floor, higher_better, why, sizeof(why));
}

static void test_descriptive(void)
{
	double a[] = { 3, 1, 2 }, b[] = { 1, 2, 3, 4 }, c[] = { 1, 1, 2, 2, 4, 6, 9 };
	double d[] = { 10, 10.1, 9.9, 10, 10.05, 9.95, 50 };
	unsigned char fl[7];

	ok(stats_median(a, 3) == 2, "median of odd n");
	ok(stats_median(b, 4) == 2.5, "median of even n");
	ok(NEAR(stats_quantile(b, 4, 0.25), 1.75, 1e-12), "quartile, linear interpolation");
	ok(stats_mad(c, 7) == 1, "MAD of {1,1,2,2,4,6,9} is 1");
	ok(isnan(stats_median(a, 0)), "median of nothing is NAN");
	ok(stats_outliers(d, 7, fl) == 1 && fl[6] == 1 && fl[0] == 0,
	   "hyperfine rule flags only the 50 in a sample near 10");
}

static void test_mwu_exact(void)
{
	double a1[] = { 1, 2, 3 }, b1[] = { 4, 5, 6 };
	double a2[] = { 1, 2, 4 }, b2[] = { 3, 5, 6 };
	double a3[] = { 1, 3, 5, 7 }, b3[] = { 2, 4, 6, 8 };
	double a4[] = { 11, 12, 13, 14 }, b4[] = { 1, 2, 3, 4 };
	double a5[] = { 1, 1, 2 }, b5[] = { 2, 3, 3 };
	struct mwu m;

	stats_mwu(a1, 3, b1, 3, &m);
	ok(m.exact && m.u == 0 && NEAR(m.p, 2.0 / 20, 1e-12), "3 vs 3 separated: U=0, p=2/20 exactly");
	stats_mwu(a2, 3, b2, 3, &m);
	ok(m.exact && m.u == 1 && NEAR(m.p, 4.0 / 20, 1e-12), "3 vs 3 one swap: U=1, p=4/20");
	/* [8 choose 4]_q = 1,1,2,3,5,5,7,7,8,...: P(U <= 6) = 24/70 */
	stats_mwu(a3, 4, b3, 4, &m);
	ok(m.exact && m.u == 6 && NEAR(m.p, 48.0 / 70, 1e-12), "4 vs 4 interleaved: U=6, p=48/70");
	stats_mwu(a4, 4, b4, 4, &m);
	ok(m.u == 16 && NEAR(m.p, 2.0 / 70, 1e-12), "4 vs 4 separated the other way: U=16, p=2/70");
	/* ranks 1.5,1.5,3.5 | 3.5,5.5,5.5: U=0.5, sigma^2 = 9/12 (7 - 18/30) = 4.8 */
	stats_mwu(a5, 3, b5, 3, &m);
	ok(!m.exact && m.ties && m.u == 0.5 && NEAR(m.p, 0.1101489241859, 1e-9),
	   "ties: normal approximation with tie and continuity correction (p %.6f)", m.p);
	ok(NEAR(stats_mwu_min_p(3, 3), 0.1, 1e-12), "smallest p at 3 vs 3 is 0.1");
	ok(NEAR(stats_mwu_min_p(5, 5), 2.0 / 252, 1e-12), "smallest p at 5 vs 5 is 2/252");
	ok(stats_mwu_min_p(4, 5) > STATS_ALPHA && stats_mwu_min_p(5, 5) < STATS_ALPHA,
	   "alpha 0.01 needs 5 runs a side (4 vs 5 cannot reach it)");
}

static void test_mwu_large(void)
{
	double a[40], b[40];
	struct rng r;
	struct mwu m;

	rng_seed(&r, 7, 0);
	rng_noisy(&r, a, 40, 100, 0.01);
	rng_noisy(&r, b, 40, 100, 0.01);
	for (int i = 0; i < 40; i++)	/* shift b far up: every a below every b */
		b[i] += 10;
	stats_mwu(a, 40, b, 40, &m);
	ok(!m.exact && m.u == 0 && m.p < 1e-12, "40 vs 40 separated: normal approximation, p %.3g", m.p);
	for (int i = 0; i < 40; i++)
		a[i] = b[i] = 5;
	stats_mwu(a, 40, b, 40, &m);
	ok(m.p == 1, "all values equal: p = 1");
}

/* Exact and normal p agree on a larger sample without ties (both two-sided). */
static void test_mwu_agree(void)
{
	double a[20], b[20], worst = 0;
	struct rng r;
	struct mwu m;

	rng_seed(&r, 5, 0);
	for (int t = 0; t < 50; t++) {
		double z, pn;

		rng_noisy(&r, a, 20, 100, 0.01);
		rng_noisy(&r, b, 20, 100.3, 0.01);
		stats_mwu(a, 20, b, 20, &m);
		z = (fabs(m.u - 200) - 0.5) / sqrt(20.0 * 20 * 41 / 12);
		pn = erfc((z > 0 ? z : 0) / M_SQRT2);
		if (fabs(m.p - pn) > worst)
			worst = fabs(m.p - pn);
		if (!m.exact)
			worst = 1;
	}
	ok(worst < 0.005, "20 vs 20: exact p within 0.005 of the normal approximation (worst %.4f)",
	   worst);
}

static void test_t(void)
{
	double a[] = { 5, 5, 5 }, b[] = { 6, 6, 6 }, c[] = { 1, 2, 3, 4, 5 }, d[] = { 2, 4, 6, 8, 10 };

	ok(NEAR(stats_ibeta(1, 1, 0.3), 0.3, 1e-12), "I_x(1,1) = x");
	ok(NEAR(stats_ibeta(3, 1, 0.5), 0.125, 1e-12), "I_x(3,1) = x^3");
	ok(NEAR(stats_ibeta(4.5, 4.5, 0.5), 0.5, 1e-12), "I_0.5(a,a) = 1/2");
	/* Student t with 1 degree of freedom is Cauchy: p(|T| > 2) = 1 - 2 atan(2)/pi */
	ok(NEAR(stats_ibeta(0.5, 0.5, 1 / (1 + 4.0)), 0.2951672353008665, 1e-10),
	   "t(1) two-sided tail at t=2");
	ok(stats_welch_p(a, 3, b, 3) == 0 && stats_welch_p(a, 3, a, 3) == 1,
	   "Welch with zero variance: 0 when means differ, 1 when equal");
	/* t = -1.8974, df = 5.882; the tail integrated numerically: 0.107531 */
	ok(NEAR(stats_welch_p(c, 5, d, 5), 0.107531, 1e-5), "Welch {1..5} vs {2,4,..,10}: p %.6f",
	   stats_welch_p(c, 5, d, 5));
}

static void test_bh(void)
{
	double p1[] = { 0.01, 0.04, 0.03, 0.005, NAN }, q1[5];
	double p2[] = { 0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205 }, q2[8];
	double w2[] = { 0.008, 0.032, 0.0672, 0.0672, 0.0672, 0.08, 0.0845714285714, 0.205 };
	int good = 1;

	stats_bh(p1, 5, q1);
	ok(NEAR(q1[0], 0.02, 1e-12) && NEAR(q1[1], 0.04, 1e-12) && NEAR(q1[2], 0.04, 1e-12) &&
	   NEAR(q1[3], 0.02, 1e-12) && isnan(q1[4]), "BH on 4 p-values (NAN untested, not counted)");
	stats_bh(p2, 8, q2);
	for (int i = 0; i < 8; i++)
		good &= NEAR(q2[i], w2[i], 1e-9);
	ok(good, "BH step-up keeps q monotone (8 hand-computed q-values)");
}

static void test_bootstrap(void)
{
	double b[10], c[10];
	struct ratio_ci ci, ci2;
	struct rng r;
	int covered = 0, trials = 200;

	rng_seed(&r, 11, 0);
	rng_noisy(&r, b, 10, 1000, 0.01);
	rng_noisy(&r, c, 10, 1000, 0.01);
	stats_ratio_ci(b, 10, c, 10, STATS_BOOT_RESAMPLES, STATS_BOOT_SEED, 0.95, &ci);
	stats_ratio_ci(b, 10, c, 10, STATS_BOOT_RESAMPLES, STATS_BOOT_SEED, 0.95, &ci2);
	ok(ci.lo == ci2.lo && ci.hi == ci2.hi, "bootstrap with a fixed seed is reproducible");
	ok(ci.lo <= ci.ratio && ci.ratio <= ci.hi, "point estimate inside its CI [%.4f, %.4f]",
	   ci.lo, ci.hi);
	for (int t = 0; t < trials; t++) {
		rng_noisy(&r, b, 10, 1000, 0.02);
		rng_noisy(&r, c, 10, 1050, 0.02);
		stats_ratio_ci(b, 10, c, 10, 2000, STATS_BOOT_SEED + t, 0.95, &ci);
		covered += ci.lo <= 1.05 && 1.05 <= ci.hi;
	}
	printf("# bootstrap 95%% CI covered the true ratio 1.05 in %d of %d trials\n", covered, trials);
	ok(covered >= trials * 85 / 100, "CI covers the true ratio in >= 85%% of trials (%d/%d)",
	   covered, trials);
	b[0] = b[1] = b[2] = 0;
	c[0] = c[1] = c[2] = 0;
	stats_ratio_ci(b, 3, c, 3, 100, 1, 0.95, &ci);
	ok(ci.ratio == 1 && ci.lo == 1 && ci.hi == 1, "0/0 medians count as ratio 1");
}

static void test_decisions(void)
{
	double b[10], c[10], p;
	struct ratio_ci ci;
	struct rng r;
	int alarms = 0, rawsig = 0, found = 0, impr = 0, hb = 0, trials = 500;

	rng_seed(&r, 2026, 0);
	for (int t = 0; t < trials; t++) {
		enum verdict v;

		rng_noisy(&r, b, 10, 1000, 0.01);
		rng_noisy(&r, c, 10, 1000, 0.01);
		v = one_cell(b, 10, c, 10, NAN, 0, &ci, &p);
		alarms += v == V_REGRESSION || v == V_IMPROVEMENT;
		rawsig += p <= STATS_ALPHA;
	}
	printf("# pure noise, %d trials of 10 vs 10 at 1%% CV: %d alarms, %d with p <= alpha\n",
	       trials, alarms, rawsig);
	ok(alarms <= STATS_ALPHA * trials, "no alarm on pure noise: %d of %d <= alpha", alarms, trials);
	ok(rawsig <= 2 * STATS_ALPHA * trials + 2, "MWU size near alpha on pure noise (%d of %d)",
	   rawsig, trials);

	for (int t = 0; t < 100; t++) {
		rng_noisy(&r, b, 10, 1000, 0.01);
		rng_noisy(&r, c, 10, 1050, 0.01);
		found += one_cell(b, 10, c, 10, NAN, 0, &ci, &p) == V_REGRESSION;
		impr += one_cell(c, 10, b, 10, NAN, 0, &ci, &p) == V_IMPROVEMENT;
		hb += one_cell(b, 10, c, 10, NAN, 1, &ci, &p) == V_IMPROVEMENT;
	}
	printf("# 5%% shift, 10 vs 10 at 1%% CV: detected in %d of 100 trials\n", found);
	ok(found >= 95, "a 5%% shift with 10 runs a side is a regression (%d/100)", found);
	ok(impr >= 95, "the same shift downwards is an improvement (%d/100)", impr);
	ok(hb >= 95, "--higher-better turns the upward shift into an improvement (%d/100)", hb);

	rng_noisy(&r, b, 10, 1000, 0.01);
	rng_noisy(&r, c, 10, 1050, 0.01);
	ok(one_cell(b, 10, c, 10, 0.08, 0, &ci, &p) == V_NO_CHANGE,
	   "a 5%% shift inside an 8%% A/A noise floor is no change");
	ok(one_cell(b, 3, c, 3, NAN, 0, &ci, &p) == V_INSUFFICIENT, "3 vs 3 runs: insufficient");
	ok(one_cell(b, 2, c, 10, NAN, 0, &ci, &p) == V_INSUFFICIENT, "2 runs on a side: insufficient");
	rng_noisy(&r, c, 10, 1010, 0.001);
	rng_noisy(&r, b, 10, 1000, 0.001);
	ok(one_cell(b, 10, c, 10, NAN, 0, &ci, &p) == V_NO_CHANGE && p < 1e-4,
	   "a significant 1%% shift stays under the 2%% threshold");
}

/* Many cells x metrics of pure noise, BH across them: how often does a comparison alarm? */
static void test_many_cells(void)
{
	enum { CELLS = 40, N = 10, TRIALS = 40 };
	static double b[CELLS][N], c[CELLS][N];
	double p[CELLS], q[CELLS];
	struct ratio_ci ci[CELLS];
	struct decide_params dp;
	struct mwu m;
	struct rng r;
	int bad_trials = 0;
	char why[96];

	stats_decide_defaults(&dp);
	rng_seed(&r, 99, 0);
	for (int t = 0; t < TRIALS; t++) {
		int any = 0;

		for (int k = 0; k < CELLS; k++) {
			rng_noisy(&r, b[k], N, 500, 0.02);
			rng_noisy(&r, c[k], N, 500, 0.02);
			stats_mwu(b[k], N, c[k], N, &m);
			p[k] = m.p;
			stats_ratio_ci(b[k], N, c[k], N, 1000, STATS_BOOT_SEED, 0.95, &ci[k]);
		}
		stats_bh(p, CELLS, q);
		for (int k = 0; k < CELLS; k++)
			any |= stats_decide(&dp, N, N, p[k], q[k], &ci[k], NAN, 0, why,
					    sizeof(why)) != V_NO_CHANGE;
		bad_trials += any;
	}
	printf("# %d comparisons of %d noise cells each (BH): %d raised any alarm\n",
	       TRIALS, CELLS, bad_trials);
	ok(bad_trials <= STATS_FDR * TRIALS, "BH keeps whole-comparison false alarms <= q (%d/%d)",
	   bad_trials, TRIALS);
}

static void test_change_points(void)
{
	enum { NIGHTS = 60, AT = 40, TRIALS = 50, NOISE_TRIALS = 200 };
	double x[NIGHTS], z[NIGHTS];
	struct change_point cp[8];
	struct rng r;
	int hits = 0, exact = 0, false_series = 0, false_any = 0, n;

	rng_seed(&r, 4242, 0);
	for (int t = 0; t < TRIALS; t++) {
		int hit = 0;

		rng_noisy(&r, x, AT, 1000, 0.01);
		rng_noisy(&r, x + AT, NIGHTS - AT, 1050, 0.01);
		n = stats_change_points(x, NIGHTS, STATS_CP_WINDOW, STATS_CP_PVALUE, STATS_CP_MIN_REL,
					cp, 8);
		for (int i = 0; i < n; i++) {
			hit |= cp[i].index + 1 >= AT && cp[i].index <= AT + 1;
			exact += cp[i].index == AT;
		}
		hits += hit;
	}
	printf("# change point at night %d (+5%%, 1%% CV): found +-1 in %d of %d series, exactly in %d\n",
	       AT, hits, TRIALS, exact);
	ok(hits == TRIALS, "a 5%% step at night %d is found at that night +-1 (%d/%d)", AT, hits,
	   TRIALS);

	for (int t = 0; t < NOISE_TRIALS; t++) {
		rng_noisy(&r, x, NIGHTS, 1000, 0.01);
		n = stats_change_points(x, NIGHTS, STATS_CP_WINDOW, STATS_CP_PVALUE, 0, cp, 8);
		false_any += n > 0;
		n = stats_change_points(x, NIGHTS, STATS_CP_WINDOW, STATS_CP_PVALUE, STATS_CP_MIN_REL,
					cp, 8);
		false_series += n > 0;
	}
	printf("# pure noise, %d series of %d nights: %d with a change point by the t-test alone, "
	       "%d with the %g%% magnitude\n", NOISE_TRIALS, NIGHTS, false_any, false_series,
	       STATS_CP_MIN_REL * 100);
	ok(false_any <= NOISE_TRIALS / 10, "t-test alone: spurious points in <= 10%% of noise series (%d/%d)",
	   false_any, NOISE_TRIALS);
	ok(false_series <= NOISE_TRIALS / 100, "with the magnitude: <= 1%% of noise series (%d/%d)",
	   false_series, NOISE_TRIALS);

	for (int i = 0; i < NIGHTS; i++)	/* deterministic metric, two steps */
		x[i] = i < 20 ? 4096 : i < 45 ? 8192 : 4096;
	n = stats_change_points(x, NIGHTS, STATS_CP_WINDOW, STATS_CP_PVALUE, STATS_CP_MIN_REL, cp, 8);
	ok(n == 2 && cp[0].index == 20 && cp[1].index == 45 && cp[0].mean_before == 4096 &&
	   cp[0].mean_after == 8192, "a constant metric with two steps: both found exactly");

	rng_noisy(&r, x, NIGHTS, 1000, 0.01);
	x[50] = 1200;
	stats_zscores(x, NIGHTS, STATS_Z_LOOKBACK, STATS_Z_MIN_PRIOR, z);
	n = 0;
	for (int i = 0; i < NIGHTS; i++)
		n += fabs(z[i]) >= STATS_Z_LIMIT;
	ok(isnan(z[5]) && fabs(z[50]) >= STATS_Z_LIMIT && n == 1,
	   "lookback z-score alarms on the one 20%% spike only (z %.1f)", z[50]);
	for (int i = 0; i < NIGHTS; i++)
		x[i] = i == 30 ? 4097 : 4096;
	stats_zscores(x, NIGHTS, STATS_Z_LOOKBACK, STATS_Z_MIN_PRIOR, z);
	ok(z[29] == 0 && isinf(z[30]) && z[30] > 0, "a constant history: z 0, then +inf on a change");
}

/* Groups of RUNS runs each, group k's runs at g = k; noise cv around 1000. */
static void grouped(struct rng *r, double *x, size_t *g, int groups, int runs, double cv)
{
	for (int k = 0; k < groups; k++) {
		rng_noisy(r, x + k * runs, (size_t)runs, 1000, cv);
		for (int j = 0; j < runs; j++)
			g[k * runs + j] = (size_t)k;
	}
}

static void test_pulses(void)
{
	enum { GROUPS = 8, RUNS = 6, AT = 4, TRIALS = 100, NOISE_TRIALS = 1000 };
	double x[GROUPS * RUNS], worst = 0;
	size_t g[GROUPS * RUNS], n = GROUPS * RUNS;
	struct pulse pu[GROUPS];
	struct rng r;
	int found = 0, loose = 0, strict = 0, k;

	rng_seed(&r, 1776, 0);
	for (int t = 0; t < TRIALS; t++) {	/* one group 10 % higher, 1 % noise */
		grouped(&r, x, g, GROUPS, RUNS, 0.01);
		for (int j = 0; j < RUNS; j++)
			x[AT * RUNS + j] *= 1.10;
		k = stats_pulses(x, g, n, STATS_CP_PVALUE, STATS_CP_MIN_REL, STATS_MIN_RUNS, pu, GROUPS);
		if (k == 1 && pu[0].index == AT && !pu[0].insufficient && pu[0].prev == AT - 1 &&
		    pu[0].next == AT + 1 && pu[0].tested == GROUPS - 2) {
			found++;
			worst = fmax(worst, fabs(pu[0].mean / pu[0].mean_prev - 1.10));
		}
	}
	printf("# a +10%% pulse in group %d (6 runs a group, 1%% CV): found alone in %d of %d series, "
	       "size within %.3f of 0.10\n", AT, found, TRIALS, worst);
	ok(found == TRIALS, "a 10%% one-group pulse is found, at its group, alone (%d/%d)", found, TRIALS);
	/* the mean of 6 runs of 1 % noise is within 4.5 sigma = 1.8 % of its truth, either group */
	ok(worst < 0.03, "its size is the pulse's (+10%%) within the noise of the means (%.3f)", worst);

	for (int t = 0; t < NOISE_TRIALS; t++) {
		grouped(&r, x, g, GROUPS, RUNS, 0.01);
		loose += stats_pulses(x, g, n, 0.05, 0, STATS_MIN_RUNS, pu, GROUPS) > 0;
		strict += stats_pulses(x, g, n, STATS_CP_PVALUE, STATS_CP_MIN_REL, STATS_MIN_RUNS,
				       pu, GROUPS) > 0;
	}
	printf("# pure noise, %d series of %d groups: %d with a pulse at p 0.05 (Holm), %d at the "
	       "defaults\n", NOISE_TRIALS, GROUPS, loose, strict);
	ok(loose <= NOISE_TRIALS / 20, "Holm holds a noise series' chance of any pulse to p 0.05 (%d/%d)",
	   loose, NOISE_TRIALS);
	ok(strict == 0, "at the defaults no noise series has a pulse (%d/%d)", strict, NOISE_TRIALS);

	grouped(&r, x, g, GROUPS, RUNS, 0.01);	/* a step of 10 % is no pulse */
	for (int i = AT * RUNS; i < (int)n; i++)
		x[i] *= 1.10;
	ok(stats_pulses(x, g, n, STATS_CP_PVALUE, STATS_CP_MIN_REL, STATS_MIN_RUNS, pu, GROUPS) == 0,
	   "a step is not a pulse: the group after it does not differ from the next");

	for (int i = 0; i < (int)n; i++)	/* an exact count: 3 runs a group, group 2 doubled */
		x[i] = 4096;
	for (int i = 0; i < 3 * GROUPS; i++)
		g[i] = (size_t)(i / 3);
	for (int j = 0; j < 3; j++)
		x[2 * 3 + j] = 8192;
	k = stats_pulses(x, g, 3 * GROUPS, STATS_CP_PVALUE, STATS_CP_MIN_REL, STATS_MIN_RUNS, pu, GROUPS);
	ok(k == 1 && pu[0].index == 2 && pu[0].p_holm == 0 && pu[0].mean == 8192 &&
	   pu[0].mean_prev == 4096 && pu[0].mean_next == 4096, "an exact pulse: found with p 0");

	/* group 2 with one run: as large, but insufficient, with no p; groups 1, 2
	 * and 3 (it and its neighbours) are not tested; the interior 4, 5, 6 are */
	n = 0;
	for (int k2 = 0; k2 < GROUPS; k2++)
		for (int j = 0; j < (k2 == 2 ? 1 : 3); j++) {
			g[n] = (size_t)k2;
			x[n++] = k2 == 2 ? 8192 : 4096;
		}
	k = stats_pulses(x, g, n, STATS_CP_PVALUE, STATS_CP_MIN_REL, STATS_MIN_RUNS, pu, GROUPS);
	ok(k == 1 && pu[0].index == 2 && pu[0].insufficient && pu[0].n == 1 && isnan(pu[0].p) &&
	   isnan(pu[0].p_holm) && pu[0].tested == GROUPS - 5,
	   "a pulse of one run: insufficient, no p, and not one of the groups tested");
}

int main(void)
{
	test_descriptive();
	test_mwu_exact();
	test_mwu_large();
	test_mwu_agree();
	test_t();
	test_bh();
	test_bootstrap();
	test_decisions();
	test_many_cells();
	test_change_points();
	test_pulses();
	return done_testing();
}
