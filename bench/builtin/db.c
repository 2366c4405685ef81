/*
 * builtin/db.c - sgabench db: database maintenance for fleets.
 *
 *   db merge A.db B.db ... -o OUT.db   runs of many machines into one database
 *   db check [--db PATH]               integrity, schema version, row counts
 *
 * Merging copies rows through two connections (no ATTACH, so any number
 * of inputs and one transaction on OUT): machines are matched by
 * fingerprint, runs by uuid (a run already in OUT is skipped with its
 * tasks, values and metrics), sweeps by uuid, noise floors by (cell,
 * metric, machine) keeping the newest measurement, timings and verdicts
 * unless an identical row is already there. The column lists are those of
 * schema 1, plus schema 2's per-window tables when the input has them (a
 * verdict's noise_floor and mde columns are not carried over); a
 * migration that adds columns must add them here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "builtin/builtin.h"
#include "lib/json.h"
#include "lib/log.h"
#include "lib/opt.h"
#include "store/store.h"

#define MAX_INPUTS 1024

struct merge_count {
	long runs_added, runs_skipped, machines_added, sweeps, timings, noise, verdicts;
};

struct idmap {
	int64_t *from, *to;
	size_t n;
};

static int64_t map_id(const struct idmap *m, int64_t from)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->from[i] == from)
			return m->to[i];
	return -1;
}

/* Bind columns [c0, c0+n) of src as parameters [p0, p0+n) of dst. */
static void bind_cols(sqlite3_stmt *dst, int p0, sqlite3_stmt *src, int c0, int n)
{
	for (int i = 0; i < n; i++)
		sqlite3_bind_value(dst, p0 + i, sqlite3_column_value(src, c0 + i));
}

/* Bind a machine id mapped into OUT (NULL stays NULL). */
static void bind_machine(sqlite3_stmt *dst, int p, sqlite3_stmt *src, int c, const struct idmap *m)
{
	if (sqlite3_column_type(src, c) == SQLITE_NULL)
		sqlite3_bind_null(dst, p);
	else
		sqlite3_bind_int64(dst, p, map_id(m, sqlite3_column_int64(src, c)));
}

/* Prepare sql on db, or NULL with the error printed. */
static sqlite3_stmt *prep(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		error("database: %s", sqlite3_errmsg(db));
		return NULL;
	}
	return st;
}

