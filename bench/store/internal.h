/*
 * store/internal.h - what the files of bench/store/ share and nobody else
 * sees: the engine handle behind the opaque struct store. Only files in
 * bench/store/ include this (and so <sqlite3.h>).
 */
#ifndef SGA_STORE_INTERNAL_H
#define SGA_STORE_INTERNAL_H

#include <sqlite3.h>
#include <stdint.h>
#include "store/store.h"
#include "store/columns.h"

struct store {
	sqlite3 *db;
	char *path;		/* as given to store_open */
	int readonly;
};

/* Bind text, or NULL when s is NULL. */
void store_bind_text(sqlite3_stmt *st, int i, const char *s);

/* Prepare sql on s, or NULL with the error printed. */
sqlite3_stmt *store_prepare(struct store *s, const char *sql);

/*
 * The INSERT statement of table t naming every column of its descriptor
 * but those flagged COL_ROWID, written into buf. Returns buf, or NULL when
 * len is too small.
 */
char *store_insert_sql(const struct store_table *t, char *buf, size_t len);

/*
 * Insert row v of table t (one value per descriptor column; the rowid's is
 * ignored). *rowid, when not NULL, gets the new row's id. Returns 0 or -1
 * (sqlite3_errmsg tells).
 */
int store_insert(struct store *s, enum store_table_id t, const struct store_val *v, int64_t *rowid);

/* PRAGMA user_version into *v; 0 or -1. */
int store_user_version(struct store *s, int *v);

#endif
