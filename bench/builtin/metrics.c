/*
 * builtin/metrics.c - sgabench metrics: the metric registry (lib/metrics.h)
 * as a table, as JSON, or as names for the scripts (--names, --where);
 * and --check NAME...: whether each name is one a comparison can judge.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "builtin/builtin.h"
#include "lib/json.h"
#include "lib/log.h"
#include "lib/metrics.h"
#include "lib/opt.h"
#include "machine/perf.h"
#include "machine/sysinfo.h"
#include "model/model.h"
#include "output/envelope.h"

struct metrics_cfg {
	int json;
	int names;
	const char *where;
	int check;
	int any_level;
};

static const struct opt metrics_opts[] = {
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct metrics_cfg, json),
	  .help = "print the rows as JSON, after the envelope" },
	{ .name = "names", .type = OPT_FLAG, .off = offsetof(struct metrics_cfg, names),
	  .help = "print only the names, one a line (for the scripts)" },
	{ .name = "where", .type = OPT_STR, .off = offsetof(struct metrics_cfg, where),
	  .metavar = "FIELD=VALUE[,...]", .defhelp = "every row",
	  .help = "only rows whose FIELD (direction, kind, noise, scope, unit, kcidb_unit, plot) is VALUE; several, comma-separated: all of them" },
	{ .name = "check", .type = OPT_FLAG, .off = offsetof(struct metrics_cfg, check),
	  .help = "NAME...: exit 0 when each is a metric or an event a run can store, else 2 with a "
		  "'did you mean' (for a config's SWEEP_METRICS before its sweep)" },
	{ .name = "any-level", .type = OPT_FLAG, .off = offsetof(struct metrics_cfg, any_level),
	  .help = "with --check: take model-LEVEL-misses of any level name (a custom --tlb design's)" },
	{ NULL },
};

/* At most this many names to --check, and known names to hint from. */
#define CHECK_MAX 64
#define KNOWN_MAX 512

/*
 * The event names a run can store besides the registry's rows, into
 * have[] (strings in pool): perf's generic names, the model's plain
 * counters, and model-LEVEL-misses of every preset's levels and this
 * machine's own (sim --machine host). Returns how many.
 */
static size_t known_events(const struct sysinfo *si, const char **have, char (*pool)[64])
{
	struct model_machine host;
	char err[160];
	size_t n = 0, np = 0;
	const char *name;

	for (unsigned i = 0; (name = perf_generic_name(i)) && n < KNOWN_MAX; i++)
		have[n++] = name;
#define PLAIN_NAME(id, nm, meaning) if (n < KNOWN_MAX) have[n++] = nm;
	MODEL_PLAIN_COUNTERS(PLAIN_NAME)
#undef PLAIN_NAME
	for (int p = 0; p <= 0 || model_presets[p - 1]; p++) {
		const struct model_machine *m = model_presets[p];

		if (!m) {
			if (model_from_sysinfo(si, &host, err, sizeof(err)))
				break;
			m = &host;
		}
		for (unsigned k = 0; k < m->nlevels && n < KNOWN_MAX && np < KNOWN_MAX; k++) {
			snprintf(pool[np], sizeof(pool[np]), METRIC_LEVEL_EVENT_FMT, m->level[k].name);
			have[n++] = pool[np++];
		}
		if (m == &host)
			break;
	}
	return n;
}

/*
 * --check: whether each of names[0..n) is a registry metric, an event
 * known_events lists, one this CPU's perf or libpfm4 resolves (a raw
 * code, a PMU event an --events list may give), or with any_lvl a
 * model-LEVEL-misses. Prints each unknown one with the nearest name;
 * returns EX_OK or EX_USAGE.
 */
static int check_names(char **names, int n, int any_lvl)
{
	static char pool[KNOWN_MAX][64];
	const char *have[KNOWN_MAX];
	struct perf_spec spec;
	struct sysinfo si;
	int bad = 0;
	size_t nh;

	if (n < 1) {
		error("metrics: --check: which names");
		hint("e.g. sgabench metrics --check first-touch-faults dtlb-walks");
		return EX_USAGE;
	}
	sysinfo_collect(&si);
	nh = known_events(&si, have, pool);
	for (int i = 0; i < n; i++) {
		const char *name = names[i], *near;
		char err[256];
		unsigned ns = 0;
		int known = metric_find(name) >= 0 || (any_lvl && metric_level_event(name));

		for (size_t k = 0; k < nh && !known; k++)
			known = strcmp(have[k], name) == 0;
		if (!known && *name && !strpbrk(name, ",{}"))
			known = perf_resolve(name, &si, &spec, &ns, err, sizeof(err)) == 0;
		if (known)
			continue;
		bad = 1;
		error("metrics: '%s' is no metric, nor an event a run can store", name);
		near = metric_nearest(name, have, nh);
		if (near)
			hint("did you mean '%s'?", near);
		else
			hint("'sgabench metrics --names' lists the metrics; events are perf's generic names, "
			     "the model's counters and model-LEVEL-misses");
	}
	return bad ? EX_USAGE : EX_OK;
}

/* The plot sections of d as "scaling,history" into buf ("" when none). */
static const char *plots_text(const struct metric_def *d, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned p = 1; p <= PLOT_LAST && n < len; p <<= 1)
		if (d->plot & p)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "", metric_plot_name(p));
	return buf;
}

