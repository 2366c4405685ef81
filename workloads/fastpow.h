/*
 * fastpow.h - pow(x, a) for zipf's inner loop: a table-driven log2, a
 * multiply, and a table-driven exp2. Not correctly rounded: for x > 0 and
 * |a| <= FASTPOW_MAX_A, with |a * log2(x)| <= 1021, the relative error is
 * below 1e-11 (fastpow.c derives it). Callers that need libm's exact
 * result use it only where that error cannot matter (zipf.c), and fall
 * back to pow() otherwise.
 */
#ifndef SGA_FASTPOW_H
#define SGA_FASTPOW_H

#define FASTPOW_MAX_A 1000.0
#define FASTPOW_REL_ERROR 1e-11

/* Build the tables (once per process; safe to call from several threads). */
void fastpow_init(void);

/* x^a within the bound above; NaN where the bound does not hold (x not a
 * positive normal number, |a| > FASTPOW_MAX_A, or |a log2 x| > 1021). */
double fastpow(double x, double a);

#endif
