/* select.c - turn a run selector into the list of runs it names. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/json.h"
#include "lib/log.h"
#include "store/internal.h"
#include "store/query.h"
#include "store/select.h"
#include "store/stmt.h"

enum sel_kind { SEL_LABEL, SEL_TONIGHT, SEL_NIGHTS, SEL_LAST, SEL_UUID, SEL_SINCE, SEL_KERNEL };

struct sel {
	enum sel_kind kind;
	const char *arg;	/* text after "label:", "uuid:", "since:", "kernel:" */
	long n;			/* N of last-N and last-N-nights */
};

/*
 * Each machine's nightly labels (mn: its name, '' for none), numbered k
 * from 1, most recent first (by the start of their latest run on it).
 */
#define NIGHTS_SQL \
	"SELECT COALESCE(machine_name, '') AS mn, label, ROW_NUMBER() OVER" \
	" (PARTITION BY COALESCE(machine_name, '') ORDER BY MAX(started_at) DESC, label DESC) AS k" \
	" FROM run WHERE status = 'ok' AND label GLOB 'nightly-*'" \
	" GROUP BY COALESCE(machine_name, ''), label"
/* The run r is one of its machine's nights numbered ?3 to ?4 (NIGHTS_SQL's k). */
#define NIGHT_IN \
	"(COALESCE(r.machine_name, ''), r.label) IN (SELECT mn, label FROM (" NIGHTS_SQL ") AS n" \
	" WHERE n.k BETWEEN ?3 AND ?4)"

/* Parse the "N" of last-N or last-N-nights at s; returns the rest or NULL. */
static const char *parse_n(const char *s, long *n)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return NULL;
	errno = 0;
	*n = strtol(s, &end, 10);
	if (errno || *n < 1 || *n > 100000)
		return NULL;
	return end;
}

