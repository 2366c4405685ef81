/*
 * t_noise.c - the A/A noise floor (stats/noise.h) against cases whose
 * answer is known by hand, and its seeded stream against the MINSTD values
 * the shell harness documents.
 */
#include <errno.h>
#include <math.h>
#include "stats/noise.h"
#include "tap.h"

int main(void)
{
	double same[6] = { 7, 7, 7, 7, 7, 7 };
	double zeros[4] = { 0, 0, 0, 0 };
	double two[4] = { 100, 100, 110, 110 };
	double big[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	struct noise_rng r;
	double fl = -1, fl2 = -1;
	int ret;

	noise_rng_seed(&r, 0);
	ok(r.x == 1, "seed 0 starts the stream at 1 (seed mod 2^31-1, plus 1)");
	noise_rng_seed(&r, 0);
	ok(r.x * 48271 % 2147483647 == 48271,
	   "the first step is 48271, as scripts/lib.sh's shuffle documents");

	noise_rng_seed(&r, 5);
	ok(stats_noise_floor(same, 6, 200, &r, &fl) == 0 && fl == 0,
	   "equal samples: floor 0");
	noise_rng_seed(&r, 5);
	ok(stats_noise_floor(zeros, 4, 50, &r, &fl) == 0 && fl == 0,
	   "all zero: 0/0 counts as no difference");
	/* Halves of {100,100,110,110}: medians 100/110, 105/105 or 110/100,
	 * so |ratio - 1| is 0, 1/11 or 0.1; over 200 splits the 95th
	 * percentile is the largest, 0.1. */
	noise_rng_seed(&r, 7);
	ret = stats_noise_floor(two, 4, 200, &r, &fl);
	ok(ret == 0 && fabs(fl - 0.1) < 1e-12, "two levels 10 %% apart: floor 0.1 (got %g)", fl);
	noise_rng_seed(&r, 9);
	stats_noise_floor(big, 9, 200, &r, &fl);
	noise_rng_seed(&r, 9);
	stats_noise_floor(big, 9, 200, &r, &fl2);
	ok(fl == fl2 && fl > 0, "the same seed gives the same floor (%g)", fl);
	ok(stats_noise_floor(big, 3, 200, &r, &fl) == -EINVAL, "fewer than 4 samples: -EINVAL");
	ok(stats_noise_floor(big, 9, 0, &r, &fl) == -EINVAL, "no resamples: -EINVAL");
	{
		/* two nights of three: medians 10 and 11, so the drift is |10/11 - 1| and |11/10 - 1| = 0.1 */
		const double x[] = { 9, 10, 11, 10, 11, 12 };
		const unsigned g[] = { 0, 0, 0, 1, 1, 1 };
		const unsigned one[] = { 0, 0, 0, 0, 0, 0 };
		const unsigned thin[] = { 0, 0, 1, 1, 2, 2 };
		double d = -1;

		ok(stats_noise_drift(x, g, 6, &d) == 0 && fabs(d - 0.1) < 1e-12,
		   "drift between two nights is the larger median gap (0.1)");
		ok(stats_noise_drift(x, one, 6, &d) == 0 && d == 0, "one night alone has no drift");
		ok(stats_noise_drift(x, thin, 6, &d) == 0 && d == 0,
		   "nights of fewer than 3 samples are not compared");
	}
	return done_testing();
}
