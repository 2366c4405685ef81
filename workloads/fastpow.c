/*
 * fastpow.c - fast pow for zipf (fastpow.h), as 2^(a * log2 x).
 *
 * log2(x): x = 2^e * m with m in [1, 2); the top 8 bits of m pick c, the
 * double nearest 1 / (centre of m's 1/256 interval), so r = m*c - 1 has
 * |r| < 2^-9 and an absolute error of 2^-53; log2(m) = log2(1 + r) -
 * log2(c), with ln(1 + r) summed to r^4 (the rest is below 2^-45 / 5 =
 * 6e-15). exp2(z): z = (n + j/256) + f with |f| < 1/256; 2^z = 2^n *
 * 2^(j/256) * 2^f, with 2^f summed to f^3 (the rest is below
 * (ln 2 / 256)^4 / 24 = 2.3e-12). The tables come from libm (at most one
 * unit in the last place).
 *
 * Relative error of the result: ln 2 times the absolute error of z =
 * a * log2 x, plus exp2's. z's error is at most |a| * (6e-15 / ln 2 + 4e-16)
 * + |z| * 2^-52 <= 1000 * 9e-15 + 1021 * 2.3e-16 < 9.3e-12 for the
 * accepted inputs, so the total is below 0.7 * 9.3e-12 + 2.3e-12 + 1e-15
 * < 9e-12 < FASTPOW_REL_ERROR.
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include "workloads/fastpow.h"

static double inv_c[256], log2_c[256], exp2_j[256];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void build_tables(void)
{
	for (int i = 0; i < 256; i++) {
		inv_c[i] = 1.0 / (1.0 + (i + 0.5) / 256.0);
		log2_c[i] = log2(inv_c[i]);
		exp2_j[i] = exp2(i / 256.0);
	}
}

void fastpow_init(void)
{
	pthread_once(&tables_once, build_tables);
}

static uint64_t bits_of(double x)
{
	uint64_t b;

	memcpy(&b, &x, sizeof(b));
	return b;
}

static double double_of(uint64_t b)
{
	double x;

	memcpy(&x, &b, sizeof(x));
	return x;
}

/* log2(x) for a positive normal x. */
static double fast_log2(double x)
{
	uint64_t b = bits_of(x);
	int e = (int)(b >> 52) - 1023;
	unsigned i = (unsigned)(b >> 44) & 255;
	double m = double_of((b & ((1ull << 52) - 1)) | (1023ull << 52));
	double r = m * inv_c[i] - 1, r2 = r * r;
	double ln = (r - r2 * 0.5) + r2 * r * (1.0 / 3 - r * 0.25);

	return ((double)e - log2_c[i]) + ln * 1.4426950408889634074;
}

/* 2^z for -1021 <= z <= 1021. */
static double fast_exp2(double z)
{
	int64_t k = (int64_t)(z * 256.0);	/* toward zero: |f| < 1/256 either way */
	double f = (z - (double)k / 256.0) * 0.69314718055994530942, f2 = f * f;
	double p = (1 + f) + f2 * (0.5 + f * (1.0 / 6));
	int64_t n = k >> 8;	/* floor(k / 256): an arithmetic shift */

	return exp2_j[k & 255] * p * double_of((uint64_t)(n + 1023) << 52);
}

double fastpow(double x, double a)
{
	double z;

	if (!(x >= 0x1p-1022 && x <= 0x1p1023) || !(fabs(a) <= FASTPOW_MAX_A))
		return NAN;
	z = a * fast_log2(x);
	if (!(z >= -1021 && z <= 1021))
		return NAN;
	return fast_exp2(z);
}
