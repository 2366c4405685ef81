/*
 * store/merge.c - 'db merge' on the column descriptors: one generic copy
 * per table, with the table's merge rule deciding what a key already in
 * the output means. Two connections, no ATTACH.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/log.h"
#include "store/internal.h"
#include "store/merge.h"

struct idmap {
	int64_t *from, *to;
	size_t n;
};

struct merge {
	struct store *out, *in;
	struct store_merge_count *c;
	struct idmap machines;
	int present[T_NTABLES][64];	/* the input has column i of table t */
	sqlite3_stmt *sel[T_NTABLES], *find[T_NTABLES], *ins[T_NTABLES], *del[T_NTABLES];
};

int store_begin(struct store *s)
{
	return store_exec(s, "BEGIN IMMEDIATE");
}

int store_commit(struct store *s)
{
	return store_exec(s, "COMMIT");
}

void store_rollback(struct store *s)
{
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

static int64_t map_id(const struct idmap *m, int64_t from)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->from[i] == from)
			return m->to[i];
	return -1;
}

static int add_id(struct idmap *m, int64_t from, int64_t to)
{
	int64_t *nf = realloc(m->from, (m->n + 1) * sizeof(*nf)), *nt;

	if (!nf)
		return -1;
	m->from = nf;
	nt = realloc(m->to, (m->n + 1) * sizeof(*nt));
	if (!nt)
		return -1;
	m->to = nt;
	m->from[m->n] = from;
	m->to[m->n++] = to;
	return 0;
}

/* Which descriptor columns of each table the input has (older schemas lack some). */
static int find_present(struct merge *m)
{
	for (int t = 0; t < T_NTABLES; t++) {
		const struct store_table *tb = &store_tables[t];
		char sql[96];
		sqlite3_stmt *st;

		snprintf(sql, sizeof(sql), "PRAGMA table_info(%s)", tb->name);
		st = store_prepare(m->in, sql);
		if (!st)
			return -1;
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *name = (const char *)sqlite3_column_text(st, 1);

			for (int i = 0; i < tb->ncol && i < 64; i++)
				if (name && strcmp(name, tb->col[i].name) == 0)
					m->present[t][i] = 1;
		}
		sqlite3_finalize(st);
	}
	return 0;
}

/* Append s to the statement text buf. */
static void cat(char *buf, size_t len, const char *s)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "%s", s);
}

/*
 * Prepare the four statements of table t: read the input's present
 * columns (children: of one run), find a key in the output, insert the
 * present non-rowid columns, delete by key (MERGE_NEWEST).
 */
static int prepare_table(struct merge *m, enum store_table_id t)
{
	const struct store_table *tb = &store_tables[t];
	char sel[2048] = "SELECT ", find[1024] = "SELECT ", ins[2048] = "", vals[512] = "";
	char del[1024] = "";
	int first = 1, firstk = 1, rowid = -1, newer = -1;

	for (int i = 0; i < tb->ncol; i++) {
		if (tb->col[i].flags & COL_ROWID)
			rowid = i;
		if (tb->col[i].flags & COL_NEWER)
			newer = i;
	}
	snprintf(ins, sizeof(ins), "INSERT INTO %s (", tb->name);
	snprintf(del, sizeof(del), "DELETE FROM %s WHERE ", tb->name);
	cat(find, sizeof(find), rowid >= 0 ? tb->col[rowid].name : "1");
	cat(find, sizeof(find), ", ");
	cat(find, sizeof(find), newer >= 0 ? tb->col[newer].name : "NULL");
	cat(find, sizeof(find), " FROM ");
	cat(find, sizeof(find), tb->name);
	cat(find, sizeof(find), " WHERE ");
	for (int i = 0; i < tb->ncol; i++) {
		const struct store_column *c = &tb->col[i];

		cat(sel, sizeof(sel), i ? ", " : "");
		cat(sel, sizeof(sel), m->present[t][i] ? c->name : "NULL");
		if (c->flags & COL_KEY) {
			char k[96];

			snprintf(k, sizeof(k), "%s%s IS ?%d", firstk ? "" : " AND ", c->name, i + 1);
			cat(find, sizeof(find), k);
			cat(del, sizeof(del), k);
			firstk = 0;
		}
		if ((c->flags & COL_ROWID) || !m->present[t][i])
			continue;
		cat(ins, sizeof(ins), first ? "" : ", ");
		cat(ins, sizeof(ins), c->name);
		{
			char p[16];

			snprintf(p, sizeof(p), "%s?%d", first ? "" : ", ", i + 1);
			cat(vals, sizeof(vals), p);
		}
		first = 0;
	}
	cat(sel, sizeof(sel), " FROM ");
	cat(sel, sizeof(sel), tb->name);
	if (tb->merge == MERGE_CHILD)
		cat(sel, sizeof(sel), " WHERE run_id = ?");
	else if (rowid >= 0)
		cat(sel, sizeof(sel), " ORDER BY id");
	cat(ins, sizeof(ins), ") VALUES (");
	cat(ins, sizeof(ins), vals);
	cat(ins, sizeof(ins), ")");
	m->sel[t] = store_prepare(m->in, sel);
	m->find[t] = store_prepare(m->out, find);
	m->ins[t] = store_prepare(m->out, ins);
	m->del[t] = store_prepare(m->out, del);
	return m->sel[t] && m->find[t] && m->ins[t] && m->del[t] ? 0 : -1;
}

