/*
 * compare/headline.c - the answer first: one line per regression or
 * improvement in the words a person uses ("4.40 times slower"), and for
 * each machine with no regression, what the comparison could have seen.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "compare/compare.h"

/* Whether metric is a rate (a speed): its changes read "slower"/"faster". */
static int is_rate(const char *metric)
{
	static const char *const suffix[] = { "-per-s", "-per-cpu-s", "-per-cpu-s-best" };
	size_t l = strlen(metric);

	for (size_t i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		size_t k = strlen(suffix[i]);

		if (l > k && strcmp(metric + l - k, suffix[i]) == 0)
			return 1;
	}
	return 0;
}

/*
 * Row r's change in words into buf: "4.40 times slower (95 % CI 4.2-4.6,
 * p 5e-05)" from 1.5 times on, else "12.3 % higher (95 % CI 10.1-14.2 %,
 * p 0.0002)". A ratio below 1 is read as the factor 1 / ratio. An exact
 * row (a deterministic backend's one run a side) has no interval and no
 * test: "2.00 times higher (exact)".
 */
void cmp_change_words(const struct cmp_row *r, char *buf, size_t len)
{
	double x = r->ci.ratio, lo = r->ci.lo, hi = r->ci.hi;
	int down = x < 1, rate = is_rate(r->metric), n;
	const char *dir = rate ? (down ? "slower" : "faster") : (down ? "lower" : "higher");
	double f = down ? 1 / x : x;

	if (!isfinite(x) || x <= 0) {
		/* no ratio (a median of 0): the medians themselves */
		if (r->exact)
			snprintf(buf, len, "from %.6g to %.6g (exact)", r->estb, r->estc);
		else
			snprintf(buf, len, "from %.6g to %.6g (p %.2g)", r->estb, r->estc, r->mwu.p);
		return;
	}
	if (r->exact) {
		if (f >= 1.5)
			snprintf(buf, len, "%.2f times %s (exact)", f, dir);
		else
			snprintf(buf, len, "%.3g %% %s (exact)", fabs(x - 1) * 100, dir);
		return;
	}
	if (f >= 1.5) {
		n = snprintf(buf, len, "%.2f times %s", f, dir);
		if (isfinite(lo) && isfinite(hi) && lo > 0)
			n += snprintf(buf + n, len - (size_t)n, " (95 %% CI %.2g-%.2g,",
				      down ? 1 / hi : lo, down ? 1 / lo : hi);
		else
			n += snprintf(buf + n, len - (size_t)n, " (");
	} else {
		n = snprintf(buf, len, "%.3g %% %s", fabs(x - 1) * 100, dir);
		if (isfinite(lo) && isfinite(hi))
			n += snprintf(buf + n, len - (size_t)n, " (95 %% CI %.3g-%.3g %%,",
				      (down ? 1 - hi : lo - 1) * 100, (down ? 1 - lo : hi - 1) * 100);
		else
			n += snprintf(buf + n, len - (size_t)n, " (");
	}
	if ((size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "%sp %.2g)", buf[n - 1] == '(' ? "" : " ", r->mwu.p);
}

/* "machine A" for row r, or "across machines". */
static const char *machine_words(const struct cmp_row *r, char *buf, size_t len)
{
	if (!r->machine)
		return "across machines";
	snprintf(buf, len, "machine %s", *r->machine ? r->machine : "(unnamed)");
	return buf;
}

/*
 * " (across kernels KB to KC)" when c compares across a kernel change
 * (--across-kernels, kernel:V), so that the headline a nightly mails says
 * so, as the header below it does; else "".
 */
static const char *kernel_words(const struct cmp *c, char *buf, size_t len)
{
	char kb[120], kc[120];

	buf[0] = '\0';
	if (!c->kernels)
		return buf;
	cmp_side_kernels(&c->base, kb, sizeof(kb), NULL, NULL);
	cmp_side_kernels(&c->cand, kc, sizeof(kc), NULL, NULL);
	if (strcmp(kb, kc))
		snprintf(buf, len, " (across kernels %s to %s)", kb, kc);
	return buf;
}

/* Whether row i is the first row of its machine. */
static int first_of_machine(const struct cmp *c, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (c->rows[k].group == c->rows[i].group)
			return 0;
	return 1;
}

/* The no-regression line of the machine of row i: the range of its rows'
 * MDEs; kw: kernel_words(). */
static void quiet_machine(const struct cmp *c, size_t i, const char *kw, FILE *f)
{
	double lo = INFINITY, hi = 0;
	size_t none = 0, zero = 0, insufficient = 0, improved = 0;
	char mw[96];

	for (size_t k = i; k < c->nrows; k++) {
		const struct cmp_row *r = &c->rows[k];

		if (r->group != c->rows[i].group)
			continue;
		if (r->v == V_REGRESSION)
			return;
		improved += r->v == V_IMPROVEMENT;
		insufficient += r->v == V_INSUFFICIENT;
		if (!isfinite(r->mde) || isnan(r->mde)) {
			/* a baseline median of 0 has no relative change to resolve */
			if (r->estb == 0)
				zero++;
			else
				none++;
			continue;
		}
		lo = fmin(lo, r->mde);
		hi = fmax(hi, r->mde);
	}
	if (c->rows[i].machine)
		fprintf(f, "no regression on %s", machine_words(&c->rows[i], mw, sizeof(mw)) + strlen("machine "));
	else
		fprintf(f, "no regression across machines");
	fputs(kw, f);
	if (isfinite(lo) && lo == hi)
		fprintf(f, "; the smallest change each cell could resolve in these runs: %.3g %%", lo * 100);
	else if (isfinite(lo))
		fprintf(f, "; the smallest change each cell could resolve in these runs: %.2g %% to %.3g %%",
			lo * 100, hi * 100);
	if (none)
		fprintf(f, "; %zu row%s could resolve no change (too few runs)", none, none == 1 ? "" : "s");
	if (zero)
		fprintf(f, "; %zu row%s with a baseline median of 0 (no relative change defined)", zero,
			zero == 1 ? "" : "s");
	if (insufficient)
		fprintf(f, "; %zu row%s insufficient", insufficient, insufficient == 1 ? "" : "s");
	if (improved)
		fprintf(f, "; %zu improvement%s", improved, improved == 1 ? "" : "s");
	fputc('\n', f);
}

void cmp_print_headlines(const struct cmp *c, FILE *f)
{
	char cell[512], words[160], mw[96], kw[280], costs[192];

	/* the sides' kernels are the same for every line: read once */
	kernel_words(c, kw, sizeof(kw));
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];

		if (r->v != V_REGRESSION && r->v != V_IMPROVEMENT)
			continue;
		/* no axis varies ("(the one cell)"): the machine alone names the cell */
		cmp_cell_tokens(c, r->cell, 0, cell, sizeof(cell));
		if (cell[0] == '(')
			cell[0] = '\0';
		cmp_change_words(r, words, sizeof(words));
		/* an est-* row priced at other costs on each side says so where it is read first */
		cmp_costs_words(c, r, costs, sizeof(costs));
		fprintf(f, "%s: %s%s%s%s: %s %s%s%s%s\n", stats_verdict_name(r->v), machine_words(r, mw, sizeof(mw)),
			kw, cell[0] ? ", " : "", cell, r->metric, words,
			costs[0] ? " (" : "", costs, costs[0] ? ")" : "");
	}
	for (size_t i = 0; i < c->nrows; i++)
		if (first_of_machine(c, i))
			quiet_machine(c, i, kw, f);
}
