/* output.c - human, JSON and CSV writers for one run. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lib/json.h"
#include "lib/metrics.h"
#include "output/output.h"
#include "lib/parse.h"
#include "machine/perf.h"
#include "machine/perf_mux.h"
#include "output/envelope.h"
#include "output/windows.h"
#include "store/store.h"

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* min, median and max of event e over the tasks; 0 if any task lacks it. */
static int task_spread(const struct run_result *r, unsigned e, double *mn, double *md, double *mx)
{
	double *v = malloc(r->ntasks * sizeof(*v));

	if (!v || !r->ntasks) {
		free(v);
		return -1;
	}
	for (unsigned t = 0; t < r->ntasks; t++) {
		if (r->task[t].ev[e].state != EV_COUNTED) {
			free(v);
			return -1;
		}
		v[t] = r->task[t].ev[e].value;
	}
	qsort(v, r->ntasks, sizeof(*v), cmp_dbl);
	*mn = v[0];
	*mx = v[r->ntasks - 1];
	*md = r->ntasks % 2 ? v[r->ntasks / 2] : (v[r->ntasks / 2 - 1] + v[r->ntasks / 2]) / 2;
	free(v);
	return 0;
}

/* The worst running/enabled ratio of event e over tasks (1 when not multiplexed). */
static double mux_ratio(const struct run_result *r, unsigned e)
{
	double worst = 1;

	for (unsigned t = 0; t < r->ntasks; t++) {
		const struct ev_value *v = &r->task[t].ev[e];

		if (v->state == EV_COUNTED && v->enabled && v->running < v->enabled) {
			double q = (double)v->running / (double)v->enabled;

			if (q < worst)
				worst = q;
		}
	}
	return worst;
}

/* The first missing state of event e among tasks, EV_COUNTED if none. */
static int first_missing(const struct run_result *r, unsigned e)
{
	for (unsigned t = 0; t < r->ntasks; t++)
		if (r->task[t].ev[e].state != EV_COUNTED)
			return r->task[t].ev[e].state;
	return EV_COUNTED;
}



/*
 * A measured window shorter than this is too short to time: the tasks'
 * start and stop skew and the counters' enabling are a visible part of
 * it. The nightly's windows last at least 100 ms (--min-window).
 */
#define WINDOW_TIMED_S 0.01

/* Print t seconds with a unit that keeps 3 or more digits: s, ms or us. */
static void fmt_secs(char *b, size_t len, double t)
{
	if (t != 0 && fabs(t) < 1e-3)
		snprintf(b, len, "%.3g us", t * 1e6);
	else if (t != 0 && fabs(t) < 1)
		snprintf(b, len, "%.4g ms", t * 1e3);
	else
		snprintf(b, len, "%.4f s", t);
}

/* Print run metric m with its unit and meaning (lib/metrics.h); short_window:
 * the window was too short to time, so a rate over it is no speed. */
static void human_metric(FILE *f, const struct metric *m, int short_window)
{
	const struct metric_def *d = &metric_defs[m->id];
	const char *what = d->meaning, *unit = d->kcidb_unit;
	double x = m->value;
	char b[48], s[32];

	if (strcmp(d->unit, "B") == 0 && x >= 0 && fmod(x, 1024) == 0)
		snprintf(b, sizeof(b), "%s", fmt_size((uint64_t)x, s, sizeof(s)));
	else if (strcmp(d->unit, "B") == 0 && x < 0 && fmod(-x, 1024) == 0)
		snprintf(b, sizeof(b), "-%s", fmt_size((uint64_t)-x, s, sizeof(s)));
	else if (strcmp(d->unit, "s") == 0)
		fmt_secs(b, sizeof(b), x);
	else if (x == floor(x) && fabs(x) < 1e15)
		snprintf(b, sizeof(b), "%.0f %s", x, unit);
	else
		snprintf(b, sizeof(b), "%.4g %s", x, unit);
	if (short_window && m->id == MET_ACCESSES_PER_S)
		what = "accesses / a window too short to time: not a speed (see below)";
	fprintf(f, "  %-31s %20s   %s\n", d->name, b, what);
}

