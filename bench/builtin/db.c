/*
 * builtin/db.c - sgabench db: database maintenance for fleets.
 *
 *   db merge A.db B.db ... -o OUT.db   runs of many machines into one database
 *   db check [--db PATH]               integrity, schema version, row counts
 *
 * The merge itself is the store's (store/merge.c), driven by the column
 * descriptors, so a column a migration adds is merged without a change
 * here: one transaction on OUT for all inputs, nothing written on failure.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "builtin/builtin.h"
#include "builtin/db_named.h"
#include "lib/json.h"
#include "lib/log.h"
#include "lib/opt.h"
#include "store/columns.h"
#include "store/merge.h"
#include "store/query.h"
#include "store/store.h"
#include "machine/sysinfo.h"
#include "output/envelope.h"

#define MAX_INPUTS 1024

/* Open input path read-only (its schema known to this build). Returns 0 or
 * -errno, the message printed: -ENOENT, -EINVAL (it is the output too),
 * -EPROTONOSUPPORT (a schema this build does not know), or store_open_ro's. */
static int open_input(const char *path, const struct stat *outst, struct store **db)
{
	struct stat st;
	int ver = -1;

	if (store_is_pg_uri(path)) {
		/* a server: store_open_ro checks its schema version */
		return store_open_ro(path, db);
	}
	if (stat(path, &st) != 0) {
		error("db merge: no database at '%s'", path);
		return -ENOENT;
	}
	if (outst && st.st_dev == outst->st_dev && st.st_ino == outst->st_ino) {
		error("db merge: '%s' is both an input and the output", path);
		hint("write the merge to a new file with -o");
		return -EINVAL;
	}
	if (store_probe_version(path, &ver) || ver < 1 || ver > store_schema_version()) {
		error("db merge: '%s' has schema version %d; this sgabench knows 1..%d", path, ver,
		      store_schema_version());
		hint("merge it with the sgabench that wrote it, or a newer one");
		return -EPROTONOSUPPORT;
	}
	return store_open_ro(path, db);
}

struct merge_opts {
	const char *output;
	int json;
};

static const struct opt merge_tab[] = {
	{ .name = "output", .type = OPT_STR, .off = offsetof(struct merge_opts, output),
	  .metavar = "OUT.db",
	  .help = "the merged database (also -o); created if missing, else merged into" },
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct merge_opts, json),
	  .help = "machine-readable summary" },
	{ NULL },
};

static void count_json(struct json *j, const char *key, const char *path,
		       const struct store_merge_count *c)
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

/*
 * Merge the np inputs in[] into out in one transaction, counting each
 * into c[i] and all of them into *tot. Returns EX_OK, or EX_FAIL with out
 * unchanged (rolled back).
 */
static int merge_inputs(struct store *out, struct store **in, char **pos, int np, const char *output,
			struct store_merge_count *c, struct store_merge_count *tot)
{
	if (store_begin(out))
		return EX_FAIL;
	for (int i = 0; i < np; i++) {
		if (store_merge(out, in[i], &c[i])) {
			error("db merge: merging '%s' failed; '%s' is unchanged", pos[i], output);
			store_rollback(out);
			return EX_FAIL;
		}
		tot->runs_added += c[i].runs_added;
		tot->runs_skipped += c[i].runs_skipped;
		tot->machines_added += c[i].machines_added;
		tot->sweeps += c[i].sweeps;
		tot->timings += c[i].timings;
		tot->noise += c[i].noise;
		tot->verdicts += c[i].verdicts;
	}
	return store_commit(out) ? EX_FAIL : EX_OK;
}

/* Say what the merge added, per input and in all, as text or (o->json) JSON. */
static void merge_report(const struct merge_opts *o, char **pos, int np, const struct store_merge_count *c,
			 const struct store_merge_count *tot)
{
	if (o->json) {
		struct json j;
		struct sysinfo si;

		json_init(&j, stdout, 1);
		json_obj_open(&j, NULL);
		sysinfo_collect(&si);
		envelope_json(&j, &si, "db merge");
		json_str(&j, "output", o->output);
		json_arr_open(&j, "inputs");
		for (int i = 0; i < np; i++)
			count_json(&j, NULL, pos[i], &c[i]);
		json_arr_close(&j);
		count_json(&j, "total", NULL, tot);
		json_obj_close(&j);
		json_end(&j);
		return;
	}
	for (int i = 0; i < np; i++)
		printf("%s: %ld runs added, %ld skipped (already present), %ld machines added\n",
		       pos[i], c[i].runs_added, c[i].runs_skipped, c[i].machines_added);
	printf("merged %d database%s into '%s': %ld runs added, %ld skipped; %ld machines, "
	       "%ld sweeps, %ld timings, %ld verdicts added, %ld noise floors written\n", np,
	       np == 1 ? "" : "s", o->output, tot->runs_added, tot->runs_skipped, tot->machines_added,
	       tot->sweeps, tot->timings, tot->verdicts, tot->noise);
}

