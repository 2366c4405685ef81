/*
 * builtin/export_openmetrics.c - sgabench export openmetrics [SELECTOR]:
 * each machine's latest nightly comparison (its stored verdicts) in the
 * Prometheus text format, for node_exporter's textfile collector: per
 * machine, cell and metric the verdict as a state set, the ratio with its
 * confidence interval, p, q, the noise floor, the MDE and the runs; per
 * machine the comparison's time; per metric its unit and meaning.
 * A machine is its name (label machine), as compare judges it; its
 * fingerprint is a label of its own, which identical machines share.
 * --output writes a temporary file beside the target and renames it into
 * place, so a scrape never reads half a file.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "builtin/builtin.h"
#include "lib/log.h"
#include "lib/metrics.h"
#include "lib/opt.h"
#include "stats/stats.h"
#include "store/named.h"
#include "store/store.h"

struct om_opts {
	struct db_cfg io;
	const char *output;
};

static const struct opt om_tab[] = {
	{ .type = OPT_ROWS, .rows = builtin_db_rows, .off = offsetof(struct om_opts, io) },
	{ .name = "output", .type = OPT_STR, .off = offsetof(struct om_opts, output),
	  .metavar = "FILE", .def = "-",
	  .help = "write here (a temporary file renamed into place) instead of standard output" },
	{ NULL },
};

/* The columns of the named query openmetrics-verdicts, in order. */
enum { C_NAME, C_FP, C_CAND, C_TIME, C_CELL, C_METRIC, C_VERDICT, C_RATIO, C_CI_LO, C_CI_HI,
       C_P, C_Q, C_FLOOR, C_MDE, C_N_BASE, C_N_CAND, C_N };

struct om_row {
	char *field[C_N];	/* point into the query's text; "" for NULL */
};

/*
 * The unit and help of run metric name, from the metric registry (an
 * event total, which has no row, gets "events" and a pointer).
 */
static void metric_doc(const char *name, const char **unit, const char **help)
{
	int m = metric_find(name);

	*unit = m < 0 ? "events" : metric_defs[m].unit;
	*help = m < 0 || !*metric_defs[m].meaning ? "see sgabench-metrics(7)" : metric_defs[m].meaning;
}

