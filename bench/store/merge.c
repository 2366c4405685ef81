/*
 * store/merge.c - 'db merge' on the column descriptors: one generic copy
 * per table, with the table's merge rule deciding what a key already in
 * the output means. Two connections, no ATTACH, so either side may be
 * SQLite or PostgreSQL: files into a server, or a server into a file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/log.h"
#include "store/internal.h"
#include "store/merge.h"
#include "store/stmt.h"

struct idmap {
	int64_t *from, *to;
	size_t n;
};

struct merge {
	struct store *out, *in;
	struct store_merge_count *c;
	struct idmap machines;
	int present[T_NTABLES][64];	/* the input has column i of table t */
	const char *in_name[T_NTABLES][64];	/* under this name (an older schema: a renamed column's old one) */
	int has[T_NTABLES];		/* the input has table t (an older schema may not) */
	struct stmt *sel[T_NTABLES], *find[T_NTABLES], *ins[T_NTABLES], *del[T_NTABLES];
};

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
		struct stmt *st = stmt_prepare(m->in, store_columns_sql(m->in));

		if (!st)
			return -1;
		stmt_bind_text(st, 1, tb->name);
		while (stmt_step(st) == STMT_ROW) {
			const char *name = stmt_col_text(st, 1);

			for (int i = 0; i < tb->ncol && i < 64; i++) {
				const char *old = store_col_at(tb->name, tb->col[i].name, 0);

				if (name && (strcmp(name, tb->col[i].name) == 0 || strcmp(name, old) == 0)) {
					m->present[t][i] = m->has[t] = 1;
					m->in_name[t][i] = strcmp(name, old) == 0 ? old : tb->col[i].name;
				}
			}
		}
		stmt_finish(st);
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
	char sel[2048] = "SELECT ", find[4096] = "SELECT ", ins[2048] = "", vals[512] = "";
	char del[4096] = "";
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
		cat(sel, sizeof(sel), m->present[t][i] ? m->in_name[t][i] : "NULL");
		if (c->flags & COL_KEY) {
			char k[192];

			/*
			 * NULL-safe equality that an index can serve: SQLite's
			 * x IS ?; a server's IS NOT DISTINCT FROM cannot use an
			 * index, so there an equality or both NULL.
			 */
			if (store_is_pg(m->out))
				snprintf(k, sizeof(k), "%s(%s = ?%d OR (%s IS NULL AND ?%d IS NULL))",
					 firstk ? "" : " AND ", c->name, i + 1, c->name, i + 1);
			else
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
	/* a server gives the new rowid back only when asked */
	if (rowid >= 0 && store_is_pg(m->out)) {
		cat(ins, sizeof(ins), " RETURNING ");
		cat(ins, sizeof(ins), tb->col[rowid].name);
	}
	m->sel[t] = stmt_prepare(m->in, sel);
	m->find[t] = stmt_prepare(m->out, find);
	m->ins[t] = stmt_prepare(m->out, ins);
	m->del[t] = stmt_prepare(m->out, del);
	return m->sel[t] && m->find[t] && m->ins[t] && m->del[t] ? 0 : -1;
}

/*
 * Bind the current input row of table t (read by m->sel[t]) as parameters
 * ?1..?n of dst, column i as ?i+1: machine ids mapped, run ids set to run.
 */
static void bind_row(struct merge *m, enum store_table_id t, struct stmt *dst, int64_t run)
{
	const struct store_table *tb = &store_tables[t];
	struct stmt *src = m->sel[t];

	/* a parameter dst does not use is refused: nothing to bind there */
	for (int i = 0; i < tb->ncol; i++) {
		unsigned f = tb->col[i].flags;
		struct store_val v = stmt_col_val(src, i);

		if ((f & COL_RUN) && run >= 0)
			stmt_bind_int64(dst, i + 1, run);
		else if ((f & COL_MACHINE) && v.kind != SV_NULL)
			stmt_bind_int64(dst, i + 1, map_id(&m->machines, stmt_col_int64(src, i)));
		else
			stmt_bind_val(dst, i + 1, &v);
	}
}

/* Step a statement with no rows and reset it; 0 or -1 (printed). */
static int step_done(struct merge *m, struct stmt *st)
{
	if (stmt_step(st) < 0) {
		error("database: %s", store_errmsg(m->out));
		return -1;
	}
	return 0;
}

/*
 * Copy the child rows (task, value, metric, windows) of input run src to
 * output run dst: the run is new in the output, so are its children, and
 * they go in batches of STORE_BATCH_ROWS rows (one round trip each on a
 * server). Only the columns the input has are written; the others get
 * their defaults. 0 or -1 (printed).
 */
static int copy_children(struct merge *m, int64_t src, int64_t dst)
{
	for (int t = 0; t < T_NTABLES; t++) {
		const struct store_table *tb = &store_tables[t];
		struct stmt *sel = m->sel[t];
		struct store_batch b;
		struct store_val v[STORE_BATCH_COLS];
		int failed = 0, rc;

		if (tb->merge != MERGE_CHILD || !m->has[t])
			continue;
		store_batch_init(&b, m->out, t, &failed, m->present[t], 1);
		stmt_reset(sel);
		stmt_bind_int64(sel, 1, src);
		while (!failed && (rc = stmt_step(sel)) == STMT_ROW) {
			for (int i = 0; i < tb->ncol && i < STORE_BATCH_COLS; i++) {
				unsigned f = tb->col[i].flags;

				v[i] = stmt_col_val(sel, i);
				if (f & COL_RUN)
					v[i] = sv_int(dst);
				else if ((f & COL_MACHINE) && v[i].kind != SV_NULL)
					v[i] = sv_int(map_id(&m->machines, v[i].i));
			}
			store_batch_add(&b, v);
		}
		stmt_reset(sel);
		if (store_batch_end(&b) || failed) {
			error("database: %s", store_errmsg(m->out));
			return -1;
		}
		if (rc < 0) {
			error("database: reading '%s': %s", store_path(m->in), store_errmsg(m->in));
			return -1;
		}
	}
	return 0;
}

