/* result.c - helpers for run results shared by both backends. */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>
#include "lib/result.h"

static const char *const state_names[EV_NSTATES] = {
	[EV_COUNTED] = NULL,
	[EV_UNSUPPORTED] = "unsupported",
	[EV_PERMISSION] = "permission",
	[EV_NO_PMU] = "no-pmu",
	[EV_MULTIPLEXED_OUT] = "multiplexed-out",
	[EV_NOT_MODELLED] = "not-modelled",
	[EV_READS_ZERO] = "pmu-reads-zero",
	[EV_NO_DRIVER] = "no-driver",
};

const char *ev_state_name(int state)
{
	if (state < 0 || state >= EV_NSTATES)
		return "unknown";
	return state_names[state];
}

/* Forget the gap of id, if it has one. */
static void drop_gap(struct run_result *r, enum metric_id id)
{
	for (unsigned i = 0; i < r->nmissing; i++)
		if (r->missing[i].id == id) {
			r->missing[i] = r->missing[--r->nmissing];
			return;
		}
}

void result_set_metric_missing(struct run_result *r, enum metric_id id, const char *reason)
{
	assert(id >= 0 && id < MET_N);
	for (unsigned i = 0; i < r->nmetrics; i++)
		if (r->metric[i].id == id) {
			r->metric[i] = r->metric[--r->nmetrics];
			break;
		}
	drop_gap(r, id);
	r->missing[r->nmissing].id = id;
	snprintf(r->missing[r->nmissing++].reason, sizeof(r->missing[0].reason), "%s", reason);
}

int result_set_metric_missing_named(struct run_result *r, const char *name, const char *reason)
{
	int id = metric_find(name);

	if (id < 0)
		return -EINVAL;
	result_set_metric_missing(r, (enum metric_id)id, reason);
	return 0;
}

void result_set_metric(struct run_result *r, enum metric_id id, double value)
{
	assert(id >= 0 && id < MET_N);
	drop_gap(r, id);
	for (unsigned i = 0; i < r->nmetrics; i++) {
		if (r->metric[i].id == id) {
			r->metric[i].value = value;
			return;
		}
	}
	r->metric[r->nmetrics].id = id;
	r->metric[r->nmetrics].name = metric_defs[id].name;
	r->metric[r->nmetrics++].value = value;
}

int result_set_metric_named(struct run_result *r, const char *name, double value)
{
	int id = metric_find(name);

	if (id < 0)
		return -EINVAL;
	result_set_metric(r, (enum metric_id)id, value);
	return 0;
}

int result_get_metric(const struct run_result *r, enum metric_id id, double *value)
{
	for (unsigned i = 0; i < r->nmetrics; i++) {
		if (r->metric[i].id == id) {
			*value = r->metric[i].value;
			return 0;
		}
	}
	return -ENOENT;
}

int result_event_total(const struct run_result *r, unsigned e, double *sum)
{
	double s = 0;

	for (unsigned t = 0; t < r->ntasks; t++) {
		if (r->task[t].ev[e].state != EV_COUNTED)
			return r->task[t].ev[e].state;
		s += r->task[t].ev[e].value;
	}
	*sum = s;
	return 0;
}

int result_event_index(const struct run_result *r, const char *name)
{
	for (unsigned e = 0; e < r->nevents; e++)
		if (strcmp(r->events[e], name) == 0)
			return (int)e;
	return -1;
}

void result_window_rates(const struct run_result *r, unsigned w, int tc, struct window_rates *out)
{
	double longest = 0, acc = 0, cpu = 0;
	int cpu_ok = tc >= 0;

	for (unsigned t = 0; t < r->ntasks; t++) {
		const struct window_result *wr = &r->win[(size_t)w * r->ntasks + t];

		acc += (double)wr->accesses;
		if ((double)wr->window_ns > longest)
			longest = (double)wr->window_ns;
		if (cpu_ok && wr->ev[tc].state == EV_COUNTED)
			cpu += wr->ev[tc].value;
		else
			cpu_ok = 0;
	}
	out->window_s = longest / 1e9;
	out->accesses = acc;
	out->per_s = longest > 0 ? acc / (longest / 1e9) : 0;
	out->per_cpu_s = cpu_ok && cpu > 0 ? acc / (cpu / 1e9) : NAN;
}

double result_task_rate(const struct run_result *r, unsigned w, unsigned t, int tc)
{
	const struct window_result *wr = &r->win[(size_t)w * r->ntasks + t];

	if (tc < 0 || wr->ev[tc].state != EV_COUNTED || !(wr->ev[tc].value > 0))
		return NAN;
	return (double)wr->accesses / (wr->ev[tc].value / 1e9);
}

void result_stamp(struct run_result *r)
{
	unsigned char b[16];
	time_t now = time(NULL);
	struct tm tm;

	if (getrandom(b, sizeof(b), 0) != sizeof(b)) {
		/* Fall back to time and pid; uniqueness still holds per host. */
		uint64_t x = (uint64_t)now ^ ((uint64_t)getpid() << 32);

		for (int i = 0; i < 16; i++)
			b[i] = (unsigned char)(x >> ((i % 8) * 8)) ^ (unsigned char)(i * 37);
	}
	b[6] = (b[6] & 0x0f) | 0x40;
	b[8] = (b[8] & 0x3f) | 0x80;
	snprintf(r->uuid, sizeof(r->uuid),
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
		 b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
	gmtime_r(&now, &tm);
	strftime(r->started_at, sizeof(r->started_at), "%Y-%m-%dT%H:%M:%SZ", &tm);
}
