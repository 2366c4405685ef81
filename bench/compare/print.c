/* compare/print.c - compare's verdict table (human) and its JSON document. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/json.h"
#include "compare/compare.h"
#include "store/query.h"
#include "store/store.h"
#include "machine/sysinfo.h"
#include "output/envelope.h"

/* The first 12 hex digits of machine id's fingerprint into buf ("?" when unknown). */
static const char *machine_fp(const struct cmp *c, int64_t id, char *buf, size_t len)
{
	char fp[80];

	store_machine_fingerprint(c->db_handle, id, fp, sizeof(fp));
	snprintf(buf, len, "%.12s", *fp ? fp : "?");
	return buf;
}

/* Whether the space-separated token tok (length l) is a whole token of s. */
static int has_token(const char *s, const char *tok, size_t l)
{
	for (const char *p = s; (p = strstr(p, tok)); p++)
		if ((p == s || p[-1] == ' ') && (p[l] == ' ' || p[l] == '\0'))
			return 1;
	return 0;
}

/* Whether token tok (length l) of a cell appears in every row's cell. */
static int common_token(const struct cmp *c, const char *tok, size_t l)
{
	char t[256];

	snprintf(t, sizeof(t), "%.*s", (int)l, tok);
	for (size_t i = 0; i < c->nrows; i++)
		if (!has_token(c->rows[i].cell, t, l))
			return 0;
	return 1;
}

void cmp_cell_tokens(const struct cmp *c, const char *cell, int common, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (const char *p = cell; *p;) {
		size_t l = strcspn(p, " ");

		if (l && common_token(c, p, l) == common && used + l + 2 < len) {
			used += snprintf(buf + used, len - used, "%s%.*s", used ? " " : "", (int)l, p);
		}
		p += l;
		while (*p == ' ')
			p++;
	}
	if (!buf[0])
		snprintf(buf, len, common ? "(none)" : "(the one cell)");
}

void cmp_cell_varying(const struct cmp *c, const char *cell, char *buf, size_t len)
{
	cmp_cell_tokens(c, cell, 0, buf, len);
}

/* A row's p or q for the table: "exact" for an exact row's p, "-" when there is none. */
static const char *fmt_p(const struct cmp_row *r, double x, int is_p, char *buf, size_t len)
{
	if (r->exact && is_p)
		return "exact";
	if (isnan(x))
		return "-";
	snprintf(buf, len, "%.3g", x);
	return buf;
}

/* Number of distinct machines (fingerprint and name) among the rows. */
static int machines(const struct cmp *c)
{
	int n = 0;

	for (size_t i = 0; i < c->nrows; i++) {
		int seen = 0;

		for (size_t k = 0; k < i && !seen; k++)
			seen = c->rows[k].group == c->rows[i].group;
		n += !seen;
	}
	return n;
}

/* Print note, each row's whole cell in it shortened to the tokens that vary. */
static void print_note(const struct cmp *c, const char *note, FILE *f)
{
	char cell[512];

	fputs("note: ", f);
	while (*note) {
		const char *at = NULL;
		size_t k = 0, l;

		for (size_t i = 0; i < c->nrows; i++) {
			const char *p = strstr(note, c->rows[i].cell);

			if (p && (!at || p < at)) {
				at = p;
				k = i;
			}
		}
		if (!at || c->nrows < 2) {
			fputs(note, f);
			break;
		}
		l = strlen(c->rows[k].cell);
		cmp_cell_tokens(c, c->rows[k].cell, 0, cell, sizeof(cell));
		fprintf(f, "%.*s%s", (int)(at - note), note, cell);
		note = at + l;
	}
	fputc('\n', f);
}

void cmp_print_notes(const struct cmp *c, FILE *f)
{
	for (size_t i = 0; i < c->nnotes; i++)
		print_note(c, c->notes[i], f);
}

/* The interval, "-" when either end is unknown or infinite (a median of 0). */
static void fmt_ci(const struct cmp_row *r, char *buf, size_t len)
{
	if (!isfinite(r->ci.lo) || !isfinite(r->ci.hi))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "[%.4f, %.4f]", r->ci.lo, r->ci.hi);
}

/* A relative value as a percentage ("12.3%"), "-" when unknown, "none" when infinite. */
static const char *fmt_pct(double x, char *buf, size_t len)
{
	if (isnan(x))
		snprintf(buf, len, "-");
	else if (isinf(x))
		snprintf(buf, len, "none");
	else if (x * 100 >= 999.5)
		snprintf(buf, len, ">999%%");
	else
		snprintf(buf, len, "%.3g%%", x * 100);
	return buf;
}

