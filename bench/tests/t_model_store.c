/* t_model_store.c - `sgabench sim` and `sgabench table` end to end: exit
 * statuses, what lands in the database (backend, cell, config, per-task
 * values, not-modelled iTLB), and the table's JSON. */
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "builtin/builtin.h"
#include "lib/log.h"
#include "machine/sysinfo.h"
#include "tap.h"

static char dir[] = "/tmp/t_model_store.XXXXXX";
static char db[256], out[256];

/* Run a command with its stdout in `out`; returns its exit status, mapped as main() maps it. */
static int call(int (*fn)(int, char **), const char *const *args)
{
	char *argv[32];
	int argc = 0, saved, fd, ret;

	while (args[argc] && argc < 31) {
		argv[argc] = (char *)args[argc];
		argc++;
	}
	argv[argc] = NULL;
	fflush(stdout);
	saved = dup(1);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 1);
	close(fd);
	ret = builtin_exit(fn(argc, argv));
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	return ret;
}

/* First column of the first row of sql as an integer, or -1. */
static long long q(sqlite3 *h, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -1;

	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* Like q(), with the command's output bound as ?1. */
static long long qjson(sqlite3 *h, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -1;
	char *text = NULL;
	size_t len = 0;
	FILE *f = fopen(out, "r");

	if (!f)
		return -1;
	text = calloc(1, 1 << 20);
	if (text)
		len = fread(text, 1, (1 << 20) - 1, f);
	fclose(f);
	if (text && sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, text, (int)len, SQLITE_TRANSIENT);
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	free(text);
	return v;
}

/* qjson() on an in-memory database: for SQL that reads only the output. */
static long long qout(const char *sql)
{
	sqlite3 *h;
	long long v = -1;

	if (sqlite3_open(":memory:", &h) == SQLITE_OK)
		v = qjson(h, sql);
	sqlite3_close(h);
	return v;
}

/* Is the cell's key order sorted? */
static int cell_sorted(sqlite3 *h)
{
	sqlite3_stmt *st;
	char prev[64] = "", buf[2048];
	int sorted = 1;

	if (sqlite3_prepare_v2(h, "SELECT cell FROM run LIMIT 1", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char key[64];

		snprintf(key, sizeof(key), "%.*s", (int)strcspn(w, "="), w);
		if (strcmp(prev, key) >= 0 || !strchr(w, '='))
			sorted = 0;
		snprintf(prev, sizeof(prev), "%s", key);
	}
	return sorted;
}

/* What the hardware cannot do is a usage error (exit 2), never clamped. */
static void refusals(void)
{
	const char *strands[] = { "sim", "--machine", "amd-zen2", "--strands", "3", "--no-store", NULL };
	const char *cores0[] = { "sim", "--cores", "0", "--no-store", NULL };
	const char *cores9[] = { "sim", "--cores", "9", "--no-store", NULL };
	const char *page4m[] = { "sim", "--machine", "intel-skylake", "--page-size", "4m", "--no-store", NULL };
	const char *sparc4k[] = { "sim", "--page-size", "4k", "--working-set", "4m", "--no-store", NULL };
	const char *shared[] = { "sim", "--db", db, "--label", "asid-shared", "--machine", "amd-zen2", "--sharedctx",
				 "--rounds", "2", NULL };
	const char *sib[] = { "sim", "--machine", "intel-skylake", "--tasks", "3", "--rounds", "2", "--working-set", "8m",
			      "--json", "--no-store", NULL };
	sqlite3 *h;

	is_u64(call(cmd_sim, strands), EX_USAGE, "--strands 3 on a 2-thread Zen 2: exit 2");
	is_u64(call(cmd_sim, cores0), EX_USAGE, "--cores 0: exit 2");
	is_u64(call(cmd_sim, cores9), EX_USAGE, "--cores 9 on an 8-core T2: exit 2");
	is_u64(call(cmd_sim, page4m), EX_USAGE, "Skylake --page-size 4m (x86-64 has none): exit 2");
	is_u64(call(cmd_sim, sparc4k), EX_USAGE, "T2 --page-size 4k (sparc64 has none): exit 2");
	is_u64(call(cmd_sim, sib), EX_OK, "Skylake, 3 tasks on smt placement, runs");
	/* 4 cores x 2 threads: core 0's sibling is CPU 4, core 1's first thread CPU 1 */
	is_u64(qout("SELECT json_extract(?1, '$.tasks[0].cpu') || ',' || json_extract(?1, '$.tasks[1].cpu')"
		    " || ',' || json_extract(?1, '$.tasks[2].cpu') = '0,4,1'"), 1,
	       "x86 CPU ids in Linux's order: every core's first thread, then the siblings");
	is_u64(call(cmd_sim, shared), EX_OK, "--sharedctx on an asid machine runs");
	if (sqlite3_open(db, &h) != SQLITE_OK)
		return;
	is_u64(q(h, "SELECT count(*) FROM run WHERE label = 'asid-shared' AND sharedctx = 0"
		   " AND cell LIKE '%sharedctx=0%'"), 1, "and is stored as not shared: asid cannot share");
	sqlite3_close(h);
}

/* Sum of event ev over the tasks of the run labelled label. */
static long long ev(sqlite3 *h, const char *label, const char *event)
{
	char sql[256];

	snprintf(sql, sizeof(sql), "SELECT CAST(sum(v.value) AS INTEGER) FROM run r JOIN value v ON v.run_id = r.id"
		 " WHERE r.label = '%s' AND v.event = '%s'", label, event);
	return q(h, sql);
}

/*
 * N1's TLBs hold a 16 GiB block (64K granule) as 512 MiB entries (the L1
 * caches 512M at most, the L2 lists 1G at most). Two 16 GiB pages read at
 * 32 words (one per 512 MiB) for 10 rounds: 64 entries, more than the
 * 48-entry L1, so a cyclic sweep misses it on every access (640); the
 * L2's 256 sets hold them all, so only the first round walks (64). One
 * word per page: one entry each, 2 misses and 2 walks. A 1 GiB page at
 * several words is refused: the L1 holds it as 512M, the L2 whole.
 */
static void split_blocks(void)
{
	const char *split[] = { "sim", "--db", db, "--label", "split", "--machine", "arm-neoverse-n1", "--tasks", "1",
				"--pattern", "rounds", "--page-size", "16g", "--working-set", "32g", "--rounds", "10",
				"--words", "32", NULL };
	const char *one[] = { "sim", "--db", db, "--label", "split1", "--machine", "arm-neoverse-n1", "--tasks", "1",
			      "--pattern", "rounds", "--page-size", "16g", "--working-set", "32g", "--rounds", "10", NULL };
	const char *mixed[] = { "sim", "--no-store", "--machine", "arm-neoverse-n1", "--tasks", "1", "--page-size",
				"1g", "--working-set", "1g", "--words", "2", NULL };
	sqlite3 *h;

	is_u64(call(cmd_sim, split), EX_OK, "N1, two 16g pages at 32 words, stores a run");
	is_u64(call(cmd_sim, one), EX_OK, "and at one word");
	is_u64(call(cmd_sim, mixed), EX_USAGE, "N1, 1g at 2 words (512m in L1, whole in L2) is a usage error");
	if (sqlite3_open(db, &h) != SQLITE_OK)
		return;
	ok(ev(h, "split", "dTLB-loads") == 640 && ev(h, "split", "l1-dtlb-misses") == 640 &&
	   ev(h, "split", "dtlb-walks") == 64, "32 words: every access refills L1, the first round walks");
	ok(ev(h, "split1", "l1-dtlb-misses") == 2 && ev(h, "split1", "dtlb-walks") == 2,
	   "one word: one 512 MiB entry a page, 2 refills and 2 walks");
	sqlite3_close(h);
}

/*
 * The generic events mean what each CPU's Linux driver counts (the
 * presets' counter notes), checked on streams whose counts follow from
 * the geometry: one task, random over 256 pages of 4 KiB, 100 rounds.
 * N1's 48-entry fully associative LRU L1 misses 1 - 48/256 of the
 * accesses in the steady state, and its 1280-entry 5-way L2 (256 sets)
 * holds the 256 pages, so only the 256 compulsory misses walk.
 */
static void counter_meanings(void)
{
	const char *n1[] = { "sim", "--db", db, "--label", "n1", "--machine", "arm-neoverse-n1", "--tasks", "1",
			     "--pattern", "random", "--page-size", "4k", "--working-set", "1m", "--rounds", "100", NULL };
	const char *zen[] = { "sim", "--db", db, "--label", "zen", "--machine", "amd-zen2", "--tasks", "1",
			      "--pattern", "random", "--page-size", "4k", "--working-set", "16m", "--rounds", "10", NULL };
	const char *sky[] = { "sim", "--db", db, "--label", "sky", "--machine", "intel-skylake", "--tasks", "1",
			      "--pattern", "random", "--page-size", "4k", "--working-set", "16m", "--rounds", "10", NULL };
	const char *cust[] = { "sim", "--db", db, "--label", "cust", "--tlb", "l1d:64,4way,lru", "--cores", "1",
			       "--tasks", "1", "--page-size", "4k", "--working-set", "1m", "--rounds", "2", NULL };
	double want = 25600.0 * (1 - 48.0 / 256);
	sqlite3 *h;
	long long l1;

	is_u64(call(cmd_sim, n1), EX_OK, "N1 random 1m of 4k pages stores a run");
	is_u64(call(cmd_sim, zen), EX_OK, "Zen 2 random 16m stores a run");
	is_u64(call(cmd_sim, sky), EX_OK, "Skylake random 16m stores a run");
	is_u64(call(cmd_sim, cust), EX_OK, "a custom TLB stores a run");
	if (sqlite3_open(db, &h) != SQLITE_OK)
		return;
	is_u64(q(h, "SELECT count(*) FROM value JOIN run ON run.id = value.run_id WHERE run.label = 'cust'"
		   " AND event IN ('dTLB-loads', 'dTLB-load-misses') AND value IS NULL AND missing = 'no-driver'"), 2,
	       "custom: the generic dTLB events stored as missing, no-driver (no CPU defines them), never 0");
	l1 = ev(h, "n1", "dTLB-load-misses");
	ok(l1 > 0.99 * want && l1 < 1.01 * want + 256, "N1: dTLB-load-misses %lld are L1 refills, "
	   "1 - 48/256 of 25600 (arm64 perf_event.c:66)", l1);
	ok(l1 == ev(h, "n1", "l1-dtlb-misses") && ev(h, "n1", "dtlb-walks") == 256 &&
	   ev(h, "n1", "l2-dtlb-misses") == 256, "N1: l1-dtlb-misses the same; 256 walks, all compulsory");
	is_u64(ev(h, "n1", "dTLB-loads"), 25600, "N1: dTLB-loads = every access (L1D_TLB, :67)");
	ok(ev(h, "zen", "dTLB-loads") == ev(h, "zen", "l1-dtlb-misses") && ev(h, "zen", "dTLB-loads") < 40960,
	   "Zen 2: dTLB-loads = L1 DTLB misses (0xff45, amd/core.c:179)");
	ok(ev(h, "zen", "dTLB-load-misses") == ev(h, "zen", "dtlb-walks") &&
	   ev(h, "zen", "dtlb-walks") < ev(h, "zen", "dTLB-loads"), "Zen 2: dTLB-load-misses = walks (0xf045, :180)");
	ok(ev(h, "sky", "dTLB-loads") == 40960 && ev(h, "sky", "dTLB-load-misses") == ev(h, "sky", "dtlb-walks"),
	   "Skylake: dTLB-loads every load, dTLB-load-misses walks (intel/core.c:661-662)");
	sqlite3_close(h);
}

int main(void)
{
	const char *sim[] = { "sim", "--db", db, "--rounds", "1000", "--label", "t", NULL };
	const char *simq[] = { "sim", "--machine", "list", NULL };
	const char *bad[] = { "sim", "--machine", "nosuch", "--no-store", NULL };
	const char *badtlb[] = { "sim", "--tlb", "l1d:2,3way,lru", "--no-store", NULL };
	const char *table[] = { "table", "--db", db, "--json", "--seeds", "1", NULL };
	const char *deflt[] = { "table", "--no-store", "--json", NULL };
	const char *native[] = { "table", "--backend", "native", "--no-store", NULL };
	const char *seeds[] = { "table", "--db", db, "--json", "--seeds", "2", "--label", "seeds2", NULL };
	const char *beside[] = { "table", "--native-normal", "--no-store", "--json", "--seeds", "1", NULL };
	struct sysinfo si;
	sqlite3 *h;
	char sql[512];

	if (!mkdtemp(dir))
		return 1;
	snprintf(db, sizeof(db), "%s/t.db", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	log_verbosity = 0;

	is_u64(call(cmd_sim, simq), EX_OK, "sim --machine list exits 0");
	is_u64(call(cmd_sim, bad), EX_USAGE, "an unknown machine is a usage error");
	is_u64(call(cmd_sim, badtlb), EX_USAGE, "a bad --tlb is a usage error");
	is_u64(call(cmd_sim, sim), EX_OK, "sim stores a run");
	if (sqlite3_open(db, &h) != SQLITE_OK)
		return 1;
	is_u64(q(h, "SELECT count(*) FROM run WHERE backend = 'model:ultrasparc-t2' AND status = 'ok'"
		   " AND label = 't' AND rounds = 1000 AND tasks = 2 AND align IS NULL"), 1,
	       "one run, backend model:ultrasparc-t2");
	ok(cell_sorted(h), "the cell is sorted key=value pairs");
	is_u64(q(h, "SELECT count(*) FROM run WHERE cell LIKE '%seed%' OR cell LIKE '%label%'"), 0,
	       "the cell has no seed and no label");
	is_u64(q(h, "SELECT json_valid(config_json) AND json_extract(config_json, '$.machine.levels[0].entries') = 128"
		   " AND json_extract(config_json, '$.machine.levels[0].replacement') = 'nru' FROM run"), 1,
	       "config_json holds the full machine");
	is_u64(q(h, "SELECT count(*) FROM value WHERE event = 'dTLB-load-misses' AND missing IS NULL"), 2,
	       "dTLB-load-misses counted for each task");
	/* Linux's niagara2 map has no dTLB-loads (arch/sparc/kernel/perf_event.c:538) */
	is_u64(q(h, "SELECT count(*) FROM value WHERE event = 'dTLB-loads' AND value IS NULL"
		   " AND missing = 'unsupported'"), 2, "T2: dTLB-loads unsupported, as its driver has none");
	is_u64(q(h, "SELECT count(*) FROM value a JOIN value b ON a.run_id = b.run_id AND a.task = b.task"
		   " AND b.event = 'l1-dtlb-misses' JOIN value c ON c.run_id = a.run_id AND c.task = a.task"
		   " AND c.event = 'dtlb-walks' WHERE a.event = 'dTLB-load-misses' AND a.value = b.value"
		   " AND b.value = c.value"), 2,
	       "T2: dTLB-load-misses = l1-dtlb-misses = dtlb-walks (one level)");
	is_u64(q(h, "SELECT count(*) FROM value WHERE event = 'iTLB-load-misses' AND value IS NULL"
		   " AND missing = 'not-modelled'"), 2, "iTLB-load-misses stored as not-modelled, never 0");
	is_u64(q(h, "SELECT count(*) FROM metric WHERE name = 'est-translation-s'"), 1,
	       "the estimate is stored under an est- name");
	sqlite3_close(h);
	counter_meanings();
	refusals();
	split_blocks();

	/* the model's shared column grows to 669, not the published 4,148: not reproduced (exit 1) */
	is_u64(call(cmd_table, table), EX_FAIL, "table --seeds 1 is not reproduced (exit 1) and stores");
	if (sqlite3_open(db, &h) != SQLITE_OK)
		return 1;
	is_u64(q(h, "SELECT count(*) FROM run WHERE label = 'table'"), 14, "table stored 14 runs");
	is_u64(qjson(h, "SELECT json_valid(?1)"), 1, "table --json prints valid JSON");
	is_u64(qjson(h, "SELECT json_extract(?1, '$.rows[3].normal') = (SELECT sum(v.value) FROM run r"
			" JOIN value v ON v.run_id = r.id WHERE r.label = 'table' AND r.rounds = 1000"
			" AND r.sharedctx = 0 AND v.event = 'dTLB-load-misses')"), 1,
	       "the printed 1000-round normal row is the stored one");
	is_u64(q(h, "SELECT max(v.value) < 1000 FROM run r JOIN value v ON v.run_id = r.id"
		   " WHERE r.label = 'table' AND r.sharedctx = 1 AND v.event = 'dTLB-load-misses'"), 1,
	       "shared rows stay under 1000 misses per task");
	sqlite3_close(h);

	/* The documented default: each cell the mean of seeds 1-8. */
	is_u64(call(cmd_table, deflt), EX_FAIL, "the default table (8 seeds): not reproduced, exit 1");
	is_u64(qout("SELECT json_extract(?1, '$.reproduced') = 0 AND json_extract(?1, '$.slope_within_10pct') = 1"
		    " AND json_extract(?1, '$.cells_within_2x') = 0 AND json_extract(?1, '$.cells_outside_2x')"
		    " LIKE 'shared at 1000000 rounds % the published 4148'"), 1,
	       "it says why: the shared cell at 10^6 rounds, with the ratio, though the slope holds");
	is_u64(qout("SELECT json_extract(?1, '$.seeds') = 8 AND json_extract(?1, '$.slope') BETWEEN 88.11 AND 107.69"
		    " AND json_extract(?1, '$.slope_min_seed') < 88.11"), 1,
	       "its slope is within 10 % of 97.9 although one of its seeds alone is not");

	is_u64(call(cmd_table, seeds), EX_FAIL, "table --seeds 2 exits 1 (not reproduced)");
	if (sqlite3_open(db, &h) != SQLITE_OK)
		return 1;
	is_u64(q(h, "SELECT count(*) FROM run WHERE label = 'seeds2'"), 28, "two seeds: 28 runs stored");
	is_u64(q(h, "SELECT count(DISTINCT seed) = 2 AND min(seed) = 1 AND max(seed) = 2 FROM run WHERE label = 'seeds2'"),
	       1, "with seeds 1 and 2");
	is_u64(qjson(h, "SELECT abs(json_extract(?1, '$.rows[3].normal') - (SELECT sum(v.value) / 2 FROM run r"
			" JOIN value v ON v.run_id = r.id WHERE r.label = 'seeds2' AND r.rounds = 1000"
			" AND r.sharedctx = 0 AND v.event = 'dTLB-load-misses')) < 1e-6"), 1,
	       "a printed cell is the mean of the stored runs of both seeds");
	is_u64(qjson(h, "SELECT json_extract(?1, '$.seeds') = 2 AND json_extract(?1, '$.slope_min_seed') <="
			" json_extract(?1, '$.slope') AND json_extract(?1, '$.slope') <= json_extract(?1, '$.slope_max_seed')"
			" AND json_extract(?1, '$.slope_min_seed') < json_extract(?1, '$.slope_max_seed')"), 1,
	       "the mean slope lies between the two seeds' slopes, which differ");
	sqlite3_close(h);

	sysinfo_collect(&si);
	if (si.has_core_pmu)
		skip("this machine has a PMU: the native refusal is not checked");
	else
		is_u64(call(cmd_table, native), EX_RESOURCE, "table --backend native: exit 3 without a PMU");
	if (si.has_core_pmu) {
		skip("this machine has a PMU: the missing native column is not checked");
	} else if (access("bench/sgabench", X_OK)) {
		skip("bench/sgabench not built: the native column is not checked");
	} else if (setenv("SGABENCH", "bench/sgabench", 1) == 0 &&
		   sqlite3_open(":memory:", &h) == SQLITE_OK) {
		is_u64(call(cmd_table, beside), EX_FAIL, "table --native-normal gives the model's verdict (exit 1)");
		/* With hugepages the run gets as far as the counters (no-pmu); without
		 * them, or unprivileged (SHM_HUGETLB needs vm.hugetlb_shm_group), it
		 * stops earlier. Either way the column is missing with a reason, never 0. */
		is_u64(qjson(h, "SELECT json_extract(?1, '$.rows[0].native_normal') IS NULL AND"
				" length(json_extract(?1, '$.native_normal_missing')) > 0"), 1,
		       "the native normal column is missing with a reason, never 0");
		sqlite3_close(h);
	}

	unlink(out);
	snprintf(sql, sizeof(sql), "rm -rf '%s'", dir);
	if (system(sql))
		return 1;
	return done_testing();
}