/* Step an insert; returns 0, or -1 with the error printed. */
static int step_done(sqlite3 *db, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		error("database: %s", sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}

/* Map every machine of in to OUT, inserting the ones OUT lacks. */
static int merge_machines(sqlite3 *out, sqlite3 *in, struct idmap *m, struct merge_count *c)
{
	sqlite3_stmt *s = prep(in, "SELECT id, fingerprint, hostname, arch, cpu_vendor, cpu_model,"
			       " microcode, kernel, is_vm, first_seen, info_json FROM machine");
	sqlite3_stmt *f = prep(out, "SELECT id FROM machine WHERE fingerprint = ?");
	sqlite3_stmt *i = prep(out, "INSERT INTO machine (fingerprint, hostname, arch, cpu_vendor,"
			       " cpu_model, microcode, kernel, is_vm, first_seen, info_json)"
			       " VALUES (?,?,?,?,?,?,?,?,?,?)");
	int ret = (s && f && i) ? 0 : -1;

	while (!ret && sqlite3_step(s) == SQLITE_ROW) {
		int64_t *nf = realloc(m->from, (m->n + 1) * sizeof(*nf)), *nt, id;

		if (nf)
			m->from = nf;
		nt = realloc(m->to, (m->n + 1) * sizeof(*nt));
		if (nt)
			m->to = nt;
		if (!nf || !nt) {
			ret = -1;
			break;
		}
		bind_cols(f, 1, s, 1, 1);
		if (sqlite3_step(f) == SQLITE_ROW) {
			id = sqlite3_column_int64(f, 0);
		} else {
			bind_cols(i, 1, s, 1, 10);
			ret = step_done(out, i);
			id = sqlite3_last_insert_rowid(out);
			c->machines_added++;
		}
		sqlite3_reset(f);
		m->from[m->n] = sqlite3_column_int64(s, 0);
		m->to[m->n++] = id;
	}
	sqlite3_finalize(s);
	sqlite3_finalize(f);
	sqlite3_finalize(i);
	return ret;
}

/* Copy the rows of one child table (task, value, metric) of run src_id to run dst_id. */
static int copy_children(sqlite3 *out, sqlite3 *in, const char *sel, const char *ins, int ncols,
			 int64_t src_id, int64_t dst_id)
{
	sqlite3_stmt *s = prep(in, sel), *i = prep(out, ins);
	int ret = (s && i) ? 0 : -1;

	if (!ret)
		sqlite3_bind_int64(s, 1, src_id);
	while (!ret && sqlite3_step(s) == SQLITE_ROW) {
		sqlite3_bind_int64(i, 1, dst_id);
		bind_cols(i, 2, s, 0, ncols);
		ret = step_done(out, i);
	}
	sqlite3_finalize(s);
	sqlite3_finalize(i);
	return ret;
}

#define RUN_COLS "uuid, machine_id, started_at, wall_s, version, backend, workload, tasks," \
	" threads, page_size, align, backing, sharedctx, sga_bytes, ws_bytes, rounds, seed, cell," \
	" label, config_json, status, reason"

/* Whether database db has a table called name (schema 2 added the per-window tables). */
static int has_table(sqlite3 *db, const char *name)
{
	sqlite3_stmt *st = prep(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
	int have = 0;

	if (!st)
		return 0;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	have = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return have;
}

/* Copy the per-window rows of run src in in to run dst in out (schema 2 inputs). */
static int copy_windows(sqlite3 *out, sqlite3 *in, int64_t src, int64_t dst)
{
	int ret;

	if (!has_table(in, "run_window"))
		return 0;
	ret = copy_children(out, in, "SELECT win, task, accesses, window_ns FROM run_window"
			    " WHERE run_id = ?", "INSERT INTO run_window (run_id, win, task, accesses,"
			    " window_ns) VALUES (?,?,?,?,?)", 4, src, dst);
	if (!ret)
		ret = copy_children(out, in, "SELECT win, task, event, value, raw, enabled, running,"
				    " missing FROM window_value WHERE run_id = ?",
				    "INSERT INTO window_value (run_id, win, task, event, value, raw,"
				    " enabled, running, missing) VALUES (?,?,?,?,?,?,?,?,?)", 8, src, dst);
	return ret;
}

/* Copy the runs of in that OUT does not have (by uuid), with their tasks, values and metrics. */
static int merge_runs(sqlite3 *out, sqlite3 *in, const struct idmap *m, struct merge_count *c)
{
	sqlite3_stmt *s = prep(in, "SELECT id, " RUN_COLS " FROM run ORDER BY id");
	sqlite3_stmt *f = prep(out, "SELECT 1 FROM run WHERE uuid = ?");
	sqlite3_stmt *i = prep(out, "INSERT INTO run (" RUN_COLS ") VALUES (?,?,?,?,?,?,?,?,?,?,"
			       "?,?,?,?,?,?,?,?,?,?,?,?)");
	int ret = (s && f && i) ? 0 : -1;

	while (!ret && sqlite3_step(s) == SQLITE_ROW) {
		int64_t src = sqlite3_column_int64(s, 0), dst;
		int have;

		bind_cols(f, 1, s, 1, 1);
		have = sqlite3_step(f) == SQLITE_ROW;
		sqlite3_reset(f);
		if (have) {
			c->runs_skipped++;
			continue;
		}
		bind_cols(i, 1, s, 1, 22);
		bind_machine(i, 2, s, 2, m);
		ret = step_done(out, i);
		dst = sqlite3_last_insert_rowid(out);
		if (!ret)
			ret = copy_children(out, in, "SELECT task, cpu, accesses, window_ns, vmpte_kb,"
					    " ft_minflt FROM task WHERE run_id = ?",
					    "INSERT INTO task (run_id, task, cpu, accesses, window_ns,"
					    " vmpte_kb, ft_minflt) VALUES (?,?,?,?,?,?,?)", 6, src, dst);
		if (!ret)
			ret = copy_children(out, in, "SELECT task, event, value, raw, enabled, running,"
					    " missing FROM value WHERE run_id = ?",
					    "INSERT INTO value (run_id, task, event, value, raw, enabled,"
					    " running, missing) VALUES (?,?,?,?,?,?,?,?)", 7, src, dst);
		if (!ret)
			ret = copy_children(out, in, "SELECT name, value FROM metric WHERE run_id = ?",
					    "INSERT INTO metric (run_id, name, value) VALUES (?,?,?)",
					    2, src, dst);
		if (!ret)
			ret = copy_windows(out, in, src, dst);
		c->runs_added += !ret;
	}
	sqlite3_finalize(s);
	sqlite3_finalize(f);
	sqlite3_finalize(i);
	return ret;
}

/*
 * Copy the rows of a table without a natural key: sel reads n columns
 * from in; ins inserts them unless an equal row exists (it counts
 * changes). mcol is the column holding a machine id to map, or -1.
 */
static int merge_table(sqlite3 *out, sqlite3 *in, const char *sel, const char *ins, int n,
		       int mcol, const struct idmap *m, long *count)
{
	sqlite3_stmt *s = prep(in, sel), *i = prep(out, ins);
	int ret = (s && i) ? 0 : -1;

	while (!ret && sqlite3_step(s) == SQLITE_ROW) {
		bind_cols(i, 1, s, 0, n);
		if (mcol >= 0)
			bind_machine(i, mcol + 1, s, mcol, m);
		ret = step_done(out, i);
		*count += sqlite3_changes(out);
	}
	sqlite3_finalize(s);
	sqlite3_finalize(i);
	return ret;
}

static int merge_one(sqlite3 *out, sqlite3 *in, struct merge_count *c)
{
	struct idmap m = { 0 };
	int ret = merge_machines(out, in, &m, c);

	if (!ret)
		ret = merge_runs(out, in, &m, c);
	if (!ret)
		ret = merge_table(out, in, "SELECT uuid, name, started_at, order_seed, cell_order,"
				  " config FROM sweep", "INSERT OR IGNORE INTO sweep (uuid, name,"
				  " started_at, order_seed, cell_order, config) VALUES (?,?,?,?,?,?)",
				  6, -1, &m, &c->sweeps);
	if (!ret)
		ret = merge_table(out, in, "SELECT run_uuid, sweep_uuid, cell, command, iteration,"
				  " wall_s, user_s, system_s, exit_code FROM timing",
				  "INSERT INTO timing (run_uuid, sweep_uuid, cell, command, iteration,"
				  " wall_s, user_s, system_s, exit_code) SELECT ?1,?2,?3,?4,?5,?6,?7,?8,?9"
				  " WHERE NOT EXISTS (SELECT 1 FROM timing WHERE run_uuid IS ?1 AND"
				  " sweep_uuid IS ?2 AND cell = ?3 AND command = ?4 AND iteration = ?5"
				  " AND wall_s = ?6)", 9, -1, &m, &c->timings);
	if (!ret)
		ret = merge_table(out, in, "SELECT cell, metric, machine_id, floor, samples,"
				  " measured_at FROM noise", "INSERT INTO noise (cell, metric,"
				  " machine_id, floor, samples, measured_at) VALUES (?,?,?,?,?,?)"
				  " ON CONFLICT (cell, metric, machine_id) DO UPDATE SET"
				  " floor = excluded.floor, samples = excluded.samples,"
				  " measured_at = excluded.measured_at"
				  " WHERE excluded.measured_at > noise.measured_at", 6, 2, &m, &c->noise);
	if (!ret)
		ret = merge_table(out, in, "SELECT created_at, baseline, candidate, cell, metric,"
				  " machine_id, n_base, n_cand, ratio, ci_lo, ci_hi, p_value, q_value,"
				  " verdict, method, reason FROM verdict",
				  "INSERT INTO verdict (created_at, baseline, candidate, cell, metric,"
				  " machine_id, n_base, n_cand, ratio, ci_lo, ci_hi, p_value, q_value,"
				  " verdict, method, reason) SELECT ?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,"
				  "?12,?13,?14,?15,?16 WHERE NOT EXISTS (SELECT 1 FROM verdict WHERE"
				  " created_at = ?1 AND baseline = ?2 AND candidate = ?3 AND cell = ?4"
				  " AND metric = ?5 AND machine_id IS ?6)", 16, 5, &m, &c->verdicts);
	free(m.from);
	free(m.to);
	return ret;
}

/* Open input path read-only and check its schema version. Returns 0 or an exit status. */
static int open_input(const char *path, const struct stat *outst, sqlite3 **db)
{
	struct stat st;
	sqlite3_stmt *v;
	int ver = -1;

	if (stat(path, &st) != 0) {
		error("db merge: no database at '%s'", path);
		return EX_RESOURCE;
	}
	if (outst && st.st_dev == outst->st_dev && st.st_ino == outst->st_ino) {
		error("db merge: '%s' is both an input and the output", path);
		hint("write the merge to a new file with -o");
		return EX_USAGE;
	}
	if (sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		error("db merge: cannot open '%s': %s", path, sqlite3_errmsg(*db));
		return EX_RESOURCE;
	}
	sqlite3_busy_timeout(*db, STORE_BUSY_MS);
	if (sqlite3_prepare_v2(*db, "PRAGMA user_version", -1, &v, NULL) == SQLITE_OK &&
	    sqlite3_step(v) == SQLITE_ROW)
		ver = sqlite3_column_int(v, 0);
	sqlite3_finalize(v);
	if (ver < 1 || ver > store_schema_version()) {
		error("db merge: '%s' has schema version %d; this sgabench knows 1..%d", path, ver,
		      store_schema_version());
		hint("merge it with the sgabench that wrote it, or a newer one");
		return EX_RESOURCE;
	}
	return 0;
}

struct merge_opts {
	const char *output;
	int json;
};

static const struct opt merge_tab[] = {
	{ "output", OPT_STR, offsetof(struct merge_opts, output), 0, 0, 0, 0, NULL, "OUT.db", NULL,
	  "the merged database (also -o); created if missing, else merged into" },
	{ "json", OPT_FLAG, offsetof(struct merge_opts, json), 0, 0, 0, 0, NULL, NULL, NULL,
	  "machine-readable summary" },
	{ NULL },
};

static void count_json(struct json *j, const char *key, const char *path, const struct merge_count *c)
{
	json_obj_open(j, key);
	if (path)
		json_str(j, "path", path);
	json_i64(j, "runs_added", c->runs_added);
	json_i64(j, "runs_skipped", c->runs_skipped);
	json_i64(j, "machines_added", c->machines_added);
	json_i64(j, "sweeps_added", c->sweeps);
	json_i64(j, "timings_added", c->timings);
	json_i64(j, "noise_rows_written", c->noise);
	json_i64(j, "verdicts_added", c->verdicts);
	json_obj_close(j);
}

static int db_merge(int argc, char **argv)
{
	struct merge_opts o = { 0 };
	char *pos[MAX_INPUTS], **av = calloc(argc + 1, sizeof(*av));
	struct merge_count *c = calloc(MAX_INPUTS, sizeof(*c)), tot = { 0 };
	sqlite3 *out = NULL, **in = calloc(MAX_INPUTS, sizeof(*in));
	int np = MAX_INPUTS, ret;
	struct stat ost;

	if (!av || !c || !in) {
		ret = EX_FAIL;
		goto out;
	}
	for (int i = 0; i < argc; i++)	/* the one short option: -o */
		av[i] = strcmp(argv[i], "-o") == 0 ? "--output" : argv[i];
	ret = opt_parse(merge_tab, &o, argc, av, "db merge", "A.db B.db ... -o OUT.db", pos, &np);
	if (ret) {
		ret = ret == OPT_HELP_SHOWN ? EX_OK : ret;
		goto out;
	}
	if (!o.output || np == 0) {
		error("db merge: %s", o.output ? "no input databases" : "-o OUT.db is required");
		hint("sgabench db merge A.db B.db ... -o all.db");
		ret = EX_USAGE;
		goto out;
	}
	for (int i = 0; i < np; i++) {
		ret = open_input(pos[i], stat(o.output, &ost) == 0 ? &ost : NULL, &in[i]);
		if (ret)
			goto out;
	}
	if (store_open(o.output, &out)) {
		ret = EX_RESOURCE;
		goto out;
	}
	ret = EX_FAIL;
	if (store_exec(out, "BEGIN IMMEDIATE"))
		goto out;
	for (int i = 0; i < np; i++) {
		if (merge_one(out, in[i], &c[i])) {
			error("db merge: merging '%s' failed; '%s' is unchanged", pos[i], o.output);
			sqlite3_exec(out, "ROLLBACK", NULL, NULL, NULL);
			goto out;
		}
		tot.runs_added += c[i].runs_added;
		tot.runs_skipped += c[i].runs_skipped;
		tot.machines_added += c[i].machines_added;
		tot.sweeps += c[i].sweeps;
		tot.timings += c[i].timings;
		tot.noise += c[i].noise;
		tot.verdicts += c[i].verdicts;
	}
	if (store_exec(out, "COMMIT"))
		goto out;
	ret = EX_OK;
	if (o.json) {
		struct json j;

		json_init(&j, stdout, 1);
		json_obj_open(&j, NULL);
		json_str(&j, "tool", "sgabench");
		json_str(&j, "version", SGA_VERSION);
		json_u64(&j, "schema_version", (uint64_t)store_schema_version());
		json_str(&j, "output", o.output);
		json_arr_open(&j, "inputs");
		for (int i = 0; i < np; i++)
			count_json(&j, NULL, pos[i], &c[i]);
		json_arr_close(&j);
		count_json(&j, "total", NULL, &tot);
		json_obj_close(&j);
		json_end(&j);
		goto out;
	}
	for (int i = 0; i < np; i++)
		printf("%s: %ld runs added, %ld skipped (already present), %ld machines added\n",
		       pos[i], c[i].runs_added, c[i].runs_skipped, c[i].machines_added);
	printf("merged %d database%s into '%s': %ld runs added, %ld skipped; %ld machines, "
	       "%ld sweeps, %ld timings, %ld verdicts added, %ld noise floors written\n", np,
	       np == 1 ? "" : "s", o.output, tot.runs_added, tot.runs_skipped, tot.machines_added,
	       tot.sweeps, tot.timings, tot.verdicts, tot.noise);
out:
	for (int i = 0; in && i < np; i++)
		if (in[i])
			sqlite3_close(in[i]);
	if (out)
		store_close(out);
	free(in);
	free(c);
	free(av);
	return ret;
}

struct check_opts {
	const char *db;
	int json;
};

static const struct opt check_tab[] = {
	{ "db", OPT_STR, offsetof(struct check_opts, db), 0, 0, 0, 0, NULL, "PATH",
	  STORE_DEFAULT_PATH, "database" },
	{ "json", OPT_FLAG, offsetof(struct check_opts, json), 0, 0, 0, 0, NULL, NULL, NULL,
	  "machine-readable output" },
	{ NULL },
};

/* The first column of the first row of sql as an integer (-1 on error). */
static int64_t scalar(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static int db_check(int argc, char **argv)
{
	static const char *const tables[] = { "machine", "run", "task", "value", "metric",
					      "timing", "sweep", "noise", "verdict", NULL };
	struct check_opts o = { .db = STORE_DEFAULT_PATH };
	char integ[256] = "", sql[96];
	int64_t fk, failed;
	sqlite3_stmt *st;
	struct json j;
	sqlite3 *db;
	int ret, nproblems = 0;

	ret = opt_parse(check_tab, &o, argc, argv, "db check", "[--db PATH] [--json]", NULL, NULL);
	if (ret)
		return ret == OPT_HELP_SHOWN ? EX_OK : ret;
	if (store_open_ro(o.db, &db))
		return EX_RESOURCE;
	if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			if (!nproblems++)
				snprintf(integ, sizeof(integ), "%s", sqlite3_column_text(st, 0));
		}
		sqlite3_finalize(st);
	}
	if (nproblems == 1 && strcmp(integ, "ok") == 0)
		nproblems = 0;
	fk = scalar(db, "SELECT COUNT(*) FROM pragma_foreign_key_check");
	failed = scalar(db, "SELECT COUNT(*) FROM run WHERE status = 'failed'");
	if (o.json) {
		json_init(&j, stdout, 1);
		json_obj_open(&j, NULL);
		json_str(&j, "tool", "sgabench");
		json_str(&j, "version", SGA_VERSION);
		json_str(&j, "path", o.db);
		json_i64(&j, "schema_version", scalar(db, "PRAGMA user_version"));
		json_u64(&j, "schema_version_known", (uint64_t)store_schema_version());
		json_str(&j, "integrity", nproblems ? integ : "ok");
		json_i64(&j, "foreign_key_problems", fk);
		json_obj_open(&j, "rows");
	} else {
		printf("database       %s\nschema version %lld (this sgabench knows 1..%d)\n"
		       "integrity      %s\nforeign keys   %lld problems\n", o.db,
		       (long long)scalar(db, "PRAGMA user_version"), store_schema_version(),
		       nproblems ? integ : "ok", (long long)fk);
	}
	for (int i = 0; tables[i]; i++) {
		snprintf(sql, sizeof(sql), "SELECT COUNT(*) FROM %s", tables[i]);
		if (o.json)
			json_i64(&j, tables[i], scalar(db, sql));
		else
			printf("%-14s %lld%s\n", tables[i], (long long)scalar(db, sql),
			       i == 1 ? "" : "");
	}
	if (o.json) {
		json_obj_close(&j);
		json_i64(&j, "failed_runs", failed);
		json_obj_close(&j);
		json_end(&j);
	} else {
		printf("failed runs    %lld\n", (long long)failed);
	}
	store_close(db);
	if (nproblems || fk) {
		error("db check: '%s' has problems (integrity: %s, %lld foreign key problems)", o.db,
		      nproblems ? integ : "ok", (long long)fk);
		return EX_FAIL;
	}
	return EX_OK;
}

int cmd_db(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "merge") == 0)
		return db_merge(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "check") == 0)
		return db_check(argc - 1, argv + 1);
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		printf("usage: sgabench db merge A.db B.db ... -o OUT.db [--json]\n"
		       "       sgabench db check [--db PATH] [--json]\n");
		return EX_OK;
	}
	error("db: %s", argc < 2 ? "which one: merge or check" : "unknown subcommand");
	hint("sgabench db merge A.db B.db ... -o OUT.db, or sgabench db check [--db PATH]");
	return EX_USAGE;
}