/* " (M R%, ...)" for the metrics with their own --metric-threshold, or "", in buf. */
static const char *metric_thresholds(const struct cmp *c, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = 0;
	for (size_t i = 0; i < c->nmt && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%s %g%%", i ? ", " : " (", c->mt_name[i],
				      c->mt_value[i] * 100);
	if (c->nmt && k < len)
		snprintf(buf + k, len - k, ")");
	return buf;
}

void cmp_print_human(const struct cmp *c, FILE *f)
{
	char cell[512], fp[16], ci[48], fl[16], md[16], mt[512], pb[16], qb[16], mach[96], ra[16], eb[32], ec[32];
	int cw = 4, mw = 7, tw = 24, many = machines(c) > 1 && !c->cross;

	cmp_print_headlines(c, f);
	fputc('\n', f);
	fprintf(f, "baseline  %s = %s (%zu run%s)\n", c->baseline, c->base.resolved, c->base.n,
		c->base.n == 1 ? "" : "s");
	cmp_print_groups(c, &c->base, f);
	fprintf(f, "candidate %s = %s (%zu run%s)\n", c->candidate, c->cand.resolved, c->cand.n,
		c->cand.n == 1 ? "" : "s");
	cmp_print_groups(c, &c->cand, f);
	if (c->kernels) {
		char kb[256], kc[256];

		cmp_side_kernels(&c->base, kb, sizeof(kb), NULL, NULL);
		cmp_side_kernels(&c->cand, kc, sizeof(kc), NULL, NULL);
		fprintf(f, "kernels   %s (baseline) against %s (candidate): %s, each machine's runs paired by"
			" its name across fingerprints\n", kb, kc, strcmp(kb, kc) ? "across a kernel change" :
			"across a change of fingerprint");
	}
	if (c->cross)
		fprintf(f, "CROSS-MACHINE: runs paired by cell across machine fingerprints\n");
	else if (!many && c->kernels)
		fprintf(f, "machine   %s (a fingerprint per kernel)\n", c->rows[0].machine);
	else if (!many)
		fprintf(f, "machine   %s (fingerprint %s)\n", c->rows[0].machine,
			machine_fp(c, c->rows[0].machine_id, fp, sizeof(fp)));
	cmp_cell_tokens(c, c->rows[0].cell, 1, cell, sizeof(cell));
	fprintf(f, "common    %s\n", cell);
	cmp_print_ignored(c, f, 1);
	fputc('\n', f);
	for (size_t i = 0; i < c->nrows; i++) {
		cmp_cell_tokens(c, c->rows[i].cell, 0, cell, sizeof(cell));
		if ((int)strlen(cell) > cw)
			cw = (int)strlen(cell);
		if (many && (int)strlen(c->rows[i].machine) + 15 > mw)
			mw = (int)strlen(c->rows[i].machine) + 15;
		if ((int)strlen(c->rows[i].metric) > tw)
			tw = (int)strlen(c->rows[i].metric);
	}
	fprintf(f, "%-*s %-*s%s%-*s %4s %4s %12s %12s %7s %-18s %9s %9s %6s %6s  %s\n", cw, "cell",
		many ? mw : 0, many ? "machine" : "", many ? " " : "", tw, "metric", "n_b", "n_c", "base", "cand",
		"ratio", "95% CI", "p", "q", "floor", "MDE", "verdict");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];

		cmp_cell_tokens(c, r->cell, 0, cell, sizeof(cell));
		fmt_ci(r, ci, sizeof(ci));
		fprintf(f, "%-*s ", cw, cell);
		if (many) {
			snprintf(mach, sizeof(mach), "%s (%.12s)", r->machine,
				 machine_fp(c, r->machine_id, fp, sizeof(fp)));
			fprintf(f, "%-*s ", mw, mach);
		}
		/* a ratio over a median of 0 is no number: "-" */
		if (isfinite(r->ci.ratio))
			snprintf(ra, sizeof(ra), "%.4f", r->ci.ratio);
		else
			snprintf(ra, sizeof(ra), "-");
		/* a side without the metric has no median: "-" */
		snprintf(eb, sizeof(eb), isfinite(r->estb) ? "%.6g" : "-", r->estb);
		snprintf(ec, sizeof(ec), isfinite(r->estc) ? "%.6g" : "-", r->estc);
		fprintf(f, "%-*s %4zu %4zu %12s %12s %7s %-18s %9s %9s %6s %6s  %s%s",
			tw, r->metric, r->nb, r->nc, eb, ec, ra, ci,
			fmt_p(r, r->mwu.p, 1, pb, sizeof(pb)), fmt_p(r, r->q, 0, qb, sizeof(qb)),
			fmt_pct(r->floor, fl, sizeof(fl)), fmt_pct(r->mde, md, sizeof(md)),
			stats_verdict_name(r->v), r->higher_better ? " (higher is better)" : "");
		if (r->quant != 0.5)
			fprintf(f, " [q%.0f]", 100 * r->quant);
		fputc('\n', f);
	}
	fprintf(f, "\nsummary: %d regression%s, %d improvement%s, %d no change, %d insufficient "
		"in %zu comparisons (%s alpha %g, BH q %g, threshold %g%%%s, noise floors from the "
		"baseline's runs)\nrule: regression when significant and the ratio of medians lies beyond "
		"max(threshold, floor); MDE: the smallest change each row could have caught "
		"(80%% power), at least that bound; 'none': too few runs\n%s", c->count[V_REGRESSION], c->count[V_REGRESSION] == 1 ? "" : "s",
		c->count[V_IMPROVEMENT], c->count[V_IMPROVEMENT] == 1 ? "" : "s",
		c->count[V_NO_CHANGE], c->count[V_INSUFFICIENT], c->nrows,
		cmp_any_one_sided(c) ? "MWU or permutation" : "MWU", c->dp.alpha, c->dp.fdr,
		c->dp.threshold * 100, metric_thresholds(c, mt, sizeof(mt)),
		cmp_any_one_sided(c) ? "[qN] (one-sided noise): base, cand and the ratio are each side's Nth "
		"percentile, its best runs, not its median, and p is a permutation test on it\n" : "");
	cmp_print_exact(c, f);
	/* which designs each cell paired: part of the answer, not a note */
	cmp_print_ignored(c, f, 0);
	if (!c->verbose) {
		/* a caveat on a verdict is part of the answer */
		for (size_t i = 0; i < c->nshown; i++)
			print_note(c, c->notes[c->shown[i]], f);
		if (c->nnotes > c->nshown)
			fprintf(f, "(%zu %snote%s: --verbose shows them, and why each row was judged so)\n",
				c->nnotes - c->nshown, c->nshown ? "more " : "",
				c->nnotes - c->nshown == 1 ? "" : "s");
		return;
	}
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].v == V_REGRESSION || c->rows[i].v == V_INSUFFICIENT) {
			cmp_cell_tokens(c, c->rows[i].cell, 0, cell, sizeof(cell));
			fprintf(f, "why %s: %s%s%s %s: %s\n", stats_verdict_name(c->rows[i].v),
				c->rows[i].machine ? c->rows[i].machine : "", c->rows[i].machine ? ", " : "",
				cell, c->rows[i].metric, c->rows[i].why);
		}
	cmp_print_notes(c, f);
}

