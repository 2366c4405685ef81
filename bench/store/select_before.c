/*
 * select_before.c - a baseline of nights relative to its candidate
 * (select.h's select_baseline_for): last-N-nights are, per machine, the N
 * latest nightly labels begun before the candidate's first run there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "store/internal.h"
#include "store/query.h"
#include "store/select.h"
#include "store/stmt.h"

/* One machine's nights before ?3, not among the '|'-joined labels ?4:
 * their runs (cell GLOB ?1), the latest ?5 nights. */
#define BEFORE_SQL \
	"SELECT r.id, r.machine_id, r.cell, r.label, r.started_at, r.uuid," \
	" COALESCE(r.machine_name, ''), COALESCE(" STORE_RUN_KERNEL ", '')," \
	" COALESCE(r.boot_id, '') FROM run r" \
	" WHERE r.status = 'ok' AND (?1 IS NULL OR r.cell GLOB ?1) AND COALESCE(r.machine_name, '') = ?2" \
	" AND r.label IN (SELECT label FROM (SELECT label, ROW_NUMBER() OVER" \
	" (ORDER BY MAX(started_at) DESC, label DESC) AS k FROM run WHERE status = 'ok'" \
	" AND label GLOB 'nightly-*' AND COALESCE(machine_name, '') = ?2" \
	" AND instr('|' || CAST(?4 AS TEXT) || '|', '|' || label || '|') = 0" \
	" GROUP BY label HAVING MIN(started_at) < ?3) AS n WHERE n.k <= ?5)"

/* The order select_runs_on gives: cell, machine, start, id. */
static int by_run(const void *a, const void *b)
{
	const struct run_ref *x = a, *y = b;
	int c = strcmp(x->cell, y->cell);

	if (!c)
		c = (x->machine_id > y->machine_id) - (x->machine_id < y->machine_id);
	if (!c)
		c = strcmp(x->machine_name, y->machine_name);
	if (!c)
		c = strcmp(x->started_at, y->started_at);
	return c ? c : (x->id > y->id) - (x->id < y->id);
}

/* Whether s appears among the first n runs' machine names (before index n). */
static int seen(const struct runset *rs, size_t n, const char *mn)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(rs->run[i].machine_name, mn) == 0)
			return 1;
	return 0;
}

/* Each machine's labels of out, latest first: "A: nightly-2 nightly-1; B: ..." */
static char *describe(const struct runset *out, const char *sel)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int machines = 0;

	if (!f)
		return NULL;
	for (size_t i = 0; i < out->n; i++)
		machines += !seen(out, i, out->run[i].machine_name);
	for (size_t i = 0; i < out->n; i++) {
		const char *mn = out->run[i].machine_name;

		if (seen(out, i, mn))
			continue;
		if (machines > 1)
			fprintf(f, "%s%s:", ftell(f) ? "; " : "", mn);
		/* this machine's labels, latest first (nightly-YYYYMMDD sorts by date) */
		for (const char *last = NULL;;) {
			const char *best = NULL;

			for (size_t k = 0; k < out->n; k++) {
				const char *l = out->run[k].label;

				if (strcmp(out->run[k].machine_name, mn) || !l || (last && strcmp(l, last) >= 0))
					continue;
				if (!best || strcmp(l, best) > 0)
					best = l;
			}
			if (!best)
				break;
			fprintf(f, "%s%s", ftell(f) ? " " : "", best);
			last = best;
		}
	}
	if (!out->n)
		fprintf(f, "%s (no nightly labels before the candidate's)", sel);
	fclose(f);
	return buf;
}

int select_baseline_for(struct store *store, const char *sel, const char *cell_glob, const char *machine,
			const struct runset *cand, struct runset *out)
{
	long n;
	char *end;
	size_t cap = 0;
	int ret = 0;

	if (strncmp(sel, "last-", 5) != 0 || (n = strtol(sel + 5, &end, 10)) < 1 || strcmp(end, "-nights") != 0)
		return select_runs_on(store, sel, cell_glob, machine, out);
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < cand->n && !ret; i++) {
		const char *mn = cand->run[i].machine_name, *first = cand->run[i].started_at;
		char *labels = NULL;
		size_t llen = 0;
		FILE *f;
		struct stmt *st;

		if (seen(cand, i, mn) || (machine && strcmp(mn, machine)))
			continue;
		f = open_memstream(&labels, &llen);
		if (!f)
			return -ENOMEM;
		for (size_t k = i; k < cand->n; k++) {
			const struct run_ref *c = &cand->run[k];

			if (strcmp(c->machine_name, mn))
				continue;
			if (strcmp(c->started_at, first) < 0)
				first = c->started_at;
			if (c->label)
				fprintf(f, "%s|", c->label);
		}
		fclose(f);
		st = stmt_prepare(store, BEFORE_SQL);
		if (!st) {
			free(labels);
			ret = -EIO;
			break;
		}
		stmt_bind_text(st, 1, cell_glob);
		stmt_bind_text(st, 2, mn);
		stmt_bind_text(st, 3, first);
		stmt_bind_text(st, 4, labels ? labels : "");
		stmt_bind_int64(st, 5, n);
		ret = select_collect(st, out, &cap);
		stmt_finish(st);
		free(labels);
	}
	if (!ret) {
		if (out->n)
			qsort(out->run, out->n, sizeof(*out->run), by_run);
		out->resolved = describe(out, sel);
		if (!out->resolved)
			ret = -ENOMEM;
	}
	if (ret)
		runset_free(out);
	return ret;
}