/* Whether s is a calendar date YYYY-MM-DD (2026-02-30 is not). */
static int is_date(const char *s)
{
	static const char pat[] = "dddd-dd-dd";
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, m, d;

	if (strlen(s) != sizeof(pat) - 1)
		return 0;
	for (size_t i = 0; pat[i]; i++)
		if (pat[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != pat[i])
			return 0;
	y = atoi(s);
	m = atoi(s + 5);
	d = atoi(s + 8);
	if (m < 1 || m > 12 || d < 1 || d > mdays[m - 1])
		return 0;
	return !(m == 2 && d == 29 && (y % 4 || (y % 100 == 0 && y % 400)));
}

static int parse(const char *s, struct sel *out, char *why, size_t whylen)
{
	const char *rest;

	memset(out, 0, sizeof(*out));
	if (strncmp(s, "label:", 6) == 0 && s[6]) {
		out->kind = SEL_LABEL;
		out->arg = s + 6;
	} else if (strncmp(s, "kernel:", 7) == 0 && s[7]) {
		out->kind = SEL_KERNEL;
		out->arg = s + 7;
	} else if (strcmp(s, "tonight") == 0) {
		out->kind = SEL_TONIGHT;
	} else if (strncmp(s, "last-", 5) == 0 && (rest = parse_n(s + 5, &out->n))) {
		if (*rest == '\0')
			out->kind = SEL_LAST;
		else if (strcmp(rest, "-nights") == 0)
			out->kind = SEL_NIGHTS;
		else
			goto bad;
	} else if (strncmp(s, "uuid:", 5) == 0 && s[5]) {
		out->kind = SEL_UUID;
		out->arg = s + 5;
	} else if (strncmp(s, "since:", 6) == 0) {
		if (!is_date(s + 6)) {
			snprintf(why, whylen, "since: wants a calendar date YYYY-MM-DD");
			return -EINVAL;
		}
		out->kind = SEL_SINCE;
		out->arg = s + 6;
	} else {
		goto bad;
	}
	return 0;
bad:
	snprintf(why, whylen, "not a selector (label:TEXT, tonight, last-N-nights, last-N, "
		 "uuid:U1,U2, since:YYYY-MM-DD, kernel:VARIANT)");
	return -EINVAL;
}

int select_is_kernel(const char *sel)
{
	return sel && strncmp(sel, "kernel:", 7) == 0 && sel[7];
}

int select_check(const char *sel, char *why, size_t whylen)
{
	struct sel s;

	return parse(sel, &s, why, whylen);
}

/* The WHERE condition of kind k; ?2 is the argument. */
static const char *condition(enum sel_kind k)
{
	switch (k) {
	case SEL_LABEL:
		return "r.label = ?2";
	case SEL_TONIGHT:
	case SEL_NIGHTS:
		return NIGHT_IN;
	case SEL_LAST:
		return "r.id IN (SELECT id FROM (SELECT id, ROW_NUMBER() OVER"
		       " (PARTITION BY cell, machine_id ORDER BY started_at DESC, id DESC) AS k"
		       " FROM run WHERE status = 'ok') AS ranked WHERE k <= ?2)";
	case SEL_UUID:
		return "instr(',' || CAST(?2 AS TEXT) || ',', ',' || r.uuid || ',') > 0";
	case SEL_SINCE:
		return "r.started_at >= ?2";
	case SEL_KERNEL:
		return "instr('|' || CAST(?2 AS TEXT) || '|', '|' || " STORE_RUN_KERNEL " || '|') > 0";
	}
	return "0";
}

/* Bind the selector's argument as ?2, and the nights it means as ?3 to ?4. */
static void bind_arg(struct stmt *st, const struct sel *s)
{
	if (s->kind == SEL_NIGHTS || s->kind == SEL_LAST)
		stmt_bind_int64(st, 2, s->n);
	else if (s->arg)
		stmt_bind_text(st, 2, s->arg);
	stmt_bind_int64(st, 3, s->kind == SEL_NIGHTS ? 2 : 1);
	stmt_bind_int64(st, 4, s->kind == SEL_NIGHTS ? s->n + 1 : 1);
}

static char *dup_col(struct stmt *st, int i)
{
	const char *t = stmt_col_text(st, i);

	return t ? strdup(t) : NULL;
}

/*
 * Warn of each machine whose tonight (its latest nightly label) is older
 * than the latest of all: it has not run since, so "tonight" is another
 * night there. Labels nightly-YYYYMMDD sort by date.
 */
static void stale_tonight(struct store *db, const char *machine)
{
	struct stmt *st = stmt_prepare(db, "SELECT mn, label, (SELECT MAX(label) FROM (" NIGHTS_SQL ") AS a)"
				       " FROM (" NIGHTS_SQL ") AS n WHERE n.k = 1 AND (?1 IS NULL OR n.mn = ?1)"
				       " AND n.label < (SELECT MAX(label) FROM (" NIGHTS_SQL ") AS b) ORDER BY n.mn");

	if (!st)
		return;
	stmt_bind_text(st, 1, machine);
	while (stmt_step(st) == STMT_ROW)
		warning("tonight on machine '%s' is %s, older than the latest night, %s: it has not run since",
			stmt_col_text(st, 0), stmt_col_text(st, 1), stmt_col_text(st, 2));
	stmt_finish(st);
}

/*
 * Describe what s resolved to: the nightly labels it stands for (with
 * their machine's name when there are several machines), or the selector.
 */
static char *resolve(struct store *db, const char *text, const struct sel *s, const char *machine)
{
	struct stmt *st = NULL;
	char *buf = NULL, last[128] = "";
	size_t len = 0;
	FILE *f;
	int n = 0, machines = 0;

	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	if (s->kind == SEL_TONIGHT || s->kind == SEL_NIGHTS) {
		st = stmt_prepare(db, "SELECT mn, label, (SELECT COUNT(DISTINCT mn) FROM (" NIGHTS_SQL
				  ") AS a WHERE ?3 IS NULL OR a.mn = ?3) FROM (" NIGHTS_SQL ") AS n"
				  " WHERE n.k BETWEEN ?1 AND ?2 AND (?3 IS NULL OR n.mn = ?3)"
				  " ORDER BY n.mn, n.k");
		if (st) {
			stmt_bind_int64(st, 1, s->kind == SEL_NIGHTS ? 2 : 1);
			stmt_bind_int64(st, 2, s->kind == SEL_NIGHTS ? s->n + 1 : 1);
			stmt_bind_text(st, 3, machine);
			while (stmt_step(st) == STMT_ROW) {
				const char *mn = stmt_col_text(st, 0);

				machines = (int)stmt_col_int64(st, 2);
				if (machines > 1 && strcmp(last, mn) != 0)
					fprintf(f, "%s%s:", n ? "; " : "", mn);
				snprintf(last, sizeof(last), "%s", mn);
				fprintf(f, "%s%s", machines > 1 || n ? " " : "", stmt_col_text(st, 1));
				n++;
			}
		}
		stmt_finish(st);
		if (!n)
			fprintf(f, "%s (no nightly labels%s%s)", text, machine ? " on machine " : "",
				machine ? machine : "");
		if (s->kind == SEL_TONIGHT && machines > 1)
			stale_tonight(db, machine);
	} else {
		fputs(text, f);
	}
	fclose(f);
	return buf;
}

int select_collect(struct stmt *st, struct runset *out, size_t *cap)
{
	int rc;

	while ((rc = stmt_step(st)) == STMT_ROW) {
		struct run_ref *r;

		if (out->n == *cap) {
			size_t ncap = *cap ? 2 * *cap : 64;
			struct run_ref *nr = realloc(out->run, ncap * sizeof(*nr));

			if (!nr)
				return -ENOMEM;
			out->run = nr;
			*cap = ncap;
		}
		r = &out->run[out->n++];
		memset(r, 0, sizeof(*r));
		r->id = stmt_col_int64(st, 0);
		r->machine_id = stmt_col_int64(st, 1);
		r->cell = dup_col(st, 2);
		r->label = dup_col(st, 3);
		r->started_at = dup_col(st, 4);
		r->uuid = dup_col(st, 5);
		r->machine_name = dup_col(st, 6);
		r->kernel_variant = dup_col(st, 7);
		r->boot_id = dup_col(st, 8);
		r->group = r->machine_id;
		if (!r->cell || !r->started_at || !r->uuid || !r->machine_name || !r->kernel_variant ||
		    !r->boot_id)
			return -ENOMEM;
	}
	return rc < 0 ? -EIO : 0;
}

int select_runs(struct store *store, const char *sel, const char *cell_glob, struct runset *out)
{
	return select_runs_on(store, sel, cell_glob, NULL, out);
}

int select_runs_on(struct store *store, const char *sel, const char *cell_glob, const char *machine,
		   struct runset *out)
{
	struct stmt *st = NULL;
	struct sel s;
	char sql[1024], why[160];
	size_t cap = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	if (parse(sel, &s, why, sizeof(why)))
		return -EINVAL;
	snprintf(sql, sizeof(sql),
		 "SELECT r.id, r.machine_id, r.cell, r.label, r.started_at, r.uuid,"
		 " COALESCE(r.machine_name, ''), COALESCE(" STORE_RUN_KERNEL ", ''),"
		 " COALESCE(r.boot_id, '') FROM run r"
		 " WHERE r.status = 'ok' AND (?1 IS NULL OR r.cell GLOB ?1) AND %s"
		 " AND (?5 IS NULL OR r.machine_name = ?5)"
		 " ORDER BY r.cell, r.machine_id, r.machine_name, r.started_at, r.id", condition(s.kind));
	st = stmt_prepare(store, sql);
	if (!st)
		return -EIO;
	stmt_bind_text(st, 1, cell_glob);
	bind_arg(st, &s);
	stmt_bind_text(st, 5, machine);
	ret = select_collect(st, out, &cap);
	if (ret)
		goto fail;
	stmt_finish(st);
	out->resolved = resolve(store, sel, &s, machine);
	return out->resolved ? 0 : -ENOMEM;
fail:
	stmt_finish(st);
	runset_free(out);
	return ret;
}

void run_ref_free(struct run_ref *r)
{
	free(r->cell);
	free(r->label);
	free(r->started_at);
	free(r->uuid);
	free(r->machine_name);
	free(r->kernel_variant);
	free(r->boot_id);
}

void runset_free(struct runset *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		run_ref_free(&rs->run[i]);
	free(rs->run);
	free(rs->resolved);
	memset(rs, 0, sizeof(*rs));
}

int select_load_values(struct store *s, int64_t run_id, struct run_values *out)
{
	static const char *sql = "SELECT name, value, missing FROM run_metric WHERE run_id = ?"
				 " ORDER BY name";
	struct stmt *st;
	size_t cap = 0;
	int rc, ret = -EIO;

	memset(out, 0, sizeof(*out));
	st = stmt_prepare(s, sql);
	if (!st)
		return -EIO;
	stmt_bind_int64(st, 1, run_id);
	while ((rc = stmt_step(st)) == STMT_ROW) {
		if (out->n == cap) {
			size_t ncap = cap ? 2 * cap : 16;
			char **nn = realloc(out->name, ncap * sizeof(*nn));
			char **nm;
			double *nv;

			if (nn)
				out->name = nn;
			nv = realloc(out->value, ncap * sizeof(*nv));
			if (nv)
				out->value = nv;
			nm = realloc(out->missing, ncap * sizeof(*nm));
			if (nm)
				out->missing = nm;
			if (!nn || !nv || !nm) {
				ret = -ENOMEM;
				goto fail;
			}
			cap = ncap;
		}
		out->name[out->n] = dup_col(st, 0);
		out->value[out->n] = stmt_col_is_null(st, 1) ? NAN : stmt_col_double(st, 1);
		out->missing[out->n] = dup_col(st, 2);
		if (!out->name[out->n++]) {
			ret = -ENOMEM;
			goto fail;
		}
	}
	if (rc < 0)
		goto fail;
	stmt_finish(st);
	return 0;
fail:
	stmt_finish(st);
	run_values_free(out);
	return ret;
}

int run_values_get(const struct run_values *v, const char *name, double *x, const char **why)
{
	for (size_t i = 0; i < v->n; i++) {
		if (strcmp(v->name[i], name) != 0)
			continue;
		if (isnan(v->value[i])) {
			*why = v->missing[i] ? v->missing[i] : "missing";
			return 0;
		}
		*x = v->value[i];
		return 1;
	}
	return -1;
}

void run_values_free(struct run_values *v)
{
	for (size_t i = 0; i < v->n; i++) {
		free(v->name[i]);
		free(v->missing[i]);
	}
	free(v->name);
	free(v->value);
	free(v->missing);
	memset(v, 0, sizeof(*v));
}

int select_run_costs(struct store *s, int64_t run_id, double *walk_cycles, double *ghz)
{
	struct stmt *st = stmt_prepare(s, "SELECT config_json FROM run WHERE id = ?");
	const char *m;
	int rc, ret = -ENOENT;

	if (!st)
		return -EIO;
	stmt_bind_int64(st, 1, run_id);
	rc = stmt_step(st);
	if (rc < 0)
		ret = -EIO;
	else if (rc == STMT_ROW && !stmt_col_is_null(st, 0)) {
		/* the machine's own keys: the config's other members come after it */
		m = strstr(stmt_col_text(st, 0), "\"machine\":");
		if (m && !json_text_number(m, "walk_cycles", walk_cycles) && !json_text_number(m, "ghz", ghz))
			ret = 0;
	}
	stmt_finish(st);
	return ret;
}