/* Print s as a label value: backslash, double quote and newline escaped. */
static void label(FILE *f, const char *key, const char *s, int comma)
{
	fprintf(f, "%s%s=\"", comma ? "," : "", key);
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* The HELP and TYPE lines of a gauge family. */
static void family(FILE *f, const char *name, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/* The machine, fingerprint, cell and metric labels of row r. */
static void cell_labels(FILE *f, const struct om_row *r)
{
	label(f, "machine", r->field[C_NAME], 0);
	label(f, "fingerprint", r->field[C_FP], 1);
	label(f, "cell", r->field[C_CELL], 1);
	label(f, "metric", r->field[C_METRIC], 1);
}

/* One sample per row of column col (rows where it is NULL have none). */
static void per_cell(FILE *f, const struct om_row *rows, size_t n, const char *name,
		     const char *help, int col)
{
	family(f, name, help);
	for (size_t i = 0; i < n; i++) {
		const char *v = rows[i].field[col];

		if (!*v || strcmp(v, "inf") == 0)
			continue;
		fprintf(f, "%s{", name);
		cell_labels(f, &rows[i]);
		fprintf(f, "} %s\n", v);
	}
}

/* Seconds since the epoch of a stored "YYYY-MM-DDTHH:MM:SSZ", or -1. */
static long long epoch_of(const char *t)
{
	struct tm tm = { 0 };
	const char *end = strptime(t, "%Y-%m-%dT%H:%M:%SZ", &tm);

	return end && !*end ? (long long)timegm(&tm) : -1;
}

/* Write the exposition of rows (ordered by machine name) to f. */
static void write_metrics(FILE *f, const struct om_row *rows, size_t n)
{
	static const enum verdict states[] = { V_REGRESSION, V_IMPROVEMENT, V_NO_CHANGE, V_INSUFFICIENT };

	family(f, "sgabench_verdict", "verdict of the machine's latest nightly comparison of a cell"
	       " and metric: 1 for the verdict reached, 0 for the others");
	for (size_t i = 0; i < n; i++)
		for (size_t s = 0; s < sizeof(states) / sizeof(states[0]); s++) {
			const char *v = stats_verdict_name(states[s]);

			fputs("sgabench_verdict{", f);
			cell_labels(f, &rows[i]);
			label(f, "verdict", v, 1);
			fprintf(f, "} %d\n", strcmp(rows[i].field[C_VERDICT], v) == 0);
		}
	per_cell(f, rows, n, "sgabench_verdict_ratio",
		 "candidate over baseline (medians, or the quantile one-sided noise judges by)", C_RATIO);
	per_cell(f, rows, n, "sgabench_verdict_ratio_ci_low", "low end of the ratio's bootstrap 95% CI", C_CI_LO);
	per_cell(f, rows, n, "sgabench_verdict_ratio_ci_high", "high end of the ratio's bootstrap 95% CI", C_CI_HI);
	per_cell(f, rows, n, "sgabench_verdict_p_value", "Mann-Whitney U (or permutation) p-value", C_P);
	per_cell(f, rows, n, "sgabench_verdict_q_value", "Benjamini-Hochberg q-value over the comparison", C_Q);
	per_cell(f, rows, n, "sgabench_verdict_noise_floor_ratio",
		 "the cell's A/A noise floor on this machine, as a relative change", C_FLOOR);
	per_cell(f, rows, n, "sgabench_verdict_mde_ratio",
		 "minimum detectable effect at 80% power, as a relative change", C_MDE);
	per_cell(f, rows, n, "sgabench_verdict_baseline_runs", "baseline runs of the cell", C_N_BASE);
	per_cell(f, rows, n, "sgabench_verdict_candidate_runs", "candidate runs of the cell", C_N_CAND);

	family(f, "sgabench_verdict_timestamp_seconds", "when the machine's latest nightly comparison was stored");
	for (size_t i = 0; i < n; i++) {
		long long t = epoch_of(rows[i].field[C_TIME]);

		if (t < 0 || (i && strcmp(rows[i].field[C_NAME], rows[i - 1].field[C_NAME]) == 0))
			continue;
		fputs("sgabench_verdict_timestamp_seconds{", f);
		label(f, "machine", rows[i].field[C_NAME], 0);
		label(f, "fingerprint", rows[i].field[C_FP], 1);
		label(f, "candidate", rows[i].field[C_CAND], 1);
		fprintf(f, "} %lld\n", t);
	}

	family(f, "sgabench_metric_info", "unit and meaning of each metric the verdicts judge");
	for (size_t i = 0; i < n; i++) {
		const char *unit, *help;
		int seen = 0;

		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(rows[j].field[C_METRIC], rows[i].field[C_METRIC]) == 0;
		if (seen)
			continue;
		metric_doc(rows[i].field[C_METRIC], &unit, &help);
		fputs("sgabench_metric_info{", f);
		label(f, "metric", rows[i].field[C_METRIC], 0);
		label(f, "unit", unit, 1);
		label(f, "help", help, 1);
		fputs("} 1\n", f);
	}
}

/*
 * Split the query's TSV text into rows (in place). Returns the number of
 * rows, or -1 for a line with the wrong number of fields or no memory.
 */
static long split_rows(char *text, struct om_row **out)
{
	struct om_row *rows = NULL;
	size_t n = 0, cap = 0;

	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n'), *p = line;

		if (nl)
			*nl = '\0';
		if (n == cap) {
			struct om_row *m = realloc(rows, (cap = cap ? 2 * cap : 64) * sizeof(*rows));

			if (!m)
				goto fail;
			rows = m;
		}
		for (int c = 0; c < C_N; c++) {
			char *tab = strchr(p, '\t');

			rows[n].field[c] = p;
			if ((c < C_N - 1) != !!tab)
				goto fail;
			if (tab) {
				*tab = '\0';
				p = tab + 1;
			}
		}
		n++;
		line = nl ? nl + 1 : NULL;
	}
	*out = rows;
	return (long)n;
fail:
	free(rows);
	return -1;
}

/* Write rows to path through a temporary file renamed over it. */
static int write_file(const char *path, const struct om_row *rows, size_t n)
{
	char tmp[4096];
	FILE *f;
	int ok;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	f = fopen(tmp, "w");
	if (!f) {
		error("export: cannot write '%s': %s", tmp, strerror(errno));
		return -errno;
	}
	write_metrics(f, rows, n);
	ok = fflush(f) == 0 && fsync(fileno(f)) == 0;
	ok = fclose(f) == 0 && ok;
	if (!ok || rename(tmp, path) != 0) {
		error("export: cannot write '%s': %s", path, strerror(errno));
		unlink(tmp);
		return EX_FAIL;
	}
	return 0;
}

int cmd_export_openmetrics(int argc, char **argv)
{
	struct om_opts o = { 0 };
	struct om_row *rows = NULL;
	struct store *s = NULL;
	char *pos[2], *text = NULL, *args[1];
	const char *sel = "label:nightly-%";
	size_t len = 0;
	int np = 2, ret;
	long n;
	FILE *mf;

	ret = opt_parse(om_tab, &o, argc, argv, "export openmetrics",
			"[label:TEXT (the candidates, SQL LIKE; default label:nightly-%)] [options]", pos, &np);
	if (ret)
		return ret == OPT_HELP_SHOWN ? EX_OK : ret;
	if (np > 1 || (np == 1 && strncmp(pos[0], "label:", 6) != 0)) {
		error("export: %s", np > 1 ? "one selector at most" : "the selector is label:TEXT");
		hint("sgabench export openmetrics label:nightly-%%");
		return EX_USAGE;
	}
	if (np == 1)
		sel = pos[0];
	ret = store_open_ro(o.io.db, &s);
	if (ret)
		return ret;
	mf = open_memstream(&text, &len);
	args[0] = (char *)sel;
	ret = mf ? store_named_query(s, store_named_find("openmetrics-verdicts"), args, 0, mf) : -ENOMEM;
	if (mf && fclose(mf) != 0 && !ret)
		ret = -ENOMEM;
	store_close(s);
	if (ret) {
		free(text);
		return ret;
	}
	n = split_rows(text, &rows);
	if (n < 0) {
		error("export: cannot read the verdicts");
		free(text);
		return EX_FAIL;
	}
	if (n == 0)
		warning("export: no stored comparison of '%s' (the exposition has no samples)", sel);
	if (o.output && strcmp(o.output, "-") != 0) {
		ret = write_file(o.output, rows, (size_t)n);
	} else {
		write_metrics(stdout, rows, (size_t)n);
		ret = fflush(stdout) ? EX_FAIL : 0;
	}
	free(rows);
	free(text);
	return ret;
}