/* After a scaled event's row: how much of the time it was counted, over how many slices. */
static void human_mux(FILE *f, const struct run_result *r, unsigned e)
{
	struct perf_mux m;

	fprintf(f, "  multiplexed: counted %.0f%% of the time, scaled", mux_ratio(r, e) * 100);
	if (perf_mux_event(r, e, &m) || m.trust == TRUST_EXACT)
		return;
	if (!isnan(m.rotations))
		fprintf(f, ", %.0f rotations", m.rotations);
	else
		fprintf(f, ", rotations unknown (no multiplexing interval: %s)",
			r->mux_interval_missing[0] ? r->mux_interval_missing : "unknown");
	if (m.trust == TRUST_FEW_ROTATIONS)
		fprintf(f, " (under %d: not to be trusted)", PERF_MUX_MIN_ROTATIONS);
}

/*
 * How far to trust event e's value (machine/perf_mux.h, as run and show
 * judge it): its least trusted task reading's verdict, the share of the
 * time it was counted, and the rotations it was counted over, or why they
 * are unknown (the run's missing multiplexing interval). No nulls: a key
 * is left out instead, as in config.
 */
void json_mux_event(struct json *j, const struct run_result *r, unsigned e)
{
	struct perf_mux m;

	if (perf_mux_event(r, e, &m))
		return;
	json_obj_open(j, "multiplexing");
	json_str(j, "trust", perf_trust_name(m.trust));
	json_dbl(j, "running_ratio", m.ratio);
	if (isnan(m.rotations))
		json_str(j, "rotations_missing", r->mux_interval_missing[0] ? r->mux_interval_missing
									     : "unknown");
	else
		json_dbl(j, "rotations", m.rotations);
	json_u64(j, "min_rotations", PERF_MUX_MIN_ROTATIONS);
	json_obj_close(j);
}

/*
 * The JSON "multiplexing" object: for every event counted in all tasks,
 * its least trusted task reading (perf_mux.h): running/enabled, the
 * slices it was counted in (null when the interval is unknown) and the
 * verdict; and the PMU's interval, or null and why it is not known
 * (run_result.mux_interval_missing). A stored run gives the same object
 * as the run did (schema 7 keeps the interval and its reason).
 */
static void json_mux(struct json *j, const struct run_result *r)
{
	json_obj_open(j, "multiplexing");
	if (r->mux_interval_ms > 0) {
		json_dbl(j, "interval_ms", r->mux_interval_ms);
		json_null(j, "interval_missing");
	} else {
		json_null(j, "interval_ms");
		json_str(j, "interval_missing",
			 r->mux_interval_missing[0] ? r->mux_interval_missing : "unknown");
	}
	json_u64(j, "min_rotations", PERF_MUX_MIN_ROTATIONS);
	json_obj_open(j, "events");
	for (unsigned e = 0; e < r->nevents; e++) {
		struct perf_mux m;

		if (perf_mux_event(r, e, &m))
			continue;
		json_obj_open(j, r->events[e]);
		json_dbl(j, "running_ratio", m.ratio);
		if (isnan(m.rotations))
			json_null(j, "rotations");
		else
			json_dbl(j, "rotations", m.rotations);
		json_str(j, "trust", perf_trust_name(m.trust));
		json_obj_close(j);
	}
	json_obj_close(j);
	json_obj_close(j);
}

