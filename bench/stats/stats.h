/*
 * stats.h - the statistics behind compare and history. Pure functions
 * over arrays of doubles: no database, no printing, no global state.
 * Every random stream is seeded by the caller (lib/rng.h).
 *
 * Two samples (tonight vs baseline): Mann-Whitney U (exact or normal
 * approximation), the check that the sample sizes can reach alpha at all,
 * the ratio of medians with a percentile-bootstrap CI, Benjamini-Hochberg
 * q-values and the decision rule that combines them (stats_decide).
 * Series (history): E-divisive means with a Welch t-test (stats_cp.c) and
 * a lookback z-score alarm.
 */
#ifndef SGA_STATS_H
#define SGA_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Defaults of the decision rule; every verdict records the values used. */
#define STATS_ALPHA		0.01	/* MWU significance, two-sided */
#define STATS_FDR		0.05	/* Benjamini-Hochberg q */
#define STATS_THRESHOLD		0.02	/* smallest relative change worth reporting */
#define STATS_BOOT_RESAMPLES	10000
#define STATS_BOOT_SEED		20161216ULL	/* fixed: the same data give the same CI */
#define STATS_BOOT_LEVEL	0.95
#define STATS_PERM_RESAMPLES	19999	/* permutation test: p >= 1/20000 */
#define STATS_MIN_RUNS		3	/* fewer runs on a side: insufficient */
#define STATS_OUTLIER_K		14.826	/* hyperfine: |x - median| > K * MAD */
#define STATS_CP_PVALUE		0.001	/* Otava's default */
#define STATS_CP_WINDOW		50	/* Otava's default */
#define STATS_CP_MIN_REL	0.02	/* smallest relative step reported, as compare's threshold */
#define STATS_CP_MIN_SEG	3	/* points on each side of a change point */
#define STATS_Z_LIMIT		5.0	/* Conbench: |z| >= 5 */
#define STATS_Z_LOOKBACK	100
#define STATS_Z_MIN_PRIOR	10
#define STATS_MDE_POWER		0.8	/* power at which the minimum detectable effect is given */
#define STATS_MWU_ARE_FACTOR	1.0233	/* sqrt(pi/3): MWU's efficiency against the t-test, normal data */

/*
 * The quantile a --one-sided-noise metric is judged on when higher is
 * better (1 - it when lower is better), by compare and by the noise
 * floors of 'sgabench stats noise': when noise only ever makes a run
 * worse, the best runs measure the code and the rest measure the noise.
 * The 90th percentile stays on the undisturbed runs while at least 1 run
 * in 10 is undisturbed, and no single run decides it (max would). The
 * replays that chose 0.9 over 0.75 and 1.0 are in
 * Documentation/validation/nightly.md. compare --help, the table's
 * "[q90]" and the method's "90th percentiles" come from this value.
 */
#define STATS_BEST_QUANTILE	0.9

/* Median of x[0..n-1] (x untouched); NAN when n == 0. */
double stats_median(const double *x, size_t n);

/* Quantile q in [0,1] with linear interpolation (R type 7); NAN when n == 0. */
double stats_quantile(const double *x, size_t n, double q);

/* Median absolute deviation from the median, unscaled; NAN when n == 0. */
double stats_mad(const double *x, size_t n);

/* Arithmetic mean and sample variance (n - 1); NAN when undefined. */
double stats_mean(const double *x, size_t n);
double stats_var(const double *x, size_t n);

/*
 * Flag outliers by hyperfine's rule |x - median| > 14.826 * MAD: flag[i]
 * is set to 1 or 0. Nothing is dropped. Returns the number flagged.
 */
size_t stats_outliers(const double *x, size_t n, unsigned char *flag);

/* Two-sided Mann-Whitney U test of a (n1) against b (n2). */
struct mwu {
	double u;	/* U of sample a: pairs (a_i, b_j) with a_i > b_j, ties 1/2 */
	double z;	/* normal score (0 when exact) */
	double p;	/* two-sided p-value; NAN when a side is empty */
	int exact;	/* 1: exact null distribution (no ties, small n) */
	int ties;	/* 1: the pooled sample has ties */
};

/*
 * Compute the test. The exact distribution is used when there are no ties
 * and C(n1+n2, n1) < 1e15 (counts stay exact in doubles); otherwise the
 * normal approximation with tie correction and continuity correction.
 * Returns 0, -EINVAL when a side is empty, -ENOMEM.
 */
int stats_mwu(const double *a, size_t n1, const double *b, size_t n2, struct mwu *out);

/*
 * The smallest two-sided p-value the test can produce at these sizes,
 * 2 / C(n1+n2, n1) capped at 1 (asv's check): if it exceeds alpha, no
 * outcome could ever be significant, so "no change" would mean nothing.
 */
