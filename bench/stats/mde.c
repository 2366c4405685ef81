/* mde.c - the minimum detectable effect of a two-sample comparison. */
#include <math.h>
#include <stdlib.h>
#include "stats/stats.h"

/* Upper-tail standard normal quantile: z with P(Z > z) = p, by bisection on erfc. */
static double z_upper(double p)
{
	double lo = -40, hi = 40;

	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (0.5 * erfc(mid / M_SQRT2) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double stats_robust_cv(const double *b, size_t nb, const double *c, size_t nc)
{
	double mb = stats_median(b, nb), mc = stats_median(c, nc), *dev, mad;
	size_t n = 0;

	if (nb + nc < 2 || !(mb != 0) || isnan(mc))
		return NAN;
	dev = malloc((nb + nc) * sizeof(*dev));
	if (!dev)
		return NAN;
	for (size_t i = 0; i < nb; i++)
		dev[n++] = fabs(b[i] / mb - 1);
	for (size_t i = 0; i < nc; i++)
		dev[n++] = mc != 0 ? fabs(c[i] / mc - 1) : 0;
	mad = stats_median(dev, n);
	free(dev);
	return 1.4826 * mad;
}

double stats_mde(double cv, size_t nb, size_t nc, double alpha, double power)
{
	if (nb == 0 || nc == 0 || isnan(cv) || !(alpha > 0 && alpha < 1) || !(power > 0 && power < 1))
		return NAN;
	if (stats_mwu_min_p(nb, nc) > alpha)
		return INFINITY;
	return STATS_MWU_ARE_FACTOR * (z_upper(alpha / 2) + z_upper(1 - power)) * cv *
	       sqrt(1.0 / (double)nb + 1.0 / (double)nc);
}

double stats_mde_se(double se_log, size_t nb, size_t nc, double alpha, double power, unsigned resamples)
{
	if (nb == 0 || nc == 0 || isnan(se_log) || !(alpha > 0 && alpha < 1) || !(power > 0 && power < 1))
		return NAN;
	if (stats_mwu_min_p(nb, nc) > alpha || 1.0 / (1.0 + resamples) > alpha)
		return INFINITY;
	return (z_upper(alpha / 2) + z_upper(1 - power)) * se_log;
}
