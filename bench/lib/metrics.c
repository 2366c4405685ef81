/* lib/metrics.c - the metric registry's rows (lib/metrics.h) and their names. */
#include <string.h>
#include "lib/metrics.h"

#define METRIC_DEF(e, n, u, d, k, nz, sc, ku, p, m) \
	[e] = { .name = n, .unit = u, .dir = d, .kind = k, .noise = nz, .scope = sc, \
		.kcidb_unit = ku, .plot = p, .meaning = m },
const struct metric_def metric_defs[MET_N] = { METRIC_ROWS(METRIC_DEF) };
#undef METRIC_DEF

int metric_find(const char *name)
{
	for (int i = 0; i < MET_N; i++)
		if (strcmp(metric_defs[i].name, name) == 0)
			return i;
	return -1;
}

int metric_higher_better(const char *name)
{
	int id = metric_find(name);

	return id >= 0 && metric_defs[id].dir == DIR_HIGHER;
}

int metric_has_direction(const char *name)
{
	int id = metric_find(name);

	return id < 0 || metric_defs[id].dir != DIR_NEITHER;
}

int metric_one_way(const char *name)
{
	int id = metric_find(name);

	return id >= 0 && metric_defs[id].noise == NOISE_ONE_WAY;
}

const char *metric_dir_name(enum metric_dir d)
{
	return d == DIR_HIGHER ? "higher" : d == DIR_LOWER ? "lower" : "neither";
}

const char *metric_kind_name(enum metric_kind k)
{
	static const char *const names[] = {
		[KIND_COUNT] = "count", [KIND_TIME] = "time", [KIND_RATE] = "rate",
		[KIND_DERIVED] = "derived",
	};

	return names[k];
}

const char *metric_noise_name(enum metric_noise n)
{
	return n == NOISE_ONE_WAY ? "one-way" : "both";
}

const char *metric_scope_name(enum metric_scope s)
{
	return s == SCOPE_LOAD ? "load" : s == SCOPE_SYSTEM ? "system" : "run";
}

const char *metric_plot_name(unsigned p)
{
	switch (p) {
	case PLOT_SCALING: return "scaling";
	case PLOT_SCALING_PER_TASK: return "scaling-per-task";
	case PLOT_HISTORY: return "history";
	case PLOT_FLEET: return "fleet";
	case PLOT_DESIGNS: return "designs";
	}
	return NULL;
}

const char *metric_event_unit(const char *e)
{
	if (strcmp(e, "task-clock") == 0 || strcmp(e, "cpu-clock") == 0)
		return "ns";
	if (strstr(e, "faults"))
		return "faults";
	if (strcmp(e, "context-switches") == 0)
		return "switches";
	if (strcmp(e, "cpu-migrations") == 0)
		return "migrations";
	if (strstr(e, "cycles"))
		return "cycles";
	if (strcmp(e, "instructions") == 0)
		return "instructions";
	return "events";
}
