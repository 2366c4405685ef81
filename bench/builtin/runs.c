/* builtin/runs.c - sgabench runs: list stored runs, newest first. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "builtin/builtin.h"
#include "lib/json.h"
#include "lib/log.h"
#include "lib/opt.h"
#include "store/store.h"

struct runs_cfg {
	const char *db;
	uint64_t limit;
	const char *label;
	const char *backend;
	int failed;
	int json;
};

#define F(x) offsetof(struct runs_cfg, x)
static const struct opt runs_opts[] = {
	{ .name = "db", .type = OPT_STR, .off = F(db),
	  .metavar = "PATH", .def = STORE_DEFAULT_PATH,
	  .help = "SQLite database" },
	{ .name = "limit", .type = OPT_UINT, .off = F(limit), .min = 1, .max = 1000000,
	  .metavar = "N", .def = "50",
	  .help = "show at most N runs" },
	{ .name = "label", .type = OPT_STR, .off = F(label),
	  .metavar = "TEXT",
	  .help = "only runs with this label (SQL LIKE pattern)" },
	{ .name = "backend", .type = OPT_STR, .off = F(backend),
	  .metavar = "NAME",
	  .help = "only this backend (native, model:%, ...)" },
	{ .name = "failed", .type = OPT_FLAG, .off = F(failed),
	  .help = "only failed runs" },
	{ .name = "json", .type = OPT_FLAG, .off = F(json),
	  .help = "print a JSON array" },
	{ NULL },
};

static const char *col(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? (const char *)t : "";
}

int cmd_runs(int argc, char **argv)
{
	static const char *q =
		"SELECT r.id, r.uuid, r.started_at, r.backend, r.status, r.workload, r.tasks,"
		" r.page_size, COALESCE(r.align, ''), COALESCE(r.backing, ''), r.rounds,"
		" COALESCE(r.label, ''), m.fingerprint, COALESCE(r.reason, ''), r.cell"
		" FROM run r JOIN machine m ON m.id = r.machine_id"
		" WHERE (?1 IS NULL OR r.label LIKE ?1) AND (?2 IS NULL OR r.backend LIKE ?2)"
		" AND (?3 = 0 OR r.status = 'failed')"
		" ORDER BY r.started_at DESC, r.id DESC LIMIT ?4";
	struct runs_cfg c = { 0 };
	sqlite3_stmt *st;
	sqlite3 *db;
	struct json j;
	int ret, n = 0;

	ret = opt_parse(runs_opts, &c, argc, argv, "runs", "[OPTIONS]", NULL, NULL);
	if (ret)
		return ret == OPT_HELP_SHOWN ? EX_OK : ret;
	ret = store_open_ro(c.db, &db);
	if (ret)
		return ret;
	if (sqlite3_prepare_v2(db, q, -1, &st, NULL) != SQLITE_OK) {
		error("runs: %s", sqlite3_errmsg(db));
		store_close(db);
		return EX_FAIL;
	}
	if (c.label)
		sqlite3_bind_text(st, 1, c.label, -1, SQLITE_STATIC);
	if (c.backend)
		sqlite3_bind_text(st, 2, c.backend, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, c.failed);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)c.limit);
	if (c.json) {
		json_init(&j, stdout, 1);
		json_arr_open(&j, NULL);
	} else {
		printf("%5s  %-8s  %-20s  %-22s  %-6s  %-7s %5s  %-4s %-4s %-5s %10s  %s\n", "id", "uuid",
		       "started (UTC)", "backend", "status", "pattern", "tasks", "page", "algn", "back",
		       "rounds", "label");
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		n++;
		if (c.json) {
			json_obj_open(&j, NULL);
			json_i64(&j, "run_id", sqlite3_column_int64(st, 0));
			json_str(&j, "uuid", col(st, 1));
			json_str(&j, "started_at", col(st, 2));
			json_str(&j, "backend", col(st, 3));
			json_str(&j, "status", col(st, 4));
			json_str(&j, "workload", col(st, 5));
			json_i64(&j, "tasks", sqlite3_column_int64(st, 6));
			json_str(&j, "page_size", col(st, 7));
			json_str(&j, "align", col(st, 8));
			json_str(&j, "backing", col(st, 9));
			json_i64(&j, "rounds", sqlite3_column_int64(st, 10));
			json_str(&j, "label", col(st, 11));
			json_str(&j, "fingerprint", col(st, 12));
			json_str(&j, "reason", col(st, 13));
			json_str(&j, "cell", col(st, 14));
			json_obj_close(&j);
			continue;
		}
		printf("%5lld  %.8s  %-20s  %-22.22s  %-6s  %-7s %5d  %-4s %-4s %-5s %10lld  %s%s%s\n",
		       (long long)sqlite3_column_int64(st, 0), col(st, 1), col(st, 2), col(st, 3),
		       col(st, 4), col(st, 5), sqlite3_column_int(st, 6), col(st, 7), col(st, 8),
		       col(st, 9), (long long)sqlite3_column_int64(st, 10), col(st, 11),
		       *col(st, 13) ? "  failed: " : "", col(st, 13));
	}
	sqlite3_finalize(st);
	if (c.json) {
		json_arr_close(&j);
		json_end(&j);
	} else if (!n) {
		printf("(no runs in %s)\n", c.db);
	}
	store_close(db);
	return EX_OK;
}