void output_human(FILE *f, const struct run_view *v)
{
	const struct run_result *r = v->res;
	int header = 0;
	double win = -1;	/* window-s when too short to time, else -1 */

	fprintf(f, "run %s  %s  %s", r->uuid, r->backend, r->status);
	if (v->run_id)
		fprintf(f, "  (stored in %s as run %lld)", v->db, (long long)v->run_id);
	fputc('\n', f);
	if (v->describe)
		fprintf(f, "  %s\n", v->describe);
	fprintf(f, "  machine %s%s%s%s, seed %llu, %.3f s in all\n", v->machine_name ? v->machine_name : "",
		v->machine_name ? " (fingerprint " : "", v->fingerprint, v->machine_name ? ")" : "",
		(unsigned long long)r->seed, r->wall_s);
	if (v->kernel_variant)
		fprintf(f, "  kernel %s\n", v->kernel_variant);
	if (r->reason[0])
		fprintf(f, "  failed: %s\n", r->reason);
	for (unsigned e = 0; e < r->nevents; e++) {
		double total = 0, mn = 0, md = 0, mx = 0;

		if (first_missing(r, e) != EV_COUNTED)
			continue;
		if (!header) {
			fprintf(f, "\n  %-24s %-12s %16s %14s %14s %14s\n", "event (window)", "unit", "total",
				"task min", "task median", "task max");
			header = 1;
		}
		result_event_total(r, e, &total);
		task_spread(r, e, &mn, &md, &mx);
		fprintf(f, "  %-24s %-12s %16.0f %14.0f %14.0f %14.0f", r->events[e], metric_event_unit(r->events[e]),
			total, mn, md, mx);
		if (mux_ratio(r, e) < 0.99)
			human_mux(f, r, e);
		fputc('\n', f);
	}
	for (unsigned e = 0; e < r->nevents; e++) {
		int st = first_missing(r, e);

		if (st != EV_COUNTED && r->ntasks)
			fprintf(f, "  %s: %s\n", r->events[e], perf_state_text(st));
	}
	if (v->groups && v->groups[0])
		fprintf(f, "  grouped: %s (each group read as one: its members share enabled and running)\n",
			v->groups);
	for (unsigned m = 0; m < r->nmetrics; m++)
		if (r->metric[m].id == MET_WINDOW_S && r->metric[m].value < WINDOW_TIMED_S)
			win = r->metric[m].value;
	if (r->nmetrics)
		fprintf(f, "\n  %-31s %20s   %s\n", "run metric", "value", "meaning");
	for (unsigned m = 0; m < r->nmetrics; m++)
		human_metric(f, &r->metric[m], win >= 0);
	for (unsigned m = 0; m < r->nmissing; m++)
		fprintf(f, "  %-31s %20s   not measured: %s\n", metric_defs[r->missing[m].id].name, "-",
			r->missing[m].reason);
	if (win >= 0) {
		char b[32];

		fmt_secs(b, sizeof(b), win);
		fprintf(f, "\n  the measured window lasted %s, too short to time (under %.0f ms):\n"
			"  accesses-per-s says nothing about speed; for a window that means something\n"
			"  give --min-window 100ms (as the nightly does) or more --rounds\n",
			b, WINDOW_TIMED_S * 1e3);
	}
}

void output_ev_json(struct json *j, const char *key, const struct ev_value *v)
{
	json_obj_open(j, key);
	if (v->state == EV_COUNTED) {
		json_dbl(j, "value", v->value);
		json_u64(j, "raw", v->raw);
	} else {
		json_null(j, "value");
		json_null(j, "raw");
	}
	json_u64(j, "enabled_ns", v->enabled);
	json_u64(j, "running_ns", v->running);
	json_str(j, "missing", ev_state_name(v->state));
	json_obj_close(j);
}

