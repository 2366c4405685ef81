/* t_metrics.c - the metric registry (lib/metrics.h) and the run's metric slots. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "lib/metrics.h"
#include "lib/result.h"
#include "tap.h"

/*
 * A metric is set by its registry enum, never by a string: a name outside
 * the registry cannot reach a run without failing the build.
 */
_Static_assert(__builtin_types_compatible_p(__typeof__(&result_set_metric),
					    void (*)(struct run_result *, enum metric_id, double)),
	       "result_set_metric takes a registry enum");

/* Whether s is one of the units the human output knows how to print. */
static int unit_known(const char *s)
{
	return !strcmp(s, "B") || !strcmp(s, "s") || !strcmp(s, "1/s") || !strcmp(s, "");
}

/* The checks that every row must pass; returns the number of rows that fail. */
static int bad_rows(void)
{
	int bad = 0;

	for (int i = 0; i < MET_N; i++) {
		const struct metric_def *d = &metric_defs[i];
		int row_ok = d->name && *d->name && d->meaning && *d->meaning && d->kcidb_unit &&
			     *d->kcidb_unit && unit_known(d->unit) && metric_find(d->name) == i &&
			     (d->kind != KIND_TIME || !strcmp(d->unit, "s")) &&
			     (d->kind != KIND_RATE || !strcmp(d->unit, "1/s")) &&
			     (strcmp(d->unit, "B") || !strcmp(d->kcidb_unit, "B")) &&
			     (strcmp(d->unit, "s") || !strcmp(d->kcidb_unit, "s")) &&
			     strcmp(d->kcidb_unit, "events") != 0 && d->plot < 2 * PLOT_LAST;

		if (!row_ok) {
			printf("# row %d (%s) is not consistent\n", i, d->name ? d->name : "?");
			bad++;
		}
	}
	return bad;
}

/* metric_check(name, have, n) with its messages (stderr) into out; returns its result. */
static int checked(const char *name, const char *const *have, size_t n, char *out, size_t len)
{
	FILE *f = tmpfile();
	int saved = dup(2), ret;
	size_t got = 0;

	out[0] = '\0';
	if (!f || saved < 0)
		return -1;
	fflush(stderr);
	dup2(fileno(f), 2);
	ret = metric_check("t", name, have, n);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	got = fread(out, 1, len - 1, f);
	out[got] = '\0';
	fclose(f);
	return ret;
}

/* metric_check: the registry and the runs' own names are metrics; a misspelling gets its nearest. */
static void check_names(void)
{
	static const char *const have[] = { "dTLB-load-misses", "first-touch-faults", "l1-dtlb-misses" };
	char msg[1024];

	ok(checked("wall-s", NULL, 0, msg, sizeof(msg)) == 1 && !msg[0], "a registry name with no runs: a metric, silently");
	ok(checked("l1-dtlb-misses", have, 3, msg, sizeof(msg)) == 1 && !msg[0], "a name the runs store: a metric");
	ok(checked("l1-dtlb-misses", have, 2, msg, sizeof(msg)) == 0 &&
	   strstr(msg, "t: --metric 'l1-dtlb-misses': no such metric (sgabench metrics lists them; "
		  "the selected runs also have: dTLB-load-misses)\n"),
	   "one the runs lack: refused, with their names outside the registry");
	ok(checked("first-touch-fault", have, 0, msg, sizeof(msg)) == 0 &&
	   strstr(msg, "the selected runs have no other)") && strstr(msg, "did you mean 'first-touch-faults'?"),
	   "a misspelt registry name: the nearest one hinted");
	ok(checked("l1-dtlb-miss", have, 3, msg, sizeof(msg)) == 0 && strstr(msg, "did you mean 'l1-dtlb-misses'?"),
	   "a misspelt stored name: the nearest stored one hinted");
	ok(checked("nosuch", have, 3, msg, sizeof(msg)) == 0 && !strstr(msg, "did you mean"),
	   "nothing near: no guess");
}

/* metric_restates: the estimates and a level's own misses, by the names the model gives them. */
static void check_restates(void)
{
	char name[64];

	snprintf(name, sizeof(name), METRIC_LEVEL_EVENT_FMT, "l1d-2m");
	ok(metric_restates(name), "a level's own misses ('%s') restate the plain counters", name);
	ok(metric_restates("est-translation-s") && metric_restates("est-translation-cycles") &&
	   metric_restates("est-translation-ns-per-access"), "the est-* estimates restate counts");
	ok(!metric_restates("model-tick-misses") && !metric_restates("dtlb-walks") &&
	   !metric_restates("l1-dtlb-misses") && !metric_restates("dTLB-load-misses") &&
	   !metric_restates("model--misses") && !metric_restates("first-touch-faults"),
	   "counts of their own do not (model-tick-misses is a registry row)");
	for (int i = 0; i < MET_N; i++)
		if (metric_restates(metric_defs[i].name) != (metric_defs[i].kind == KIND_ESTIMATE))
			ok(0, "row '%s': restates exactly when its kind is estimate", metric_defs[i].name);
}

int main(void)
{
	static struct run_result r;
	double x = 0;
	int all = 1;

	ok(bad_rows() == 0, "every row has a unique name, a meaning, and units that agree with its kind");
	ok(metric_find("no-such-metric") == -1, "an unknown name is not found");
	ok(metric_higher_better("accesses-per-cpu-s-best") && !metric_higher_better("wall-s") &&
	   !metric_higher_better("dTLB-load-misses"), "direction: rates higher, times and events lower");
	ok(metric_one_way("wall-s") && !metric_one_way("first-touch-faults") &&
	   !metric_one_way("dTLB-load-misses"), "noise: timings one-way, exact counts and events not");
	ok(!strcmp(metric_defs[MET_ACCESSES_PER_CPU_S].kcidb_unit, "accesses/s") &&
	   !strcmp(metric_defs[MET_ACCESSES_PER_CPU_S_BEST].kcidb_unit, "accesses/s") &&
	   !strcmp(metric_defs[MET_WINDOW_S_SPREAD].kcidb_unit, "ratio"),
	   "KCIDB units: the per-CPU rates are accesses/s, a spread a ratio");

	for (int i = MET_N - 1; i >= 0; i--)
		result_set_metric(&r, (enum metric_id)i, i + 0.5);
	ok(r.nmetrics == MET_N, "a run holds every metric of the registry (%u of %d)", r.nmetrics, MET_N);
	for (int i = 0; i < MET_N; i++)
		all &= result_get_metric(&r, (enum metric_id)i, &x) == 0 && x == i + 0.5 &&
		       !strcmp(r.metric[MET_N - 1 - i].name, metric_defs[i].name);
	ok(all, "each keeps its value and its registry name");
	result_set_metric(&r, MET_WALL_S, 7);
	ok(r.nmetrics == MET_N && result_get_metric(&r, MET_WALL_S, &x) == 0 && x == 7,
	   "setting a metric again replaces its value");

	memset(&r, 0, sizeof(r));
	ok(result_set_metric_named(&r, "no-such-metric", 1) == -EINVAL && r.nmetrics == 0,
	   "a name outside the registry: -EINVAL, nothing set");
	ok(result_set_metric_named(&r, "pte-bytes", 4096) == 0 && r.nmetrics == 1 &&
	   r.metric[0].id == MET_PTE_BYTES, "a registry name sets its row");
	ok(result_get_metric(&r, MET_WALL_S, &x) == -ENOENT, "a metric the run lacks: -ENOENT");
	check_names();
	check_restates();
	return done_testing();
}