double stats_mwu_min_p(size_t n1, size_t n2);

/* Regularised incomplete beta I_x(a, b); used for Student's t. */
double stats_ibeta(double a, double b, double x);

/*
 * Welch's two-sample t-test, two-sided p. Both variances zero: p is 0 when
 * the means differ, 1 when they are equal. NAN when a side has < 2 points.
 */
double stats_welch_p(const double *a, size_t n1, const double *b, size_t n2);

/* Ratio of medians median(cand)/median(base) (or of other quantiles) with a percentile bootstrap CI. */
struct ratio_ci {
	double ratio;		/* point estimate on the data */
	double lo, hi;		/* CI bounds; may be INFINITY when a base median is 0 */
	double se_log;		/* spread of log(resampled ratio): half its 15.9-84.1 % range
				 * (the SD for normal data); NAN when a ratio there is <= 0 or infinite */
};

/*
 * Resample base and cand independently with replacement, resamples times,
 * from a stream seeded with seed; the CI is the (1-level)/2 and
 * (1+level)/2 quantiles of the resampled ratios. Ratios 0/0 count as 1.
 * Returns 0, -EINVAL (an empty side, resamples < 2), -ENOMEM.
 */
int stats_ratio_ci(const double *base, size_t nb, const double *cand, size_t nc,
		   unsigned resamples, uint64_t seed, double level, struct ratio_ci *out);

/*
 * The same for the ratio of q-quantiles (R type 7), q in [0, 1]:
 * stats_ratio_ci is q = 0.5. -EINVAL also for q outside [0, 1].
 */
int stats_qratio_ci(const double *base, size_t nb, const double *cand, size_t nc, double q,
		    unsigned resamples, uint64_t seed, double level, struct ratio_ci *out);

/*
 * Quantile q of v[0..n-1] (R type 7, as stats_quantile) in linear time,
 * reordering v; NAN when n == 0 or q is outside [0, 1].
 */
double stats_select_quantile(double *v, size_t n, double q);

/*
 * Permutation test of "a and b come from one distribution" with the
 * statistic |Q_q(b) - Q_q(a)| (Q_q the q-quantile of a side): over
 * `resamples` random relabellings of the pooled values (n1 of them to a,
 * from an xoshiro stream seeded with seed), p = (1 + the relabellings
 * whose statistic reaches the observed one) / (resamples + 1), two-sided;
 * the Monte Carlo estimate of the exact permutation p, never below
 * 1 / (resamples + 1). Valid for any q and any distribution when the
 * runs of both sides are exchangeable under no change. Returns 0, -EINVAL
 * (an empty side, no resamples, q outside [0, 1]) or -ENOMEM.
 */
int stats_perm_quantile(const double *a, size_t n1, const double *b, size_t n2, double q,
			unsigned resamples, uint64_t seed, double *p);

/*
 * Benjamini-Hochberg step-up q-values: q[i] = min over j with
 * p_(j) >= p_i of m * p_(j) / rank(j), capped at 1. Entries of p that are
 * NAN are not tested: they get q = NAN and do not count in m.
 * Returns 0 or -ENOMEM.
 */
int stats_bh(const double *p, size_t n, double *q);

enum verdict {
	V_NO_CHANGE,
	V_REGRESSION,
	V_IMPROVEMENT,
	V_INSUFFICIENT,
};

/* "no-change", "regression", "improvement", "insufficient". */
const char *stats_verdict_name(enum verdict v);

/* The parameters of the decision rule (recorded with every verdict). */
struct decide_params {
	double alpha;		/* raw MWU p must be <= alpha */
	double fdr;		/* and the BH q-value <= fdr */
	double threshold;	/* relative change the CI must clear... */
	unsigned min_runs;	/* runs needed on each side */
};

void stats_decide_defaults(struct decide_params *dp);

/*
 * The verdict for one cell and metric. Significant means p <= alpha and
 * q <= fdr. A regression also needs the point estimate, the ratio of
 * medians, beyond bound = max(threshold, noise_floor) in the bad
 * direction: ratio > 1 + bound when lower is better, ratio < 1 - bound
 * when higher is better (asv's rule: significant and beyond a factor);
 * an improvement is the mirror image. The CI is reported, not required
 * to clear the bound: that demanded far more runs than a nightly has
 * (a 40 % slowdown with p = 0.003 stayed no-change). Insufficient when a side has fewer
 * than min_runs runs or stats_mwu_min_p(n_base, n_cand) > alpha.
 * noise_floor may be NAN (not measured). why receives a short reason.
 */