/*
 * Bind the current input row of table t (read by m->sel[t]) as parameters
 * ?1..?n of dst, column i as ?i+1: machine ids mapped, run ids set to run.
 */
static void bind_row(struct merge *m, enum store_table_id t, sqlite3_stmt *dst, int64_t run)
{
	const struct store_table *tb = &store_tables[t];
	sqlite3_stmt *src = m->sel[t];
	int np = sqlite3_bind_parameter_count(dst);

	for (int i = 0; i < tb->ncol && i < np; i++) {
		unsigned f = tb->col[i].flags;

		if ((f & COL_RUN) && run >= 0)
			sqlite3_bind_int64(dst, i + 1, run);
		else if ((f & COL_MACHINE) && sqlite3_column_type(src, i) != SQLITE_NULL)
			sqlite3_bind_int64(dst, i + 1, map_id(&m->machines, sqlite3_column_int64(src, i)));
		else
			sqlite3_bind_value(dst, i + 1, sqlite3_column_value(src, i));
	}
}

/* Step a statement with no rows and reset it; 0 or -1 (printed). */
static int step_done(struct merge *m, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE) {
		error("database: %s", sqlite3_errmsg(m->out->db));
		return -1;
	}
	return 0;
}

static int copy_table(struct merge *m, enum store_table_id t, int64_t src_run, int64_t dst_run);

/* Copy the child rows (task, value, metric) of input run src to output run dst. */
static int copy_children(struct merge *m, int64_t src, int64_t dst)
{
	for (int t = 0; t < T_NTABLES; t++)
		if (store_tables[t].merge == MERGE_CHILD && copy_table(m, t, src, dst))
			return -1;
	return 0;
}

/*
 * Copy the rows of table t (children: of input run src_run, as output run
 * dst_run) by the table's merge rule.
 */
static int copy_table(struct merge *m, enum store_table_id t, int64_t src_run, int64_t dst_run)
{
	const struct store_table *tb = &store_tables[t];
	sqlite3_stmt *sel = m->sel[t], *find = m->find[t];
	int ret = 0, rc;

	sqlite3_reset(sel);
	if (tb->merge == MERGE_CHILD)
		sqlite3_bind_int64(sel, 1, src_run);
	while (!ret && (rc = sqlite3_step(sel)) == SQLITE_ROW) {
		int64_t have_id = -1, new_id;
		int have, newer = 0;

		if (tb->merge != MERGE_CHILD) {
			bind_row(m, t, find, -1);
			have = sqlite3_step(find) == SQLITE_ROW;
			if (have) {
				have_id = sqlite3_column_int64(find, 0);
				for (int i = 0; i < tb->ncol; i++) {
					const unsigned char *a, *b;

					if (!(tb->col[i].flags & COL_NEWER))
						continue;
					a = sqlite3_column_text(sel, i);
					b = sqlite3_column_text(find, 1);
					newer = a && (!b || strcmp((const char *)a, (const char *)b) > 0);
				}
			}
			sqlite3_reset(find);
			sqlite3_clear_bindings(find);
			if (have && tb->merge == MERGE_MAP) {
				ret = add_id(&m->machines, sqlite3_column_int64(sel, 0), have_id);
				continue;
			}
			if (have && tb->merge == MERGE_RUN) {
				m->c->runs_skipped++;
				continue;
			}
			if (have && !(tb->merge == MERGE_NEWEST && newer))
				continue;
			if (have) {
				bind_row(m, t, m->del[t], -1);
				ret = step_done(m, m->del[t]);
				if (ret)
					break;
			}
		}
		bind_row(m, t, m->ins[t], dst_run);
		ret = step_done(m, m->ins[t]);
		if (ret)
			break;
		new_id = sqlite3_last_insert_rowid(m->out->db);
		switch (t) {
		case T_MACHINE:
			m->c->machines_added++;
			ret = add_id(&m->machines, sqlite3_column_int64(sel, 0), new_id);
			break;
		case T_RUN:
			ret = copy_children(m, sqlite3_column_int64(sel, 0), new_id);
			m->c->runs_added += !ret;
			break;
		case T_SWEEP:
			m->c->sweeps++;
			break;
		case T_TIMING:
			m->c->timings++;
			break;
		case T_NOISE:
			m->c->noise++;
			break;
		case T_VERDICT:
			m->c->verdicts++;
			break;
		default:
			break;
		}
	}
	if (!ret && rc != SQLITE_DONE) {
		error("database: reading '%s': %s", store_path(m->in), sqlite3_errmsg(m->in->db));
		ret = -1;
	}
	sqlite3_reset(sel);
	return ret;
}

int store_merge(struct store *out, struct store *in, struct store_merge_count *c)
{
	struct merge m = { .out = out, .in = in, .c = c };
	int ret = find_present(&m);

	for (int t = 0; !ret && t < T_NTABLES; t++)
		ret = prepare_table(&m, t);
	for (int t = 0; !ret && t < T_NTABLES; t++)
		if (store_tables[t].merge != MERGE_CHILD)
			ret = copy_table(&m, t, -1, -1);
	for (int t = 0; t < T_NTABLES; t++) {
		sqlite3_finalize(m.sel[t]);
		sqlite3_finalize(m.find[t]);
		sqlite3_finalize(m.ins[t]);
		sqlite3_finalize(m.del[t]);
	}
	free(m.machines.from);
	free(m.machines.to);
	return ret;
}
