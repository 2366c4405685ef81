/*
 * output/windows.c - the per-window values of a run (run --windows,
 * --min-window) in JSON and CSV: each window's timing, accesses and
 * counters per task, and the median and spread over windows that the
 * run's metrics hold.
 */
#include <math.h>
#include <stdlib.h>
#include "lib/json.h"
#include "lib/metrics.h"
#include "output/output.h"
#include "output/windows.h"

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The three rates the run's metrics take the median of: a window's values carry their names. */
static const enum metric_id rate_id[3] = { MET_WINDOW_S, MET_ACCESSES_PER_S, MET_ACCESSES_PER_CPU_S };

/* The registry name of rate k. */
static const char *rate_name(int k)
{
	return metric_defs[rate_id[k]].name;
}

/* Rate k of window rates wr (NAN when not known). */
static double rate_of(const struct window_rates *wr, int k)
{
	return k == 0 ? wr->window_s : k == 1 ? wr->per_s : wr->per_cpu_s;
}

/*
 * Median and spread ((max - min) / median) of rate k over r's windows into
 * *med and *spread; both NAN when any window lacks it or the median is 0.
 */
static void rate_summary(const struct run_result *r, int tc, int k, double *med, double *spread)
{
	double *x = malloc(r->nwindows * sizeof(*x)), mn = INFINITY, mx = -INFINITY;

	*med = *spread = NAN;
	if (!x)
		return;
	for (unsigned w = 0; w < r->nwindows; w++) {
		struct window_rates wr;

		result_window_rates(r, w, tc, &wr);
		x[w] = rate_of(&wr, k);
		if (isnan(x[w])) {
			free(x);
			return;
		}
		mn = x[w] < mn ? x[w] : mn;
		mx = x[w] > mx ? x[w] : mx;
	}
	qsort(x, r->nwindows, sizeof(*x), cmp_dbl);
	*med = r->nwindows % 2 ? x[r->nwindows / 2] : (x[r->nwindows / 2 - 1] + x[r->nwindows / 2]) / 2;
	if (*med > 0)
		*spread = (mx - mn) / *med;
	free(x);
}

/* Write v as a JSON number, or null when NAN. */
static void dbl_or_null(struct json *j, const char *key, double v)
{
	if (isnan(v))
		json_null(j, key);
	else
		json_dbl(j, key, v);
}

/* One window's object: its rates, the event totals over tasks, each task's values. */
static void window_json(struct json *j, const struct run_result *r, int tc, unsigned w)
{
	const struct window_result *row = &r->win[(size_t)w * r->ntasks];
	struct window_rates wr;

	result_window_rates(r, w, tc, &wr);
	json_obj_open(j, NULL);
	json_u64(j, "window", w);
	json_dbl(j, rate_name(0), wr.window_s);
	json_dbl(j, "accesses", wr.accesses);
	json_dbl(j, rate_name(1), wr.per_s);
	dbl_or_null(j, rate_name(2), wr.per_cpu_s);
	json_obj_open(j, "totals");
	for (unsigned e = 0; e < r->nevents; e++) {
		double s = 0;
		int ok = 1;

		for (unsigned t = 0; t < r->ntasks && ok; t++) {
			ok = row[t].ev[e].state == EV_COUNTED;
			s += row[t].ev[e].value;
		}
		dbl_or_null(j, r->events[e], ok ? s : NAN);
	}
	json_obj_close(j);
	json_arr_open(j, "tasks");
	for (unsigned t = 0; t < r->ntasks; t++) {
		json_obj_open(j, NULL);
		json_u64(j, "task", t);
		json_u64(j, "accesses", row[t].accesses);
		json_u64(j, "window_ns", row[t].window_ns);
		json_obj_open(j, "events");
		for (unsigned e = 0; e < r->nevents; e++)
			output_ev_json(j, r->events[e], &row[t].ev[e]);
		json_obj_close(j);
		json_obj_close(j);
	}
	json_arr_close(j);
	json_obj_close(j);
}

void output_windows_json(struct json *j, const struct run_result *r)
{
	int tc = result_event_index(r, "task-clock");
	double med[3], spread[3];

	if (!r->nwindows || !r->win) {
		json_null(j, "windows");
		return;
	}
	for (int k = 0; k < 3; k++)
		rate_summary(r, tc, k, &med[k], &spread[k]);
	json_obj_open(j, "windows");
	json_u64(j, "count", r->nwindows);
	json_obj_open(j, "median");
	for (int k = 0; k < 3; k++)
		dbl_or_null(j, rate_name(k), med[k]);
	json_obj_close(j);
	json_obj_open(j, "spread");
	for (int k = 0; k < 3; k++)
		dbl_or_null(j, rate_name(k), spread[k]);
	json_obj_close(j);
	json_arr_open(j, "list");
	for (unsigned w = 0; w < r->nwindows; w++)
		window_json(j, r, tc, w);
	json_arr_close(j);
	json_obj_close(j);
}

/* One CSV value row: TASK,event,value,raw,enabled_ns,running_ns,missing. */
static void csv_row(FILE *f, unsigned w, const char *task, const char *event, const struct ev_value *x)
{
	char nb[32];

	fprintf(f, "w%u:%s,", w, task);
	output_csv_field(f, event);
	if (x->state == EV_COUNTED)
		fprintf(f, ",%s,%llu,%llu,%llu,\n", dbl_shortest(nb, sizeof(nb), x->value),
			(unsigned long long)x->raw, (unsigned long long)x->enabled, (unsigned long long)x->running);
	else
		fprintf(f, ",,,%llu,%llu,%s\n", (unsigned long long)x->enabled,
			(unsigned long long)x->running, ev_state_name(x->state));
}

void output_windows_csv(FILE *f, const struct run_result *r)
{
	char nb[32];
	int tc = result_event_index(r, "task-clock");

	for (unsigned w = 0; r->win && w < r->nwindows; w++) {
		const struct window_result *row = &r->win[(size_t)w * r->ntasks];
		struct window_rates wr;
		char task[16];

		for (unsigned t = 0; t < r->ntasks; t++) {
			snprintf(task, sizeof(task), "%u", t);
			fprintf(f, "w%u:%u,accesses,%llu,,,,\n", w, t, (unsigned long long)row[t].accesses);
			fprintf(f, "w%u:%u,window_ns,%llu,,,,\n", w, t, (unsigned long long)row[t].window_ns);
			for (unsigned e = 0; e < r->nevents; e++)
				csv_row(f, w, task, r->events[e], &row[t].ev[e]);
		}
		result_window_rates(r, w, tc, &wr);
		for (int k = 0; k < 3; k++)
			if (!isnan(rate_of(&wr, k)))
				fprintf(f, "w%u:run,%s,%s,,,,\n", w, rate_name(k),
					dbl_shortest(nb, sizeof(nb), rate_of(&wr, k)));
	}
}
