/* window.c - calibration, per-task totals and medians over the measured windows. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "native/window.h"

int window_parse_time(const char *s, uint64_t *ns)
{
	static const struct { const char *unit; double scale; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	char *end;
	double v;

	if (!s || !*s || *s == '-' || *s == '+')
		return -EINVAL;
	v = strtod(s, &end);
	if (end == s || !isfinite(v) || v < 0)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(end, units[i].unit) == 0) {
			double x = v * units[i].scale;

			if (x > 3600e9)
				return -EINVAL;
			*ns = (uint64_t)llround(x);
			return 0;
		}
	return -EINVAL;
}

char *window_fmt_time(uint64_t ns, char *buf, size_t len)
{
	if (ns && ns % 1000000000ull == 0)
		snprintf(buf, len, "%llus", (unsigned long long)(ns / 1000000000ull));
	else if (ns && ns % 1000000ull == 0)
		snprintf(buf, len, "%llums", (unsigned long long)(ns / 1000000ull));
	else if (ns && ns % 1000ull == 0)
		snprintf(buf, len, "%lluus", (unsigned long long)(ns / 1000ull));
	else
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	return buf;
}

uint64_t window_next_reps(uint64_t reps, uint64_t max_ns, uint64_t target_ns, uint64_t cap,
			  int *done)
{
	double want;

	*done = 0;
	if (reps >= cap) {
		*done = 1;
		return cap;
	}
	if (max_ns * 2 < target_ns) {
		double grow = max_ns ? (double)target_ns / 2 / (double)max_ns * 1.2 : 100;

		if (grow < 2)
			grow = 2;
		if (grow > 100)
			grow = 100;
		want = ceil((double)reps * grow);
	} else {
		*done = 1;
		want = ceil((double)reps * (double)target_ns * WINDOW_MARGIN / (double)max_ns);
	}
	if (want < 1)
		want = 1;
	return want >= (double)cap ? cap : (uint64_t)want;
}

void window_task_total(const struct window_result *win, unsigned nwin, unsigned ntasks,
		       unsigned t, unsigned nev, struct task_result *tr)
{
	tr->accesses = 0;
	tr->window_ns = 0;
	memset(tr->ev, 0, sizeof(tr->ev));
	for (unsigned w = 0; w < nwin; w++) {
		const struct window_result *wr = &win[(size_t)w * ntasks + t];

		tr->accesses += wr->accesses;
		tr->window_ns += wr->window_ns;
		for (unsigned e = 0; e < nev; e++) {
			struct ev_value *v = &tr->ev[e];

			v->raw += wr->ev[e].raw;
			v->enabled += wr->ev[e].enabled;
			v->running += wr->ev[e].running;
			v->value += wr->ev[e].value;
			if (v->state == EV_COUNTED && wr->ev[e].state != EV_COUNTED)
				v->state = wr->ev[e].state;
		}
	}
	for (unsigned e = 0; e < nev; e++)
		if (tr->ev[e].state != EV_COUNTED)
			tr->ev[e].value = 0;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sort x[0..n-1] and return its median (n >= 1). */
static double sorted_median(double *x, unsigned n)
{
	qsort(x, n, sizeof(*x), cmp_dbl);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/*
 * The largest result_task_rate over r's tasks and windows (tc is
 * task-clock's event index); NAN when any task window lacks one.
 */
static double best_task_rate(const struct run_result *r, int tc)
{
	double best = 0;

	for (unsigned w = 0; w < r->nwindows; w++)
		for (unsigned t = 0; t < r->ntasks; t++) {
			double x = result_task_rate(r, w, t, tc);

			if (isnan(x))
				return NAN;
			if (x > best)
				best = x;
		}
	return best;
}

void window_metrics(struct run_result *r)
{
	unsigned n = r->nwindows;
	double *ws = calloc(3 * (size_t)n, sizeof(*ws)), *aps, *apc, mws, maps;
	int tc = result_event_index(r, "task-clock"), cpu_ok = tc >= 0;

	if (!ws || !n) {
		free(ws);
		return;
	}
	aps = ws + n;
	apc = aps + n;
	for (unsigned w = 0; w < n; w++) {
		struct window_rates wr;

		result_window_rates(r, w, tc, &wr);
		ws[w] = wr.window_s;
		aps[w] = wr.per_s;
		apc[w] = wr.per_cpu_s;
		cpu_ok &= !isnan(wr.per_cpu_s);
	}
	if (cpu_ok) {
		double m = sorted_median(apc, n);

		result_set_metric(r, MET_ACCESSES_PER_CPU_S, m);
		if (m > 0)
			result_set_metric(r, MET_ACCESSES_PER_CPU_S_SPREAD, (apc[n - 1] - apc[0]) / m);
		m = best_task_rate(r, tc);
		if (!isnan(m))
			result_set_metric(r, MET_ACCESSES_PER_CPU_S_BEST, m);
	}
	mws = sorted_median(ws, n);
	maps = sorted_median(aps, n);
	result_set_metric(r, MET_WINDOWS, n);
	if (mws > 0) {
		result_set_metric(r, MET_WINDOW_S, mws);
		result_set_metric(r, MET_WINDOW_S_SPREAD, (ws[n - 1] - ws[0]) / mws);
	}
	if (maps > 0) {
		result_set_metric(r, MET_ACCESSES_PER_S, maps);
		result_set_metric(r, MET_ACCESSES_PER_S_SPREAD, (aps[n - 1] - aps[0]) / maps);
	}
	free(ws);
}
