/* stats.c - descriptive statistics, Mann-Whitney U, Student/Welch t. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stats/stats.h"

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* A sorted copy of x, or NULL. */
static double *sorted_copy(const double *x, size_t n)
{
	double *s = malloc((n ? n : 1) * sizeof(*s));

	if (!s)
		return NULL;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_dbl);
	return s;
}

/* Quantile q of an already sorted array (R type 7). */
static double sorted_quantile(const double *s, size_t n, double q)
{
	double h = (double)(n - 1) * q;
	size_t lo = (size_t)floor(h);

	if (lo + 1 >= n)
		return s[n - 1];
	return s[lo] + (h - (double)lo) * (s[lo + 1] - s[lo]);
}

double stats_quantile(const double *x, size_t n, double q)
{
	double *s, v;

	if (n == 0 || !(q >= 0 && q <= 1))
		return NAN;
	s = sorted_copy(x, n);
	if (!s)
		return NAN;
	v = sorted_quantile(s, n, q);
	free(s);
	return v;
}

double stats_median(const double *x, size_t n)
{
	return stats_quantile(x, n, 0.5);
}

double stats_mad(const double *x, size_t n)
{
	double med = stats_median(x, n), v;
	double *d;

	if (n == 0)
		return NAN;
	d = malloc(n * sizeof(*d));
	if (!d)
		return NAN;
	for (size_t i = 0; i < n; i++)
		d[i] = fabs(x[i] - med);
	v = stats_median(d, n);
	free(d);
	return v;
}

double stats_mean(const double *x, size_t n)
{
	double s = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

double stats_var(const double *x, size_t n)
{
	double m = stats_mean(x, n), s = 0;

	if (n < 2)
		return NAN;
	for (size_t i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return s / (double)(n - 1);
}

size_t stats_outliers(const double *x, size_t n, unsigned char *flag)
{
	double med = stats_median(x, n), mad = stats_mad(x, n);
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		flag[i] = fabs(x[i] - med) > STATS_OUTLIER_K * mad;
		k += flag[i];
	}
	return k;
}

/* C(n, k) as a double (exact while below 2^53). */
static double binom(size_t n, size_t k)
{
	double c = 1;

	if (k > n - k)
		k = n - k;
	for (size_t i = 1; i <= k; i++)
		c = c * (double)(n - k + i) / (double)i;
	return floor(c + 0.5);
}

double stats_mwu_min_p(size_t n1, size_t n2)
{
	double p;

	if (n1 == 0 || n2 == 0)
		return 1;
	p = 2 / binom(n1 + n2, n1);
	return p > 1 ? 1 : p;
}

/*
 * Exact two-sided p of U = u for sizes m, n without ties. The number of
 * arrangements with U = k is the coefficient of t^k in the Gaussian
 * binomial [m+n choose m]_t = prod_{i=1..m} (1 - t^(n+i)) / (1 - t^i);
 * after step i the polynomial is [n+i choose i]_t, so every intermediate
 * is a non-negative integer.
 */
static double mwu_exact_p(size_t m, size_t n, double u)
{
	size_t deg = m * n, k;
	double *c = calloc(deg + 1, sizeof(*c));
	double total = 0, lo = 0, hi = 0, p;

	if (!c)
		return NAN;
	c[0] = 1;
	for (size_t i = 1; i <= m; i++) {
		size_t up = n + i;

		for (k = deg; k >= up; k--)	/* times (1 - t^(n+i)) */
			c[k] -= c[k - up];
		for (k = i; k <= deg; k++)	/* divided by (1 - t^i) */
			c[k] += c[k - i];
	}
	for (k = 0; k <= deg; k++) {
		total += c[k];
		if ((double)k <= u + 1e-9)
			lo += c[k];
		if ((double)k >= u - 1e-9)
			hi += c[k];
	}
	free(c);
	p = 2 * (lo < hi ? lo : hi) / total;
	return p > 1 ? 1 : p;
}

/* Ranks (1-based, ties averaged) of the pooled sample v[0..n-1]; sets *tie_term to sum(t^3 - t). */
static int pooled_ranks(const double *v, size_t n, double *rank, double *tie_term)
{
	size_t *idx = malloc(n * sizeof(*idx));
	const double *key = v;

	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	/* insertion sort of indices: n is a few hundred at most */
	for (size_t i = 1; i < n; i++) {
		size_t t = idx[i], j = i;

		while (j > 0 && key[idx[j - 1]] > key[t]) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = t;
	}
	*tie_term = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		double r;

		while (j + 1 < n && key[idx[j + 1]] == key[idx[i]])
			j++;
		r = (double)(i + j) / 2 + 1;
		for (size_t k = i; k <= j; k++)
			rank[idx[k]] = r;
		if (j > i) {
			double t = (double)(j - i + 1);

			*tie_term += t * t * t - t;
		}
		i = j + 1;
	}
	free(idx);
	return 0;
}

int stats_mwu(const double *a, size_t n1, const double *b, size_t n2, struct mwu *out)
{
	size_t n = n1 + n2;
	double *v, *rank, r1 = 0, tie_term, mu, sigma2, d;
	int ret;

	memset(out, 0, sizeof(*out));
	out->p = NAN;
	if (n1 == 0 || n2 == 0)
		return -EINVAL;
	v = malloc(2 * n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	rank = v + n;
	memcpy(v, a, n1 * sizeof(*v));
	memcpy(v + n1, b, n2 * sizeof(*v));
	ret = pooled_ranks(v, n, rank, &tie_term);
	if (ret)
		goto out;
	for (size_t i = 0; i < n1; i++)
		r1 += rank[i];
	out->u = r1 - (double)n1 * (double)(n1 + 1) / 2;
	out->ties = tie_term > 0;
	if (!out->ties && binom(n, n1) < 1e15) {
		out->exact = 1;
		out->p = mwu_exact_p(n1, n2, out->u);
		ret = isnan(out->p) ? -ENOMEM : 0;
		goto out;
	}
	mu = (double)n1 * (double)n2 / 2;
	sigma2 = (double)n1 * (double)n2 / 12 *
		 ((double)(n + 1) - tie_term / ((double)n * (double)(n - 1)));
	if (sigma2 <= 0) {	/* every value equal */
		out->p = 1;
		goto out;
	}
	d = fabs(out->u - mu) - 0.5;
	out->z = (d > 0 ? d : 0) / sqrt(sigma2);
	if (out->u < mu)
		out->z = -out->z;
	out->p = erfc(fabs(out->z) / M_SQRT2);
	if (out->p > 1)
		out->p = 1;
out:
	free(v);
	return ret;
}

/* Continued fraction of the incomplete beta (modified Lentz). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

double stats_ibeta(double a, double b, double x)
{
	double lbt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * betacf(a, b, x) / a;
	return 1 - exp(lbt) * betacf(b, a, 1 - x) / b;
}

double stats_welch_p(const double *a, size_t n1, const double *b, size_t n2)
{
	double ma, mb, va, vb, sa, sb, t, df;

	if (n1 < 2 || n2 < 2)
		return NAN;
	ma = stats_mean(a, n1);
	mb = stats_mean(b, n2);
	va = stats_var(a, n1);
	vb = stats_var(b, n2);
	sa = va / (double)n1;
	sb = vb / (double)n2;
	if (sa + sb == 0)
		return ma == mb ? 1 : 0;
	t = (ma - mb) / sqrt(sa + sb);
	df = (sa + sb) * (sa + sb) /
	     (sa * sa / (double)(n1 - 1) + sb * sb / (double)(n2 - 1));
	return stats_ibeta(df / 2, 0.5, df / (df + t * t));
}