static void side_json(const struct cmp *c, struct json *j, const char *key, const char *sel,
		      const struct runset *rs)
{
	char buf[256];

	json_obj_open(j, key);
	json_str(j, "selector", sel);
	json_str(j, "resolved", rs->resolved);
	json_u64(j, "runs", rs->n);
	cmp_side_kernels(rs, buf, sizeof(buf), j, "kernel_variants");
	cmp_groups_json(c, rs, j);
	json_obj_close(j);
}

static void row_json(const struct cmp *c, struct json *j, const struct cmp_row *r)
{
	double bound = r->threshold;
	char fp[16];

	if (!isnan(r->floor) && r->floor > bound)
		bound = r->floor;
	json_obj_open(j, NULL);
	json_str(j, "cell", r->cell);
	cmp_ignored_json(c, j, r);
	if (r->machine_id >= 0)
		json_str(j, "machine", machine_fp(c, r->machine_id, fp, sizeof(fp)));
	else
		json_null(j, "machine");
	if (r->machine)
		json_str(j, "machine_name", r->machine);
	else
		json_null(j, "machine_name");
	json_str(j, "metric", r->metric);
	json_bool(j, "higher_better", r->higher_better);
	json_u64(j, "n_base", r->nb);
	json_u64(j, "n_cand", r->nc);
	json_u64(j, "skipped_base", r->nullb);
	json_u64(j, "skipped_cand", r->nullc);
	json_u64(j, "outliers_base", r->outb);
	json_u64(j, "outliers_cand", r->outc);
	json_dbl(j, "median_base", r->medb);
	json_dbl(j, "median_cand", r->medc);
	json_dbl(j, "quantile", r->quant);
	json_dbl(j, "estimate_base", r->estb);
	json_dbl(j, "estimate_cand", r->estc);
	json_str(j, "test", r->exact ? "exact" : r->quant == 0.5 ? "mann-whitney-u" : "permutation");
	json_dbl(j, "ratio", r->ci.ratio);
	json_dbl(j, "ci_lo", r->ci.lo);
	json_dbl(j, "ci_hi", r->ci.hi);
	json_dbl(j, "u", r->mwu.u);
	json_dbl(j, "p", r->mwu.p);
	/* p_exact: the test's p is exact, not its normal approximation; an
	   exact row has no test, so neither it nor the least p applies */
	if (r->exact) {
		json_null(j, "p_exact");
		json_null(j, "min_p");
	} else {
		json_bool(j, "p_exact", r->mwu.exact);
		json_dbl(j, "min_p", r->quant == 0.5 ? stats_mwu_min_p(r->nb, r->nc)
			 : fmax(stats_mwu_min_p(r->nb, r->nc), 1.0 / (1.0 + STATS_PERM_RESAMPLES)));
	}
	json_dbl(j, "q", r->q);
	json_dbl(j, "noise_floor", r->floor);
	json_dbl(j, "floor_within", r->floor_within);
	json_dbl(j, "floor_between", r->floor_between);
	json_u64(j, "baseline_sessions", r->sessions);
	json_bool(j, "interleaved", r->interleaved);
	json_dbl(j, "threshold", r->threshold);
	json_dbl(j, "bound", bound);
	json_dbl(j, "noise_cv", r->cv);
	if (isinf(r->mde))
		json_null(j, "mde");
	else
		json_dbl(j, "mde", r->mde);
	json_str(j, "verdict", stats_verdict_name(r->v));
	json_str(j, "reason", r->why);
	cmp_row_mux_json(j, r);
	cmp_row_costs_json(c, j, r);
	json_obj_close(j);
}

