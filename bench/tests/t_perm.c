/*
 * t_perm.c - what compare's --one-sided-noise rests on: the quantile by
 * selection against the sorted quantile, the permutation test against
 * the exact permutation p (every split enumerated), its false-alarm rate
 * on A/A data, the quantile ratio's CI and floor, and the MDE from a
 * standard error. Seeded: every run gives the same numbers.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "lib/rng.h"
#include "stats/noise.h"
#include "stats/stats.h"
#include "tap.h"

#define NEAR_MDE(a, b) (fabs((a) - (b)) <= 1e-3 * (b))

static struct rng rng;

/* Selection agrees with sorting for every q on a grid, sizes 1 to 12, ties included. */
static void test_select(void)
{
	int bad = 0;

	rng_seed(&rng, 1, 0);
	for (size_t n = 1; n <= 12; n++)
		for (int q100 = 0; q100 <= 100; q100 += 5) {
			double x[12], v[12], q = q100 / 100.0;

			for (size_t i = 0; i < n; i++)
				x[i] = v[i] = (double)rng_below(&rng, 5);	/* ties on purpose */
			bad += stats_select_quantile(v, n, q) != stats_quantile(x, n, q);
		}
	is_u64(bad, 0, "stats_select_quantile equals stats_quantile (R type 7) for n 1-12, q 0-1");
	ok(isnan(stats_select_quantile(NULL, 0, 0.5)), "no values: NAN");
}

/* |Q_q(b) - Q_q(a)| where a = x[mask bits set], b = the rest. */
static double split_stat(const double *x, size_t n, unsigned mask, double q)
{
	double a[16], b[16];
	size_t na = 0, nb = 0;

	for (size_t i = 0; i < n; i++) {
		if (mask & (1u << i))
			a[na++] = x[i];
		else
			b[nb++] = x[i];
	}
	return fabs(stats_quantile(b, nb, q) - stats_quantile(a, na, q));
}

/* The exact permutation p: the share of all C(n, n1) splits whose statistic reaches the observed. */
static double exact_p(const double *x, size_t n1, size_t n, double q)
{
	unsigned obs_mask = (1u << n1) - 1, total = 0, reach = 0;
	double obs = split_stat(x, n, obs_mask, q);

	for (unsigned m = 0; m < (1u << n); m++) {
		if ((size_t)__builtin_popcount(m) != n1)
			continue;
		total++;
		reach += split_stat(x, n, m, q) >= obs - 1e-12 * fabs(obs);
	}
	return (double)reach / total;
}

/* The Monte Carlo p lies within 4 standard errors of the exact one. */
static void test_perm_exact(void)
{
	const double qs[] = { 0.5, 0.9, 0.1 };

	rng_seed(&rng, 2, 0);
	for (int t = 0; t < 6; t++) {
		double x[13], p, e, se;
		size_t n1 = 5 + t % 2, n = 12 + t % 2;
		double q = qs[t % 3], shift = 0.15 * t;

		for (size_t i = 0; i < n; i++)
			x[i] = 1 + 0.1 * rng_normal(&rng) + (i >= n1 ? shift : 0);
		e = exact_p(x, n1, n, q);
		stats_perm_quantile(x, n1, x + n1, n - n1, q, STATS_PERM_RESAMPLES, 7, &p);
		se = sqrt(e * (1 - e) / STATS_PERM_RESAMPLES) + 1.0 / STATS_PERM_RESAMPLES;
		ok(fabs(p - e) <= 4 * se, "%zu + %zu, q %.1f, shift %.2f: p %.4f, exact %.4f", n1, n - n1, q,
		   shift, p, e);
	}
}

/* Under no change (both sides from one distribution with one-sided noise), p <= 0.05 about 5 % of the time. */
static void test_perm_size(void)
{
	int low = 0, trials = 300;

	rng_seed(&rng, 3, 0);
	for (int t = 0; t < trials; t++) {
		double a[16], b[16], p;

		for (int i = 0; i < 16; i++) {
			a[i] = (1 + 0.005 * rng_normal(&rng)) * (rng_double(&rng) < 0.4 ? 0.5 + 0.4 * rng_double(&rng) : 1);
			b[i] = (1 + 0.005 * rng_normal(&rng)) * (rng_double(&rng) < 0.4 ? 0.5 + 0.4 * rng_double(&rng) : 1);
		}
		stats_perm_quantile(a, 16, b, 16, 0.9, 999, 100 + t, &p);
		low += p <= 0.05;
	}
	/* binomial(300, 0.05): mean 15, sd 3.8 */
	ok(low >= 4 && low <= 28, "A/A with one-sided noise: p <= 0.05 in %d of %d (about 15 expected)", low,
	   trials);
}

