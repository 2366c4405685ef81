/* builtin/history_print.c - the history's table and JSON (history.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "builtin/history.h"
#include "lib/json.h"
#include "lib/metrics.h"

const char *history_pulse_verdict(const char *metric, const struct pulse *p)
{
	if (p->insufficient)
		return "insufficient";
	if (!metric_has_direction(metric))
		return "change";
	return (p->mean > p->mean_prev) == (metric_higher_better(metric) != 0) ? "improvement"
									  : "regression";
}

/* The table's mark of point i: a pulse, or one too few runs could not tell. */
static const char *pulse_mark(const struct series *s, size_t i)
{
	for (int k = 0; k < s->npulse; k++)
		if (s->pulse[k].index == i)
			return s->pulse[k].insufficient ? "  pulse? (insufficient)" : "  pulse";
	return "";
}

/*
 * One line a pulse: the variant, its verdict and size against the variant
 * before it, the variant that undid it and by how much, and how sure.
 */
static void print_pulses(const struct hist_opts *o, const struct series *s, FILE *f)
{
	int weak = 0;

	for (int k = 0; k < s->npulse; k++)
		weak += s->pulse[k].insufficient;
	fprintf(f, "%d pulse%s%s\n", s->npulse - weak, s->npulse - weak == 1 ? "" : "s",
		s->npulse - weak ? ":" : "");
	for (int k = 0; k < s->npulse; k++) {
		const struct pulse *p = &s->pulse[k];
		const char *v = history_pulse_verdict(o->metric, p), *undo;

		undo = !strcmp(v, "regression") ? "fixed" : !strcmp(v, "improvement") ? "lost" : "back";
		if (p->insufficient)
			continue;
		fprintf(f, "  #%zu %s: %s, %+.1f%% from %s (%.6g -> %.6g), %s in %s (%+.1f%%, %.6g);"
			" p %.2g, Holm over %zu variants; %zu, %zu and %zu runs\n", p->index,
			s->pt[p->index].label, v, (p->mean / p->mean_prev - 1) * 100,
			s->pt[p->prev].label, p->mean_prev, p->mean, undo, s->pt[p->next].label,
			(p->mean_next / p->mean - 1) * 100, p->mean_next, p->p_holm, p->tested,
			p->n_prev, p->n, p->n_next);
	}
	if (weak)
		fprintf(f, "%d variant%s differ%s from both neighbours, with too few runs to tell:\n", weak,
			weak == 1 ? "" : "s", weak == 1 ? "s" : "");
	for (int k = 0; k < s->npulse; k++) {
		const struct pulse *p = &s->pulse[k];

		if (p->insufficient)
			fprintf(f, "  #%zu %s: insufficient, %+.1f%% from %s and %+.1f%% to %s, but %zu,"
				" %zu and %zu runs (%d a variant are needed)\n", p->index,
				s->pt[p->index].label, (p->mean / p->mean_prev - 1) * 100,
				s->pt[p->prev].label, (p->mean_next / p->mean - 1) * 100,
				s->pt[p->next].label, p->n_prev, p->n, p->n_next, STATS_MIN_RUNS);
	}
}

void history_print_human(const struct hist_opts *o, const struct series *s, FILE *f)
{
	char z[32];
	int c = 0, lw = 32;

	for (size_t i = 0; i < s->n; i++)	/* a kernel variant with boot parameters can be long */
		if ((int)strlen(s->pt[i].label) > lw)
			lw = (int)strlen(s->pt[i].label);

	if (s->by_kernel)
		fprintf(f, "cell    %s\nmachine %s (%zu fingerprints: its kernels)\nmetric  %s, %zu kernel"
			" variants in Debian version order (median of each kernel's runs; change points"
			" tested on the runs)\n\n", s->cell, *s->name ? s->name : "(unnamed)",
			s->fingerprints, o->metric, s->n);
	else
		fprintf(f, "cell    %s\nmachine %s (fingerprint %s)\nmetric  %s, %zu %s\n\n", s->cell,
			*s->name ? s->name : "(unnamed)", s->fp, o->metric, s->n,
			s->per_night ? "nights (median of each night's runs; change points tested on the runs)"
				     : "runs");
	fprintf(f, "%5s  %-*s %-20s %4s %14s %7s\n", "#", lw,
		s->by_kernel ? "kernel" : s->per_night ? "night" : "run", "started", "runs", "value", "z");
	for (size_t i = 0; i < s->n; i++) {
		const struct point *p = &s->pt[i];
		int is_cp = c < s->ncp && s->cp[c].index == i, alarm = fabs(s->z[i]) >= STATS_Z_LIMIT;

		if (is_cp)
			fprintf(f, "%5s  ---- change point on %s: %.6g -> %.6g (%+.1f%%), p %.2g ----\n", "",
				*s->name ? s->name : "(unnamed)",
				s->cp[c].mean_before, s->cp[c].mean_after,
				(s->cp[c].mean_after / s->cp[c].mean_before - 1) * 100, s->cp[c].p);
		c += is_cp;
		if (isnan(s->z[i]))
			snprintf(z, sizeof(z), "-");
		else
			snprintf(z, sizeof(z), "%.2f", s->z[i]);
		fprintf(f, "%5zu  %-*s %-20s %4zu %14.6g %7s%s%s\n", i, lw, p->label, p->date, p->n,
			p->value, z, alarm ? "  z-alarm" : "", pulse_mark(s, i));
	}
	fprintf(f, "\n%d change point%s", s->ncp, s->ncp == 1 ? "" : "s");
	for (int i = 0; i < s->ncp; i++)
		fprintf(f, "%s #%zu %s (%s)", i ? "," : ":", s->cp[i].index,
			s->pt[s->cp[i].index].label, s->pt[s->cp[i].index].date);
	fputc('\n', f);
	if (s->by_kernel)
		print_pulses(o, s, f);
	if (s->skipped)
		fprintf(f, "note: %zu runs have no value for '%s' and were skipped\n", s->skipped,
			o->metric);
	fputc('\n', f);
}