enum verdict stats_decide(const struct decide_params *dp, size_t n_base, size_t n_cand,
			  double p, double q, const struct ratio_ci *ci, double noise_floor,
			  int higher_better, char *why, size_t whylen);

/*
 * Robust relative noise of a comparison's runs: 1.4826 * the median of
 * |x / median(own side) - 1| over both sides pooled (each side centred on
 * its own median, so a shift between them does not count as noise); the
 * normal-equivalent coefficient of variation. NAN when undefined.
 */
double stats_robust_cv(const double *b, size_t nb, const double *c, size_t nc);

/*
 * Minimum detectable effect, relative: the shift of the median that a
 * two-sided test at level alpha finds with the given power, with nb and
 * nc runs of relative noise cv: sqrt(pi/3) * (z(alpha/2) + z(1-power)) *
 * cv * sqrt(1/nb + 1/nc) (the normal approximation, with MWU's asymptotic
 * efficiency). INFINITY when the sizes cannot reach alpha at all
 * (stats_mwu_min_p), NAN when an input is undefined.
 */
double stats_mde(double cv, size_t nb, size_t nc, double alpha, double power);

/*
 * The same for an estimate whose log has standard error se_log (e.g. a
 * ratio of 90th percentiles, its bootstrap spread): (z(alpha/2) + z(1-power)) *
 * se_log, relative to first order. INFINITY when no outcome of a
 * permutation test with these sizes and resamples can reach alpha
 * (stats_mwu_min_p, which bounds every two-sample rank or permutation
 * test, or 1 / (resamples + 1)), NAN when an input is undefined.
 */
double stats_mde_se(double se_log, size_t nb, size_t nc, double alpha, double power, unsigned resamples);

/* One accepted change point of a series. */
struct change_point {
	size_t index;		/* first point of the new segment */
	double mean_before;	/* mean of the segment before it */
	double mean_after;	/* mean of the segment after it */
	double p;		/* Welch t-test between the two segments */
};

/*
 * One group (a kernel variant) whose runs differ from both neighbouring
 * groups' runs the same way by min_rel or more: a pulse, a change that
 * the next group undid (6.1.176-1 slower, 6.1.177-1 fixed it).
 */
struct pulse {
	size_t index;		/* the group, as g[] numbers it */
	size_t prev, next;	/* its neighbouring groups */
	size_t n, n_prev, n_next;	/* their runs */
	double mean, mean_prev, mean_next;
	double p;		/* max of the Welch p against each neighbour; NAN when insufficient */
	double p_holm;		/* p, Holm-adjusted over the groups tested; NAN when insufficient */
	size_t tested;		/* how many groups were tested (Holm's m) */
	int insufficient;	/* large enough, but a group has fewer than min_runs runs */
};

/*
 * Single-group pulses in grouped runs: x[0..n) with g[i] the group of run
 * i, g non-decreasing. Each group with a neighbour on both sides is tested
 * against each neighbour's runs (Welch) and p is the larger of the two
 * (an intersection-union test: both must differ, so a step is not a
 * pulse); the p of all groups tested (each with >= min_runs runs, as do
 * both neighbours) are Holm-adjusted, which holds the chance of any false
 * pulse in the series to pmax. A pulse needs p_holm < pmax and both
 * relative differences >= min_rel in the same direction; a group that
 * has the differences but too few runs (or a neighbour with too few) is
 * written as insufficient, never as a pulse. Writes at most max results
 * in group order; returns their number, or -ENOMEM.
 */
int stats_pulses(const double *x, const size_t *g, size_t n, double pmax, double min_rel,
		 size_t min_runs, struct pulse *out, size_t max);

/*
 * E-divisive means with a t-test (Hunter/Otava) over x[0..n-1]: split a
 * segment at the point of maximum windowed energy divergence, keep the
 * split if the Welch t-test between the two sides gives p < pmax, and
 * recurse; then re-test every point against its neighbouring segments
 * until all pass. A split also needs |after - before| >= min_rel * |before|
 * (Otava's min_magnitude; 0 accepts any size). Writes at most max results
 * in index order to cp and returns their number, or -ENOMEM.
 */
int stats_change_points(const double *x, size_t n, size_t window, double pmax, double min_rel,
			struct change_point *cp, size_t max);

/*
 * Conbench-style alarm: z[i] = (x[i] - mean) / sd over up to lookback
 * points before i; NAN when fewer than min_prior points precede it. A
 * constant history gives z = +-INFINITY for a differing point and 0 for
 * an equal one. Returns 0 or -EINVAL.
 */
int stats_zscores(const double *x, size_t n, size_t lookback, size_t min_prior, double *z);

#endif