static int db_merge(int argc, char **argv)
{
	struct merge_opts o = { 0 };
	char *pos[MAX_INPUTS], **av = calloc(argc + 1, sizeof(*av));
	struct store_merge_count *c = calloc(MAX_INPUTS, sizeof(*c)), tot = { 0 };
	struct store *out = NULL, **in = calloc(MAX_INPUTS, sizeof(*in));
	int np = MAX_INPUTS, ret;
	struct stat ost;
	char shown[1024];

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
		if (store_is_pg_uri(pos[i]) && strcmp(pos[i], o.output) == 0) {
			error("db merge: '%s' is both an input and the output",
			      store_display(pos[i], shown, sizeof(shown)));
			ret = EX_USAGE;
			goto out;
		}
		ret = open_input(pos[i], stat(o.output, &ost) == 0 ? &ost : NULL, &in[i]);
		if (ret)
			goto out;
	}
	ret = store_open(o.output, &out);
	if (ret)
		goto out;
	ret = merge_inputs(out, in, pos, np, o.output, c, &tot);
	if (!ret)
		merge_report(&o, pos, np, c, &tot);
out:
	for (int i = 0; in && i < np; i++)
		store_close(in[i]);
	if (out)
		store_close(out);
	free(in);
	free(c);
	free(av);
	return ret;
}

static const struct opt check_tab[] = {
	{ .type = OPT_ROWS, .rows = builtin_read_rows, .off = 0 },
	{ NULL },
};

static int db_check(int argc, char **argv)
{
	struct read_cfg o = { 0 };
	char shown[1024];
	struct store_check c;
	struct store *db;
	struct json j;
	struct sysinfo si;
	int ret, bad;

	ret = opt_parse(check_tab, &o, argc, argv, "db check", "[--db PATH] [--json]", NULL, NULL);
	if (ret)
		return ret == OPT_HELP_SHOWN ? EX_OK : ret;
	ret = store_open_ro(o.db, &db);
	if (ret)
		return ret;
	o.db = store_display(o.db, shown, sizeof(shown));
	if (store_check(db, &c)) {
		error("db check: reading '%s': %s", o.db, store_errmsg(db));
		store_close(db);
		return EX_FAIL;
	}
	store_close(db);
	bad = strcmp(c.integrity, "ok") != 0 &&
	      strncmp(c.integrity, STORE_INTEGRITY_UNCHECKED, strlen(STORE_INTEGRITY_UNCHECKED)) != 0;
	if (o.json) {
		json_init(&j, stdout, 1);
		json_obj_open(&j, NULL);
		sysinfo_collect(&si);
		envelope_json(&j, &si, "db check");
		json_str(&j, "path", o.db);
		json_i64(&j, "db_schema_version", c.schema_version);
		json_str(&j, "integrity", c.integrity);
		json_i64(&j, "foreign_key_problems", c.fk_problems);
		json_str(&j, "collation", c.collation[0] ? c.collation : NULL);
		json_str(&j, "text_order", c.text_bytes < 0 ? NULL : c.text_bytes ? "bytes" : "collation");
		json_obj_open(&j, "rows");
	} else {
		printf("database       %s\nschema version %d (this sgabench knows 1..%d)\n"
		       "integrity      %s\nforeign keys   %lld problems\n", o.db,
		       c.schema_version, store_schema_version(), c.integrity,
		       (long long)c.fk_problems);
	}
	for (int i = 0; store_tables[i].name; i++) {
		if (o.json)
			json_i64(&j, store_tables[i].name, c.rows[i]);
		else
			printf("%-14s %lld\n", store_tables[i].name, (long long)c.rows[i]);
	}
	if (o.json) {
		json_obj_close(&j);
		json_i64(&j, "failed_runs", c.failed_runs);
		json_obj_close(&j);
		json_end(&j);
	} else {
		printf("failed runs    %lld\n", (long long)c.failed_runs);
		printf("text order     %s (collation %s)\n", c.text_bytes < 0 ? "unknown" : c.text_bytes ?
		       "byte by byte, as SQLite" : "the server's, not SQLite's", c.collation);
	}
	/* not a fault of the data: the listings of a file and of this server differ in order */
	if (c.text_bytes == 0)
		warning("db check: '%s' sorts text by its collation '%s', not byte by byte as SQLite: "
			"reports, listings and comparisons list rows in another order than from a file;"
			" a database created with 'createdb --locale=C -T template0' sorts as SQLite",
			o.db, c.collation);
	if (bad || c.fk_problems) {
		error("db check: '%s' has problems (integrity: %s, %lld foreign key problems)", o.db,
		      c.integrity, (long long)c.fk_problems);
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
	if (argc >= 2 && strcmp(argv[1], "query") == 0)
		return db_query(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "exec") == 0)
		return db_exec(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "init") == 0)
		return db_init(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "schema") == 0)
		return db_schema(argc - 1, argv + 1);
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		printf("usage: sgabench db merge A.db B.db ... -o OUT.db [--json]\n"
		       "       sgabench db check [--db PATH] [--json]\n"
		       "       sgabench db init [--db PATH]\n"
		       "       sgabench db schema [--json]\n"
		       "       sgabench db query [--db PATH] [--json] NAME [ARG...]   (--list)\n"
		       "       sgabench db exec [--db PATH] NAME [ARG...] | --stdin   (--list)\n");
		return EX_OK;
	}
	error("db: %s", argc < 2 ? "which one: merge, check, init, schema, query or exec"
			       : "unknown subcommand");
	hint("sgabench db merge A.db B.db ... -o OUT.db, or sgabench db check [--db PATH]");
	return EX_USAGE;
}