/* "headlines": the lines the human output leads with (cmp_print_headlines), one string each. */
static void headlines_json(const struct cmp *c, struct json *j)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	json_arr_open(j, "headlines");
	if (m) {
		cmp_print_headlines(c, m);
		fclose(m);
		for (char *p = buf, *nl; p && *p; p = nl + 1) {
			nl = strchr(p, '\n');
			if (!nl)
				break;
			*nl = '\0';
			json_str(j, NULL, p);
		}
	}
	json_arr_close(j);
	free(buf);
}

void cmp_print_json(const struct cmp *c, FILE *f)
{
	char *method = NULL;
	size_t len;
	FILE *m = open_memstream(&method, &len);
	struct json j;
	struct sysinfo si;

	if (m) {
		cmp_method_json(c, NULL, m);
		fclose(m);
	}
	json_init(&j, f, 1);
	json_obj_open(&j, NULL);
	sysinfo_collect(&si);
	envelope_json(&j, &si, "compare");
	side_json(c, &j, "baseline", c->baseline, &c->base);
	side_json(c, &j, "candidate", c->candidate, &c->cand);
	json_bool(&j, "cross_machine", c->cross);
	json_bool(&j, "across_kernels", c->kernels);
	cmp_ignored_json(c, &j, NULL);
	if (method)
		json_raw(&j, "method", method);
	headlines_json(c, &j);
	json_arr_open(&j, "rows");
	for (size_t i = 0; i < c->nrows; i++)
		row_json(c, &j, &c->rows[i]);
	json_arr_close(&j);
	json_obj_open(&j, "summary");
	json_u64(&j, "rows", c->nrows);
	json_u64(&j, "regression", (uint64_t)c->count[V_REGRESSION]);
	json_u64(&j, "improvement", (uint64_t)c->count[V_IMPROVEMENT]);
	json_u64(&j, "no_change", (uint64_t)c->count[V_NO_CHANGE]);
	json_u64(&j, "insufficient", (uint64_t)c->count[V_INSUFFICIENT]);
	json_obj_close(&j);
	json_arr_open(&j, "notes");
	for (size_t i = 0; i < c->nnotes; i++)
		json_str(&j, NULL, c->notes[i]);
	json_arr_close(&j);
	json_obj_close(&j);
	json_end(&j);
	free(method);
}