void history_cp_json(struct json *j, const struct series *s, int i, int with_series)
{
	const struct change_point *cp = &s->cp[i];

	json_obj_open(j, NULL);
	if (with_series) {
		json_str(j, "cell", s->cell);
		json_str(j, "machine", s->by_kernel ? NULL : s->fp);
		json_str(j, "machine_name", s->name);
	}
	json_u64(j, "index", cp->index);
	json_str(j, "label", s->pt[cp->index].label);
	json_str(j, "started_at", s->pt[cp->index].date);
	json_dbl(j, "mean_before", cp->mean_before);
	json_dbl(j, "mean_after", cp->mean_after);
	json_dbl(j, "change", cp->mean_after / cp->mean_before - 1);
	json_dbl(j, "p", cp->p);
	json_obj_close(j);
}

void history_pulse_json(struct json *j, const char *metric, const struct series *s, int i,
			int with_series)
{
	const struct pulse *p = &s->pulse[i];

	json_obj_open(j, NULL);
	if (with_series) {
		json_str(j, "cell", s->cell);
		json_str(j, "machine_name", s->name);
	}
	json_u64(j, "index", p->index);
	json_str(j, "label", s->pt[p->index].label);
	json_str(j, "verdict", history_pulse_verdict(metric, p));
	json_u64(j, "runs", p->n);
	json_dbl(j, "mean", p->mean);
	json_str(j, "previous", s->pt[p->prev].label);
	json_u64(j, "previous_runs", p->n_prev);
	json_dbl(j, "previous_mean", p->mean_prev);
	json_str(j, "next", s->pt[p->next].label);
	json_u64(j, "next_runs", p->n_next);
	json_dbl(j, "next_mean", p->mean_next);
	json_dbl(j, "change", p->mean / p->mean_prev - 1);
	json_dbl(j, "change_next", p->mean_next / p->mean - 1);
	json_dbl(j, "p", p->p);
	json_dbl(j, "p_holm", p->p_holm);
	json_u64(j, "variants_tested", p->tested);
	json_obj_close(j);
}

void history_series_json(struct json *j, const struct hist_opts *o, const struct series *s)
{
	json_obj_open(j, NULL);
	json_str(j, "cell", s->cell);
	json_str(j, "machine", s->by_kernel ? NULL : s->fp);
	json_str(j, "machine_name", s->name);
	json_str(j, "unit", s->by_kernel ? "kernel" : s->per_night ? "night" : "run");
	if (s->by_kernel)
		json_u64(j, "fingerprints", s->fingerprints);
	json_u64(j, "skipped_runs", s->skipped);
	json_arr_open(j, "points");
	for (size_t i = 0; i < s->n; i++) {
		json_obj_open(j, NULL);
		json_u64(j, "index", i);
		json_str(j, "label", s->pt[i].label);
		json_str(j, "started_at", s->pt[i].date);
		json_u64(j, "runs", s->pt[i].n);
		json_dbl(j, "value", s->pt[i].value);
		json_dbl(j, "z", s->z[i]);
		json_bool(j, "z_alarm", fabs(s->z[i]) >= STATS_Z_LIMIT);
		json_obj_close(j);
	}
	json_arr_close(j);
	json_arr_open(j, "change_points");
	for (int i = 0; i < s->ncp; i++)
		history_cp_json(j, s, i, 0);
	json_arr_close(j);
	if (s->by_kernel) {
		json_arr_open(j, "pulses");
		for (int i = 0; i < s->npulse; i++)
			history_pulse_json(j, o->metric, s, i, 0);
		json_arr_close(j);
	}
	json_obj_close(j);
}

void history_method_json(struct json *j, const struct hist_opts *o)
{
	json_obj_open(j, "method");
	if (o->by_kernel)
		json_str(j, "order", "kernel variant: Debian version as dpkg orders it, then the plain"
			 " kernel before its flavours (by name), then no boot parameters before any (by"
			 " text); runs of one variant by start time");
	json_str(j, "change_points", "e-divisive means (alpha 1), windowed, Welch t-test "
		 "significance, neighbours re-tested (Hunter/Otava)");
	json_u64(j, "window", o->window);
	json_dbl(j, "p_threshold", o->pvalue);
	json_dbl(j, "min_change", o->min_change);
	json_u64(j, "min_segment", STATS_CP_MIN_SEG);
	if (o->by_kernel) {
		json_str(j, "pulses", "each variant's runs against each neighbour's (Welch t-test), both"
			 " must differ the same way by min_change; p the larger of the two, Holm-adjusted"
			 " over the variants tested, below p_threshold; a variant or neighbour with fewer"
			 " than pulse_min_runs runs: insufficient");
		json_u64(j, "pulse_min_runs", STATS_MIN_RUNS);
	}
	json_str(j, "alarm", "lookback z-score (Conbench)");
	json_dbl(j, "z_limit", STATS_Z_LIMIT);
	json_u64(j, "z_lookback", STATS_Z_LOOKBACK);
	json_u64(j, "z_min_prior", STATS_Z_MIN_PRIOR);
	json_obj_close(j);
}

