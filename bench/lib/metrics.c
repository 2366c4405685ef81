/* lib/metrics.c - the metric registry's rows (lib/metrics.h) and their names. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "lib/log.h"
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

int metric_level_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.';
}

int metric_level_event(const char *name)
{
	static const char pre[] = "model-", suf[] = "-misses";
	size_t l = strlen(name), k;

	if (l <= strlen(pre) + strlen(suf) || strncmp(name, pre, strlen(pre)) ||
	    strcmp(name + l - strlen(suf), suf))
		return 0;
	for (k = strlen(pre); k < l - strlen(suf); k++)
		if (!metric_level_name_char(name[k]))
			return 0;
	return 1;
}

int metric_restates(const char *name)
{
	int id = metric_find(name);

	return id >= 0 ? metric_defs[id].kind == KIND_ESTIMATE : metric_level_event(name);
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
		[KIND_DERIVED] = "derived", [KIND_ESTIMATE] = "estimate",
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

/* Single-character edits (insert, delete, replace) from a to b; names past 63 characters count as cut there. */
static size_t edits(const char *a, const char *b)
{
	size_t la = strnlen(a, 63), lb = strnlen(b, 63), row[64];

	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

const char *metric_nearest(const char *name, const char *const *have, size_t n)
{
	const char *best = NULL;
	size_t most = strlen(name) / 3, bd = most + 1;

	for (size_t i = 0; i < MET_N + n; i++) {
		const char *cand = i < MET_N ? metric_defs[i].name : have[i - MET_N];
		size_t d = edits(name, cand);

		if (d < bd) {
			bd = d;
			best = cand;
		}
	}
	return best;
}

int metric_check(const char *who, const char *name, const char *const *have, size_t n)
{
	char list[512];
	size_t len = 0, shown = 0, other = 0;
	const char *near;

	if (metric_find(name) >= 0)
		return 1;
	for (size_t i = 0; i < n; i++)
		if (strcmp(have[i], name) == 0)
			return 1;
	list[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (metric_find(have[i]) >= 0)
			continue;
		other++;
		if (len + strlen(have[i]) + 16 < sizeof(list)) {
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", shown ? ", " : "", have[i]);
			shown++;
		}
	}
	if (other > shown)
		snprintf(list + len, sizeof(list) - len, ", ... (%zu more)", other - shown);
	if (other)
		error("%s: --metric '%s': no such metric (sgabench metrics lists them; the selected runs also have: %s)",
		      who, name, list);
	else
		error("%s: --metric '%s': no such metric (sgabench metrics lists them; the selected runs have no other)",
		      who, name);
	near = metric_nearest(name, have, n);
	if (near)
		hint("did you mean '%s'?", near);
	else
		hint("'sgabench metrics --names' lists the registry; an event counts when a selected run stored it");
	return 0;
}