/* What to do with an input row whose table is not a child table. */
enum row_action { ROW_ERROR = -1, ROW_INSERT, ROW_SKIP };

/*
 * Look the input row at sel of table t up in the output by its key and
 * apply the table's merge rule: ROW_INSERT when the key is new, or when
 * MERGE_NEWEST finds the input newer (the output's row is deleted first);
 * ROW_SKIP otherwise (a machine's id is remembered, a run counted as
 * skipped); ROW_ERROR after saying why.
 */
static enum row_action row_rule(struct merge *m, enum store_table_id t, struct stmt *sel)
{
	const struct store_table *tb = &store_tables[t];
	struct stmt *find = m->find[t];
	int64_t have_id;
	int rc, newer = 0;

	stmt_reset(find);
	bind_row(m, t, find, -1);
	rc = stmt_step(find);
	if (rc < 0) {
		error("database: %s", store_errmsg(m->out));
		return ROW_ERROR;
	}
	if (rc != STMT_ROW) {
		stmt_reset(find);
		return ROW_INSERT;
	}
	have_id = stmt_col_int64(find, 0);
	for (int i = 0; i < tb->ncol; i++) {
		const char *a, *b;

		if (!(tb->col[i].flags & COL_NEWER))
			continue;
		a = stmt_col_text(sel, i);
		b = stmt_col_text(find, 1);
		newer = a && (!b || strcmp(a, b) > 0);
	}
	stmt_reset(find);
	if (tb->merge == MERGE_MAP)
		return add_id(&m->machines, stmt_col_int64(sel, 0), have_id) ? ROW_ERROR : ROW_SKIP;
	if (tb->merge == MERGE_RUN) {
		m->c->runs_skipped++;
		return ROW_SKIP;
	}
	if (!(tb->merge == MERGE_NEWEST && newer))
		return ROW_SKIP;
	stmt_reset(m->del[t]);
	bind_row(m, t, m->del[t], -1);
	return step_done(m, m->del[t]) ? ROW_ERROR : ROW_INSERT;
}

/* Count the row of table t just copied as new_id (sel: the input row);
 * a machine's id is remembered, a run's children copied. 0 or -1. */
static int row_added(struct merge *m, enum store_table_id t, struct stmt *sel, int64_t new_id)
{
	int ret = 0;

	switch (t) {
	case T_MACHINE:
		m->c->machines_added++;
		ret = add_id(&m->machines, stmt_col_int64(sel, 0), new_id);
		break;
	case T_RUN:
		ret = copy_children(m, stmt_col_int64(sel, 0), new_id);
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
	return ret;
}

/*
 * Copy the rows of table t (children: of input run src_run, as output run
 * dst_run) by the table's merge rule.
 */
static int copy_table(struct merge *m, enum store_table_id t, int64_t src_run, int64_t dst_run)
{
	const struct store_table *tb = &store_tables[t];
	struct stmt *sel = m->sel[t];
	int ret = 0, rc = 0;

	stmt_reset(sel);
	if (tb->merge == MERGE_CHILD)
		stmt_bind_int64(sel, 1, src_run);
	while (!ret && (rc = stmt_step(sel)) == STMT_ROW) {
		if (tb->merge != MERGE_CHILD) {
			enum row_action act = row_rule(m, t, sel);

			if (act == ROW_ERROR)
				ret = -1;
			if (act != ROW_INSERT)
				continue;
		}
		stmt_reset(m->ins[t]);
		bind_row(m, t, m->ins[t], dst_run);
		ret = step_done(m, m->ins[t]);
		if (!ret)
			ret = row_added(m, t, sel, stmt_insert_id(m->ins[t]));
	}
	if (!ret && rc < 0) {
		error("database: reading '%s': %s", store_path(m->in), store_errmsg(m->in));
		ret = -1;
	}
	stmt_reset(sel);
	return ret;
}

int store_merge(struct store *out, struct store *in, struct store_merge_count *c)
{
	struct merge m = { .out = out, .in = in, .c = c };
	int ret = find_present(&m);

	for (int t = 0; !ret && t < T_NTABLES; t++)
		if (m.has[t])
			ret = prepare_table(&m, t);
	for (int t = 0; !ret && t < T_NTABLES; t++)
		if (m.has[t] && store_tables[t].merge != MERGE_CHILD)
			ret = copy_table(&m, t, -1, -1);
	for (int t = 0; t < T_NTABLES; t++) {
		stmt_finish(m.sel[t]);
		stmt_finish(m.find[t]);
		stmt_finish(m.ins[t]);
		stmt_finish(m.del[t]);
	}
	free(m.machines.from);
	free(m.machines.to);
	return ret ? -EIO : 0;
}
