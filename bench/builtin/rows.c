/*
 * builtin/rows.c - option rows more than one command shares (OPT_ROWS), so
 * each option is spelt, defaulted and documented once.
 */
#include <stddef.h>
#include "builtin/builtin.h"
#include "store/store.h"

const struct opt builtin_db_rows[] = {
	{ .name = "db", .type = OPT_STR, .off = offsetof(struct db_cfg, db),
	  .metavar = "PATH", .defhelp = "$SGABENCH_DB, else " STORE_DEFAULT_PATH,
	  .help = "database: an SQLite file, or a postgresql:// URI" },
	{ NULL },
};

const struct opt builtin_read_rows[] = {
	{ .type = OPT_ROWS, .rows = builtin_db_rows, .off = offsetof(struct read_cfg, db) },
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct read_cfg, json),
	  .help = "print JSON instead of text" },
	{ NULL },
};