/* Whether row d has field = value; -1 when field is not one of the columns. */
static int row_has(const struct metric_def *d, const char *field, size_t flen, const char *value)
{
	static const char *const fields[] = { "direction", "kind", "noise", "scope", "unit",
					      "kcidb_unit" };
	const char *have[] = { metric_dir_name(d->dir), metric_kind_name(d->kind),
			       metric_noise_name(d->noise), metric_scope_name(d->scope), d->unit,
			       d->kcidb_unit };
	size_t vlen = strcspn(value, ",");

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (strlen(fields[i]) == flen && strncmp(fields[i], field, flen) == 0)
			return strlen(have[i]) == vlen && strncmp(have[i], value, vlen) == 0;
	if (flen != 4 || strncmp(field, "plot", 4) != 0)
		return -1;
	for (unsigned p = 1; p <= PLOT_LAST; p <<= 1)
		if ((d->plot & p) && strlen(metric_plot_name(p)) == vlen &&
		    strncmp(metric_plot_name(p), value, vlen) == 0)
			return 1;
	return 0;
}

/*
 * Whether row d meets every FIELD=VALUE of the comma-separated where; -1
 * when one is malformed or names no field.
 */
static int row_meets(const struct metric_def *d, const char *where)
{
	for (const char *c = where;; c++) {
		const char *eq = strchr(c, '=');
		const char *comma = strchr(c, ',');
		int has;

		if (!eq || (comma && comma < eq) || eq == c)
			return -1;
		has = row_has(d, c, (size_t)(eq - c), eq + 1);
		if (has <= 0)
			return has;
		if (!(c = strchr(eq, ',')))
			return 1;
	}
}

/*
 * Mark in pick[] the rows --where selects (all without it). Returns 0, or
 * EX_USAGE (printed) for a malformed FIELD=VALUE or an unknown field.
 */
static int select_rows(const char *where, int *pick)
{
	for (int i = 0; i < MET_N; i++) {
		pick[i] = where ? row_meets(&metric_defs[i], where) : 1;
		if (pick[i] < 0) {
			error("metrics: '--where %s' is not FIELD=VALUE[,...] of known fields", where);
			hint("fields: direction, kind, noise, scope, unit, kcidb_unit, plot");
			return EX_USAGE;
		}
	}
	return 0;
}

/* The JSON document: the envelope, then "metrics", one object per picked row. */
static void print_json(const int *pick)
{
	struct sysinfo si;
	struct json j;

	sysinfo_collect(&si);
	json_init(&j, stdout, 1);
	json_obj_open(&j, NULL);
	envelope_json(&j, &si, "metrics");
	json_arr_open(&j, "metrics");
	for (int i = 0; i < MET_N; i++) {
		const struct metric_def *d = &metric_defs[i];

		if (!pick[i])
			continue;
		json_obj_open(&j, NULL);
		json_str(&j, "name", d->name);
		json_str(&j, "unit", d->unit);
		json_str(&j, "direction", metric_dir_name(d->dir));
		json_str(&j, "kind", metric_kind_name(d->kind));
		json_str(&j, "noise", metric_noise_name(d->noise));
		json_str(&j, "scope", metric_scope_name(d->scope));
		json_str(&j, "kcidb_unit", d->kcidb_unit);
		json_arr_open(&j, "plot");
		for (unsigned p = 1; p <= PLOT_LAST; p <<= 1)
			if (d->plot & p)
				json_str(&j, NULL, metric_plot_name(p));
		json_arr_close(&j);
		json_str(&j, "meaning", d->meaning);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_obj_close(&j);
	json_end(&j);
}

/* The readable table of the picked rows, or their names alone. */
static void print_text(const int *pick, int names_only)
{
	char plots[80];

	if (!names_only)
		printf("%-30s %-4s %-7s %-7s %-7s %-6s %-12s %-24s %s\n", "metric", "unit", "better",
		       "kind", "noise", "scope", "kcidb unit", "report plots", "meaning");
	for (int i = 0; i < MET_N; i++) {
		const struct metric_def *d = &metric_defs[i];

		if (!pick[i])
			continue;
		if (names_only) {
			printf("%s\n", d->name);
			continue;
		}
		printf("%-30s %-4s %-7s %-7s %-7s %-6s %-12s %-24s %s\n", d->name,
		       *d->unit ? d->unit : "-", metric_dir_name(d->dir), metric_kind_name(d->kind),
		       metric_noise_name(d->noise), metric_scope_name(d->scope), d->kcidb_unit, *plots_text(d, plots, sizeof(plots)) ? plots : "-", d->meaning);
	}
}

/* List the registry's rows; exit 0, or 2 on bad options. */
int cmd_metrics(int argc, char **argv)
{
	struct metrics_cfg cfg = { 0 };
	int pick[MET_N], np = CHECK_MAX;
	char *pos[CHECK_MAX];
	int ret = opt_parse(metrics_opts, &cfg, argc, argv, "metrics",
			    "[--json | --names] [--where FIELD=VALUE] | --check [--any-level] NAME...",
			    pos, &np);

	if (ret)
		return ret == OPT_HELP_SHOWN ? EX_OK : ret;
	if (cfg.check)
		return check_names(pos, np, cfg.any_level);
	if (cfg.any_level) {
		error("metrics: --any-level is for --check");
		return EX_USAGE;
	}
	if (np) {
		error("metrics: '%s': names are for --check", pos[0]);
		return EX_USAGE;
	}
	if (cfg.json && cfg.names) {
		error("metrics: --json and --names exclude each other");
		return EX_USAGE;
	}
	ret = select_rows(cfg.where, pick);
	if (ret)
		return ret;
	if (cfg.json)
		print_json(pick);
	else
		print_text(pick, cfg.names);
	return fflush(stdout) ? EX_FAIL : EX_OK;
}
