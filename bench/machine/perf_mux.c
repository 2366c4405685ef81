/* machine/perf_mux.c - the trust of multiplexed estimates (perf_mux.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "lib/log.h"
#include "machine/perf_mux.h"

void perf_mux_judge(uint64_t enabled, uint64_t running, double interval_ms, struct perf_mux *out)
{
	out->ratio = enabled ? (double)running / (double)enabled : 1;
	out->rotations = interval_ms > 0 ? (double)running / (interval_ms * 1e6) : NAN;
	if (running >= enabled) {
		out->ratio = 1;
		out->trust = TRUST_EXACT;
	} else if (interval_ms <= 0)
		out->trust = TRUST_UNKNOWN;
	else if (out->rotations < PERF_MUX_MIN_ROTATIONS)
		out->trust = TRUST_FEW_ROTATIONS;
	else
		out->trust = TRUST_SCALED;
}

/* Whether a is less to be trusted than b: few rotations first, then unknown, then the fewest
 * slices (among exact readings too, so that an exact event's rotations are its least, not
 * the first task's). */
static int worse(const struct perf_mux *a, const struct perf_mux *b)
{
	static const int rank[] = { [TRUST_EXACT] = 0, [TRUST_SCALED] = 1, [TRUST_UNKNOWN] = 2,
				    [TRUST_FEW_ROTATIONS] = 3 };

	if (rank[a->trust] != rank[b->trust])
		return rank[a->trust] > rank[b->trust];
	if (!isnan(a->rotations) && !isnan(b->rotations) && a->rotations != b->rotations)
		return a->rotations < b->rotations;
	return a->ratio < b->ratio;
}

int perf_mux_event(const struct run_result *r, unsigned e, struct perf_mux *out)
{
	struct perf_mux m;

	perf_mux_judge(1, 1, r->mux_interval_ms, out);
	for (unsigned t = 0; t < r->ntasks; t++) {
		const struct ev_value *v = &r->task[t].ev[e];

		if (v->state != EV_COUNTED)
			return -1;
		perf_mux_judge(v->enabled, v->running, r->mux_interval_ms, &m);
		if (t == 0 || worse(&m, out))
			*out = m;
	}
	return 0;
}

const char *perf_trust_name(int trust)
{
	static const char *const names[] = { [TRUST_EXACT] = "exact", [TRUST_SCALED] = "scaled",
					     [TRUST_FEW_ROTATIONS] = "few-rotations",
					     [TRUST_UNKNOWN] = "unknown" };

	return trust >= 0 && trust <= TRUST_UNKNOWN ? names[trust] : "unknown";
}

double perf_mux_interval_ms(const char *pmu, const char **why)
{
	const char *knob = getenv("SGABENCH_TEST_MUX_INTERVAL");
	char path[256];
	FILE *f;
	double ms = 0;

	*why = NULL;
	if (knob && *knob) {
		snprintf(path, sizeof(path), "%s", knob);
	} else if (!pmu || !*pmu) {
		*why = "no-pmu";
		return 0;
	} else {
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/perf_event_mux_interval_ms",
			 pmu);
	}
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%lf", &ms) != 1 || !(ms > 0) || !isfinite(ms))
			ms = 0;
		fclose(f);
	}
	if (ms <= 0)
		*why = "unreadable";
	return ms;
}

void perf_mux_warn(const struct run_result *r)
{
	for (unsigned e = 0; e < r->nevents; e++) {
		struct perf_mux m;

		if (perf_mux_event(r, e, &m) == 0 && m.trust == TRUST_FEW_ROTATIONS)
			warning("'%s' is an estimate over %.1f rotations of the PMU (counted %.0f%% of "
				"the time; at least %d are needed to trust it): give a longer window "
				"(--min-window) or fewer events", r->events[e], m.rotations, m.ratio * 100,
				PERF_MUX_MIN_ROTATIONS);
	}
}
