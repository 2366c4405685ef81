/*
 * store/batch.c - rows of one table inserted BATCH_ROWS at a time by one
 * multi-row INSERT: a run's tasks, values and metrics, and db merge's
 * child rows. On a server that is one round trip per batch instead of
 * one per row.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "store/internal.h"
#include "store/stmt.h"

/* Whether column i of b's table is inserted: not the rowid, and present. */
static int batch_col(const struct store_batch *b, int i)
{
	return !(store_tables[b->t].col[i].flags & COL_ROWID) && (!b->present || b->present[i]);
}

/*
 * The INSERT of n rows of b's table (the columns batch_col() keeps), or
 * NULL. On PostgreSQL the ? are numbered in order by the driver.
 */
static struct stmt *prepare_rows(struct store_batch *b, size_t n)
{
	const struct store_table *tb = &store_tables[b->t];
	char one[2048], vals[512] = " (";
	char *sql;
	struct stmt *st;
	size_t len, vlen;
	int first = 1;

	if (!store_insert_sql_cols(tb, b->present, one, sizeof(one)))
		return NULL;
	for (int i = 0; i < tb->ncol; i++)
		if (batch_col(b, i)) {
			strcat(vals, first ? "?" : ", ?");
			first = 0;
		}
	strcat(vals, ")");
	vlen = strlen(vals);
	len = strlen(one) + n * (vlen + 1) + 1;
	sql = malloc(len);
	if (!sql)
		return NULL;
	snprintf(sql, len, "%s", one);
	for (size_t i = 1; i < n; i++) {
		strcat(sql, ",");
		strcat(sql, vals);
	}
	st = stmt_prepare(b->s, sql);
	free(sql);
	return st;
}

/* Free the texts b copied for its pending rows. */
static void free_texts(struct store_batch *b)
{
	if (!b->copy_text)
		return;
	for (size_t r = 0; r < b->n; r++)
		for (int i = 0; i < store_tables[b->t].ncol; i++)
			if (b->v[r][i].kind == SV_TEXT)
				free((char *)b->v[r][i].s);
}

void store_batch_init(struct store_batch *b, struct store *s, enum store_table_id t, int *failed,
		      const int *present, int copy_text)
{
	b->s = s;
	b->t = t;
	b->full = NULL;
	b->n = 0;
	b->failed = failed;
	b->present = present;
	b->copy_text = copy_text;
}

int store_batch_flush(struct store_batch *b)
{
	const struct store_table *tb = &store_tables[b->t];
	struct stmt *st;
	int p = 1;

	if (*b->failed || !b->n) {
		free_texts(b);
		b->n = 0;
		return *b->failed;
	}
	if (b->n == STORE_BATCH_ROWS && !b->full)
		b->full = prepare_rows(b, STORE_BATCH_ROWS);
	st = b->n == STORE_BATCH_ROWS ? b->full : prepare_rows(b, b->n);
	*b->failed = st ? 0 : -1;
	if (st) {
		stmt_reset(st);
		for (size_t r = 0; r < b->n; r++)
			for (int i = 0; i < tb->ncol; i++)
				if (batch_col(b, i))
					stmt_bind_val(st, p++, &b->v[r][i]);
		*b->failed = stmt_step(st) < 0 ? -1 : 0;
		if (st != b->full)
			stmt_finish(st);
	}
	free_texts(b);
	b->n = 0;
	return *b->failed;
}

void store_batch_add(struct store_batch *b, const struct store_val *v)
{
	int ncol = store_tables[b->t].ncol;

	if (ncol > STORE_BATCH_COLS) {
		*b->failed = -1;
		return;
	}
	memcpy(b->v[b->n], v, (size_t)ncol * sizeof(*v));
	if (b->copy_text)
		for (int i = 0; i < ncol; i++)
			if (v[i].kind == SV_TEXT && !(b->v[b->n][i].s = strdup(v[i].s))) {
				b->v[b->n][i] = sv_null();
				*b->failed = -1;
			}
	b->n++;
	if (b->n == STORE_BATCH_ROWS)
		store_batch_flush(b);
}

int store_batch_end(struct store_batch *b)
{
	int ret = store_batch_flush(b);

	stmt_finish(b->full);
	b->full = NULL;
	return ret;
}