void output_json(FILE *f, const struct run_view *v)
{
	const struct run_result *r = v->res;
	const struct run_meta *m = v->meta;
	struct json j;

	json_init(&j, f, 1);
	json_obj_open(&j, NULL);
	envelope_json(&j, v->si, v->command);
	json_str(&j, "machine_fingerprint", v->fingerprint);
	if (v->machine_name)
		json_str(&j, "machine_name", v->machine_name);
	json_str(&j, "kernel_variant", v->kernel_variant);
	if (v->run_id)
		json_i64(&j, "run_id", v->run_id);
	else
		json_null(&j, "run_id");
	json_str(&j, "uuid", r->uuid);
	json_str(&j, "db", v->db);
	json_str(&j, "backend", r->backend);
	json_str(&j, "status", r->status);
	json_str(&j, "reason", r->reason[0] ? r->reason : NULL);
	json_str(&j, "started_at", r->started_at);
	json_str(&j, "boot_id", r->boot_id[0] ? r->boot_id : NULL);
	json_dbl(&j, "wall_s", r->wall_s);
	json_u64(&j, "seed", r->seed);
	json_str(&j, "cell", m->cell);
	json_str(&j, "label", m->label);
	json_raw(&j, "config", m->config_json);
	json_str(&j, "groups", v->groups && v->groups[0] ? v->groups : NULL);
	if (v->machine_json)
		json_raw(&j, "machine", v->machine_json);
	json_obj_open(&j, "totals");
	for (unsigned e = 0; e < r->nevents; e++) {
		double total;

		if (result_event_total(r, e, &total) == 0)
			json_dbl(&j, r->events[e], total);
		else
			json_null(&j, r->events[e]);
	}
	json_obj_close(&j);
	json_obj_open(&j, "missing");
	for (unsigned e = 0; e < r->nevents; e++) {
		int st = first_missing(r, e);

		if (st != EV_COUNTED)
			json_str(&j, r->events[e], ev_state_name(st));
	}
	for (unsigned i = 0; i < r->nmissing; i++)
		json_str(&j, metric_defs[r->missing[i].id].name, r->missing[i].reason);
	json_obj_close(&j);
	json_mux(&j, r);
	json_obj_open(&j, "metrics");
	for (unsigned i = 0; i < r->nmetrics; i++)
		json_dbl(&j, r->metric[i].name, r->metric[i].value);
	json_obj_close(&j);
	json_arr_open(&j, "tasks");
	for (unsigned t = 0; t < r->ntasks; t++) {
		const struct task_result *tr = &r->task[t];

		json_obj_open(&j, NULL);
		json_u64(&j, "task", t);
		if (tr->cpu >= 0)
			json_i64(&j, "cpu", tr->cpu);
		else
			json_null(&j, "cpu");
		json_u64(&j, "accesses", tr->accesses);
		json_u64(&j, "window_ns", tr->window_ns);
		if (tr->vmpte_kb >= 0)
			json_i64(&j, "vmpte_kb", tr->vmpte_kb);
		else
			json_null(&j, "vmpte_kb");
		if (tr->first_touch_faults >= 0)
			json_i64(&j, "first_touch_faults", tr->first_touch_faults);
		else
			json_null(&j, "first_touch_faults");
		json_obj_open(&j, "events");
		for (unsigned e = 0; e < r->nevents; e++)
			output_ev_json(&j, r->events[e], &tr->ev[e]);
		json_obj_close(&j);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	output_windows_json(&j, r);
	json_obj_close(&j);
	json_end(&j);
}

void output_csv_field(FILE *f, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void output_csv(FILE *f, const struct run_view *v)
{
	char nb[32];
	const struct run_result *r = v->res;

	envelope_csv(f, v->si, v->command);
	/* the run's id, or none when it was not stored (JSON's null) */
	fprintf(f, "# machine_fingerprint=%s run_id=", v->fingerprint);
	if (v->run_id)
		fprintf(f, "%lld", (long long)v->run_id);
	fprintf(f, " uuid=%s backend=%s status=%s\n", r->uuid, r->backend, r->status);
	/* what ran: the cell (every setting that changes the result, the
	   design's --tlb among them) and the label, as JSON's cell and label */
	fprintf(f, "# cell=%s\n# label=%s\n", v->meta && v->meta->cell ? v->meta->cell : "",
		v->meta && v->meta->label ? v->meta->label : "");
	if (v->groups && v->groups[0])
		fprintf(f, "# groups=%s\n", v->groups);
	fprintf(f, "task,event,value,raw,enabled_ns,running_ns,missing\n");
	for (unsigned t = 0; t < r->ntasks; t++) {
		for (unsigned e = 0; e < r->nevents; e++) {
			const struct ev_value *x = &r->task[t].ev[e];

			fprintf(f, "%u,", t);
			output_csv_field(f, r->events[e]);
			if (x->state == EV_COUNTED)
				fprintf(f, ",%s,%llu,%llu,%llu,\n", dbl_shortest(nb, sizeof(nb), x->value),
					(unsigned long long)x->raw, (unsigned long long)x->enabled,
					(unsigned long long)x->running);
			else
				fprintf(f, ",,,%llu,%llu,%s\n", (unsigned long long)x->enabled,
					(unsigned long long)x->running, ev_state_name(x->state));
		}
	}
	for (unsigned e = 0; e < r->nevents; e++) {
		double total;

		fprintf(f, "total,");
		output_csv_field(f, r->events[e]);
		if (result_event_total(r, e, &total) == 0)
			fprintf(f, ",%s,,,,\n", dbl_shortest(nb, sizeof(nb), total));
		else
			fprintf(f, ",,,,,%s\n", ev_state_name(first_missing(r, e)));
	}
	for (unsigned i = 0; i < r->nmetrics; i++) {
		fprintf(f, "run,");
		output_csv_field(f, r->metric[i].name);
		fprintf(f, ",%s,,,,\n", dbl_shortest(nb, sizeof(nb), r->metric[i].value));
	}
	for (unsigned i = 0; i < r->nmissing; i++) {
		fprintf(f, "run,");
		output_csv_field(f, metric_defs[r->missing[i].id].name);
		fprintf(f, ",,,,,%s\n", r->missing[i].reason);
	}
	output_windows_csv(f, r);
}