/*
 * The case it exists for: a 10 % slower candidate, and on both sides
 * 6 of 16 runs slowed by the machine by 10-50 %. The 90th percentiles
 * see the 10 % (p near the 2 / C(32, 16) x 310k splits that leave a side
 * at most one fast run: about 0.002); the medians' A/A floor is wide.
 */
static void test_one_sided(void)
{
	double a[16], b[16], p, fl, flm;
	struct ratio_ci ci;
	struct noise_rng nr;

	rng_seed(&rng, 4, 0);
	for (int i = 0; i < 16; i++) {
		int slowed = i % 3 == 0;	/* 6 of 16 */

		a[i] = (1 + 0.003 * rng_normal(&rng)) * (slowed ? 0.5 + 0.4 * rng_double(&rng) : 1);
		b[i] = 0.9 * (1 + 0.003 * rng_normal(&rng)) * (slowed ? 0.5 + 0.4 * rng_double(&rng) : 1);
	}
	stats_perm_quantile(a, 16, b, 16, 0.9, STATS_PERM_RESAMPLES, 5, &p);
	stats_qratio_ci(a, 16, b, 16, 0.9, STATS_BOOT_RESAMPLES, STATS_BOOT_SEED, STATS_BOOT_LEVEL, &ci);
	ok(p <= 0.01, "10 %% slower, 6 of 16 runs slowed: permutation p on the 90th percentile %.5f", p);
	ok(ci.ratio > 0.88 && ci.ratio < 0.92 && ci.lo < ci.ratio && ci.hi > ci.ratio,
	   "its ratio %.4f [%.4f, %.4f] is the 10 %%", ci.ratio, ci.lo, ci.hi);
	noise_rng_seed(&nr, 9);
	stats_noise_floor_q(a, 16, 0.9, 200, &nr, &fl);
	noise_rng_seed(&nr, 9);
	stats_noise_floor(a, 16, 200, &nr, &flm);
	ok(fl < 0.02 && flm > 0.05, "the A/A floor of the 90th percentile %.4f, of the median %.4f", fl, flm);
}

/*
 * The quantile ratio's bootstrap spread (se_log, which the MDE uses)
 * against the true spread of the estimate over 200 data sets (16 + 16
 * normal runs, 1 % noise): within 25 %.
 */
static void test_se(void)
{
	double est[200], se = 0, m = 0, v = 0;

	rng_seed(&rng, 6, 0);
	for (int t = 0; t < 200; t++) {
		double b[16], c[16];
		struct ratio_ci ci;

		for (int i = 0; i < 16; i++) {
			b[i] = 100 + rng_normal(&rng);
			c[i] = 100 + rng_normal(&rng);
		}
		stats_qratio_ci(b, 16, c, 16, 0.9, 1000, t, 0.95, &ci);
		est[t] = log(ci.ratio);
		se += ci.se_log / 200;
		m += est[t] / 200;
	}
	for (int t = 0; t < 200; t++)
		v += (est[t] - m) * (est[t] - m) / 199;
	ok(se > 0.75 * sqrt(v) && se < 1.25 * sqrt(v), "bootstrap se %.5f against the true sd %.5f", se, sqrt(v));
}

static void test_ci_and_mde(void)
{
	double b[10], c[10], m;
	struct ratio_ci r1, r2;

	rng_seed(&rng, 6, 0);
	for (int i = 0; i < 10; i++) {
		b[i] = 100 + rng_normal(&rng);
		c[i] = 105 + rng_normal(&rng);
	}
	stats_ratio_ci(b, 10, c, 10, 2000, 11, 0.95, &r1);
	stats_qratio_ci(b, 10, c, 10, 0.5, 2000, 11, 0.95, &r2);
	ok(r1.ratio == r2.ratio && r1.lo == r2.lo && r1.hi == r2.hi && r1.se_log == r2.se_log,
	   "the median is q = 0.5: the same ratio and CI");
	ok(stats_qratio_ci(b, 10, c, 10, 1.5, 2000, 11, 0.95, &r2) == -EINVAL, "q outside [0, 1]: -EINVAL");
	ok(stats_perm_quantile(b, 0, c, 10, 0.9, 99, 1, &m) == -EINVAL, "an empty side: -EINVAL");
	m = stats_mde_se(0.01, 16, 16, 0.01, 0.8, STATS_PERM_RESAMPLES);
	ok(NEAR_MDE(m, (2.5758 + 0.8416) * 0.01), "MDE = (z(alpha/2) + z(power)) * se: %.5f", m);
	ok(isinf(stats_mde_se(0.01, 3, 3, 0.01, 0.8, STATS_PERM_RESAMPLES)), "3 + 3 runs cannot reach 0.01: none");
	ok(isinf(stats_mde_se(0.01, 16, 16, 0.001, 0.8, 99)), "99 relabellings cannot reach 0.001: none");
}

int main(void)
{
	test_select();
	test_perm_exact();
	test_perm_size();
	test_one_sided();
	test_se();
	test_ci_and_mde();
	return done_testing();
}
