/*
 * store/schema.c - the numbered migrations. Never edit a released
 * migration: add a new one at the end. Migration i brings user_version
 * from i to i+1.
 */
#include <stddef.h>

const char *const store_migrations[] = {
	/* 1: the initial schema */
	"CREATE TABLE machine (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  fingerprint TEXT NOT NULL UNIQUE,	-- hash of the identity fields (sysinfo.h)\n"
	"  hostname TEXT,			-- informational, not in the fingerprint\n"
	"  arch TEXT,				-- uname -m\n"
	"  cpu_vendor TEXT,			-- e.g. AuthenticAMD, GenuineIntel, sun4v\n"
	"  cpu_model TEXT,			-- model name string\n"
	"  microcode TEXT,\n"
	"  kernel TEXT,				-- uname -r\n"
	"  is_vm INTEGER,			-- 1 when a hypervisor was detected\n"
	"  first_seen TEXT NOT NULL,		-- ISO 8601 UTC\n"
	"  info_json TEXT NOT NULL		-- the whole sysinfo record\n"
	");\n"
	"CREATE TABLE run (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  uuid TEXT NOT NULL UNIQUE,		-- identity across merged databases\n"
	"  machine_id INTEGER NOT NULL REFERENCES machine(id),\n"
	"  started_at TEXT NOT NULL,		-- ISO 8601 UTC\n"
	"  wall_s REAL,				-- whole run, set-up included\n"
	"  version TEXT NOT NULL,		-- sgabench version (git describe)\n"
	"  backend TEXT NOT NULL,		-- native | model:<preset>\n"
	"  workload TEXT NOT NULL,		-- rounds | random | zipf | chase\n"
	"  tasks INTEGER NOT NULL,\n"
	"  threads INTEGER NOT NULL DEFAULT 0,	-- 1: tasks were threads of one process\n"
	"  page_size TEXT NOT NULL,		-- 4k | 2m | 1g | thp\n"
	"  align TEXT,				-- pud | pmd (native only)\n"
	"  backing TEXT,				-- shm | memfd | file (native only)\n"
	"  sharedctx INTEGER NOT NULL,		-- 1: sparc64 shared context requested\n"
	"  sga_bytes INTEGER NOT NULL,\n"
	"  ws_bytes INTEGER NOT NULL,		-- working set per task\n"
	"  rounds INTEGER NOT NULL,\n"
	"  seed INTEGER NOT NULL,		-- every random stream derives from it\n"
	"  cell TEXT NOT NULL,			-- canonical config key: runs with equal cell are comparable\n"
	"  label TEXT,				-- user tag (e.g. nightly-2026-12-03, candidate)\n"
	"  config_json TEXT NOT NULL,		-- the full configuration\n"
	"  status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),\n"
	"  reason TEXT				-- why it failed; NULL when ok\n"
	");\n"
	"CREATE INDEX run_cell ON run(cell, machine_id, started_at);\n"
	"CREATE INDEX run_label ON run(label);\n"
	"CREATE TABLE task (\n"
	"  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,\n"
	"  task INTEGER NOT NULL,		-- 0..tasks-1\n"
	"  cpu INTEGER,				-- pinned CPU, NULL when not pinned\n"
	"  accesses INTEGER,			-- accesses in the measured window\n"
	"  window_ns INTEGER,			-- wall time of the task's window\n"
	"  vmpte_kb INTEGER,			-- VmPTE at the end of the window; NULL unknown\n"
	"  ft_minflt INTEGER,			-- minor faults during first touch; NULL unknown\n"
	"  PRIMARY KEY (run_id, task)\n"
	");\n"
	"CREATE TABLE value (\n"
	"  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,\n"
	"  task INTEGER NOT NULL,\n"
	"  event TEXT NOT NULL,			-- perf or libpfm4 name, e.g. dTLB-load-misses\n"
	"  value REAL,				-- scaled count raw*enabled/running; NULL when missing\n"
	"  raw INTEGER,				-- as read; NULL when missing\n"
	"  enabled INTEGER,			-- ns, TOTAL_TIME_ENABLED\n"
	"  running INTEGER,			-- ns, TOTAL_TIME_RUNNING\n"
	"  missing TEXT,				-- NULL, or unsupported|permission|no-pmu|multiplexed-out|not-modelled|pmu-reads-zero|no-driver\n"
	"  PRIMARY KEY (run_id, task, event),\n"
	"  CHECK ((value IS NULL) = (missing IS NOT NULL))\n"
	");\n"
	"CREATE TABLE metric (\n"
	"  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,\n"
	"  name TEXT NOT NULL,			-- run-level: pte-bytes, pagetables-delta-bytes, wall-s, ...\n"
	"  value REAL NOT NULL,\n"
	"  PRIMARY KEY (run_id, name)\n"
	");\n"
	/* Per-run metrics: events summed over tasks (NULL if any task lacks it), plus run metrics. */
	"CREATE VIEW run_metric (run_id, name, value, missing) AS\n"
	"  SELECT run_id, event,\n"
	"         CASE WHEN COUNT(value) = COUNT(*) THEN SUM(value) END,\n"
	"         MAX(missing)\n"
	"    FROM value GROUP BY run_id, event\n"
	"  UNION ALL\n"
	"  SELECT run_id, name, value, NULL FROM metric;\n"
	"CREATE TABLE timing (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  run_uuid TEXT,			-- the run this invocation stored, when known\n"
	"  sweep_uuid TEXT,			-- the sweep it belongs to (sweep.uuid)\n"
	"  cell TEXT NOT NULL,			-- same key as run.cell\n"
	"  command TEXT NOT NULL,		-- the command hyperfine timed\n"
	"  iteration INTEGER NOT NULL,		-- index in hyperfine's times[]\n"
	"  wall_s REAL NOT NULL,			-- hyperfine's time for that invocation\n"
	"  user_s REAL, system_s REAL,\n"
	"  exit_code INTEGER\n"
	");\n"
	"CREATE INDEX timing_cell ON timing(cell);\n"
	"CREATE TABLE sweep (\n"
	"  uuid TEXT PRIMARY KEY,\n"
	"  name TEXT NOT NULL,			-- config name, e.g. sga-scaling\n"
	"  started_at TEXT NOT NULL,\n"
	"  order_seed INTEGER,			-- seed of the randomised cell order\n"
	"  cell_order TEXT,			-- the order actually run, one cell per line\n"
	"  config TEXT				-- the config file's text\n"
	");\n"
	"CREATE TABLE noise (\n"
	"  cell TEXT NOT NULL,\n"
	"  metric TEXT NOT NULL,\n"
	"  machine_id INTEGER NOT NULL REFERENCES machine(id),\n"
	"  floor REAL NOT NULL,			-- A/A noise floor: relative half-width, e.g. 0.02\n"
	"  samples INTEGER NOT NULL,\n"
	"  measured_at TEXT NOT NULL,\n"
	"  PRIMARY KEY (cell, metric, machine_id)\n"
	");\n"
	"CREATE TABLE verdict (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  created_at TEXT NOT NULL,\n"
	"  baseline TEXT NOT NULL,		-- selector, e.g. last-7-nights\n"
	"  candidate TEXT NOT NULL,		-- selector, e.g. tonight\n"
	"  cell TEXT NOT NULL,\n"
	"  metric TEXT NOT NULL,\n"
	"  machine_id INTEGER REFERENCES machine(id),\n"
	"  n_base INTEGER, n_cand INTEGER,\n"
	"  ratio REAL,				-- median(candidate) / median(baseline)\n"
	"  ci_lo REAL, ci_hi REAL,		-- bootstrap 95 % CI of the ratio\n"
	"  p_value REAL,				-- Mann-Whitney U, two-sided\n"
	"  q_value REAL,				-- Benjamini-Hochberg adjusted\n"
	"  verdict TEXT NOT NULL,		-- regression | improvement | no-change | insufficient\n"
	"  method TEXT NOT NULL,			-- method and parameters, as JSON\n"
	"  reason TEXT\n"
	");\n",
	/* 2: timed and repeated windows (run --min-window, --windows); what a verdict could detect */
	"CREATE TABLE run_window (\n"
	"  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,\n"
	"  win INTEGER NOT NULL,			-- 0..windows-1, in the order measured\n"
	"  task INTEGER NOT NULL,\n"
	"  accesses INTEGER NOT NULL,		-- accesses of the task in this window\n"
	"  window_ns INTEGER NOT NULL,		-- wall time of the task's window\n"
	"  PRIMARY KEY (run_id, win, task)\n"
	");\n"
	"CREATE TABLE window_value (\n"
	"  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,\n"
	"  win INTEGER NOT NULL,\n"
	"  task INTEGER NOT NULL,\n"
	"  event TEXT NOT NULL,\n"
	"  value REAL,				-- scaled count over this window alone; NULL when missing\n"
	"  raw INTEGER,\n"
	"  enabled INTEGER,			-- ns\n"
	"  running INTEGER,			-- ns\n"
	"  missing TEXT,				-- as value.missing\n"
	"  PRIMARY KEY (run_id, win, task, event),\n"
	"  CHECK ((value IS NULL) = (missing IS NOT NULL))\n"
	");\n"
	"ALTER TABLE verdict ADD COLUMN noise_floor REAL;	-- the cell's A/A floor used, NULL if none\n"
	"ALTER TABLE verdict ADD COLUMN mde REAL;	-- minimum detectable effect (relative), NULL if none\n",
	/* 3: one name per quantity, as the options and metrics spell it (store_renamed[]) */
	"ALTER TABLE run RENAME COLUMN ws_bytes TO working_set_bytes;	-- working set per task\n"
	"ALTER TABLE task RENAME COLUMN ft_minflt TO first_touch_faults;	-- minor faults during first touch; NULL unknown\n",
	/* 4: named machines (SGABENCH_MACHINE, as LNT names them); earlier runs take their host's name */
	"ALTER TABLE run ADD COLUMN machine_name TEXT;	-- SGABENCH_MACHINE, else the hostname, when run\n"
	"UPDATE run SET machine_name = (SELECT COALESCE(m.hostname, m.fingerprint) FROM machine m"
	" WHERE m.id = run.machine_id);\n"
	"CREATE INDEX run_machine_name ON run(machine_name, label);\n"
	"ALTER TABLE verdict ADD COLUMN machine_name TEXT;	-- the machine judged, NULL across machines\n",
	/* 5: the kernel each run ran on, as the lab names it; earlier runs: NULL (unknown) */
	"ALTER TABLE run ADD COLUMN kernel_variant TEXT;	-- SGABENCH_KERNEL_VARIANT, else the Debian version"
	" (+ -rt/-cloud), else uname -r\n"
	"CREATE INDEX run_kernel_variant ON run(machine_name, kernel_variant);\n",
	/*
	 * 6: a run metric the run could not give is kept, as value NULL with
	 * its reason, as value.missing keeps a counter's. metric.value was NOT
	 * NULL, which neither engine's ALTER can lift in common SQL: the table
	 * is rebuilt (its rows copied, none missing) and the view, which
	 * reads it, made again with the metric's reason.
	 */
	"DROP VIEW run_metric;\n"
	"CREATE TABLE metric_v6 (\n"
	"  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,\n"
	"  name TEXT NOT NULL,			-- run-level: pte-bytes, pagetables-delta-bytes, wall-s, ...\n"
	"  value REAL,				-- NULL when missing\n"
	"  missing TEXT,				-- NULL, or why the run could not give it: no-interrupt-line, no-pmu, ...\n"
	"  PRIMARY KEY (run_id, name),\n"
	"  CHECK ((value IS NULL) = (missing IS NOT NULL))\n"
	");\n"
	"INSERT INTO metric_v6 (run_id, name, value) SELECT run_id, name, value FROM metric;\n"
	"DROP TABLE metric;\n"
	"ALTER TABLE metric_v6 RENAME TO metric;\n"
	"CREATE VIEW run_metric (run_id, name, value, missing) AS\n"
	"  SELECT run_id, event,\n"
	"         CASE WHEN COUNT(value) = COUNT(*) THEN SUM(value) END,\n"
	"         MAX(missing)\n"
	"    FROM value GROUP BY run_id, event\n"
	"  UNION ALL\n"
	"  SELECT run_id, name, value, missing FROM metric;\n",
	/*
	 * 7: the core PMU's multiplexing interval each run read, so that a
	 * stored run's scaled counts say over how many rotations they were
	 * counted (machine/perf_mux.h), as the run said. One of the two is
	 * set. Earlier runs never kept it: their interval stays unknown, as
	 * the default says, never guessed; an input of an older schema merged
	 * into a newer file gets the same default.
	 */
	"ALTER TABLE run ADD COLUMN mux_interval_ms REAL;	-- perf_event_mux_interval_ms when run; NULL unknown\n"
	"ALTER TABLE run ADD COLUMN mux_interval_missing TEXT DEFAULT 'not-recorded';"
	"	-- NULL when known, or why not: no-pmu|unreadable|not-modelled|not-recorded\n",
	/*
	 * 8: the boot each native run ran in (/proc/sys/kernel/random/boot_id),
	 * so that compare can tell runs that interleave in time within one
	 * boot, whose drift both sides share, from runs of two boots that ran
	 * side by side (the lab's guests), whose drift they do not. NULL: a
	 * model run, a kernel without the file, or a run stored before.
	 */
	"ALTER TABLE run ADD COLUMN boot_id TEXT;	-- the kernel's boot_id when run; NULL unknown or model\n",
	NULL,
};
