/*
 * store/columns.h - the schema's column lists, once. Every writer (runs,
 * verdicts), 'db merge', 'db schema' and the schema test use these lists;
 * the migrations (store/schema.c) create the tables, and t_store checks
 * that the migrated tables have exactly these columns. A migration that
 * adds a column adds it here too, and the merge copies it from then on.
 *
 * Each list is an X-macro of (ENUM, "name", type, flags), so the column
 * index enums and the descriptor arrays come from one text.
 */
#ifndef SGA_STORE_COLUMNS_H
#define SGA_STORE_COLUMNS_H

#include <stddef.h>
#include <stdint.h>

enum col_type { COL_INT, COL_REAL, COL_TEXT };

enum col_flag {
	COL_ROWID = 1,		/* the table's own INTEGER PRIMARY KEY: never copied */
	COL_KEY = 2,		/* part of the row's identity when merging */
	COL_MACHINE = 4,	/* holds a machine.id: remapped when merging */
	COL_RUN = 8,		/* holds a run.id: the row belongs to that run */
	COL_NEWER = 16,		/* merge keeps the row whose value here is greater */
};

#define MACHINE_COLUMNS(X) \
	X(MACHINE_ID, "id", COL_INT, COL_ROWID) \
	X(MACHINE_FINGERPRINT, "fingerprint", COL_TEXT, COL_KEY) \
	X(MACHINE_HOSTNAME, "hostname", COL_TEXT, 0) \
	X(MACHINE_ARCH, "arch", COL_TEXT, 0) \
	X(MACHINE_CPU_VENDOR, "cpu_vendor", COL_TEXT, 0) \
	X(MACHINE_CPU_MODEL, "cpu_model", COL_TEXT, 0) \
	X(MACHINE_MICROCODE, "microcode", COL_TEXT, 0) \
	X(MACHINE_KERNEL, "kernel", COL_TEXT, 0) \
	X(MACHINE_IS_VM, "is_vm", COL_INT, 0) \
	X(MACHINE_FIRST_SEEN, "first_seen", COL_TEXT, 0) \
	X(MACHINE_INFO_JSON, "info_json", COL_TEXT, 0)

#define RUN_COLUMNS(X) \
	X(RUN_ID, "id", COL_INT, COL_ROWID) \
	X(RUN_UUID, "uuid", COL_TEXT, COL_KEY) \
	X(RUN_MACHINE_ID, "machine_id", COL_INT, COL_MACHINE) \
	X(RUN_STARTED_AT, "started_at", COL_TEXT, 0) \
	X(RUN_WALL_S, "wall_s", COL_REAL, 0) \
	X(RUN_VERSION, "version", COL_TEXT, 0) \
	X(RUN_BACKEND, "backend", COL_TEXT, 0) \
	X(RUN_WORKLOAD, "workload", COL_TEXT, 0) \
	X(RUN_TASKS, "tasks", COL_INT, 0) \
	X(RUN_THREADS, "threads", COL_INT, 0) \
	X(RUN_PAGE_SIZE, "page_size", COL_TEXT, 0) \
	X(RUN_ALIGN, "align", COL_TEXT, 0) \
	X(RUN_BACKING, "backing", COL_TEXT, 0) \
	X(RUN_SHAREDCTX, "sharedctx", COL_INT, 0) \
	X(RUN_SGA_BYTES, "sga_bytes", COL_INT, 0) \
	X(RUN_WORKING_SET_BYTES, "working_set_bytes", COL_INT, 0) \
	X(RUN_ROUNDS, "rounds", COL_INT, 0) \
	X(RUN_SEED, "seed", COL_INT, 0) \
	X(RUN_CELL, "cell", COL_TEXT, 0) \
	X(RUN_LABEL, "label", COL_TEXT, 0) \
	X(RUN_CONFIG_JSON, "config_json", COL_TEXT, 0) \
	X(RUN_STATUS, "status", COL_TEXT, 0) \
	X(RUN_REASON, "reason", COL_TEXT, 0) \
	X(RUN_MACHINE_NAME, "machine_name", COL_TEXT, 0)	/* schema 4 */ \
	X(RUN_KERNEL_VARIANT, "kernel_variant", COL_TEXT, 0)	/* schema 5 */ \
	X(RUN_MUX_INTERVAL_MS, "mux_interval_ms", COL_REAL, 0)	/* schema 7 */ \
	X(RUN_MUX_INTERVAL_MISSING, "mux_interval_missing", COL_TEXT, 0)	/* schema 7 */ \
	X(RUN_BOOT_ID, "boot_id", COL_TEXT, 0)	/* schema 8 */

#define TASK_COLUMNS(X) \
	X(TASK_RUN_ID, "run_id", COL_INT, COL_RUN | COL_KEY) \
	X(TASK_TASK, "task", COL_INT, COL_KEY) \
	X(TASK_CPU, "cpu", COL_INT, 0) \
	X(TASK_ACCESSES, "accesses", COL_INT, 0) \
	X(TASK_WINDOW_NS, "window_ns", COL_INT, 0) \
	X(TASK_VMPTE_KB, "vmpte_kb", COL_INT, 0) \
	X(TASK_FIRST_TOUCH_FAULTS, "first_touch_faults", COL_INT, 0)

#define VALUE_COLUMNS(X) \
	X(VALUE_RUN_ID, "run_id", COL_INT, COL_RUN | COL_KEY) \
	X(VALUE_TASK, "task", COL_INT, COL_KEY) \
	X(VALUE_EVENT, "event", COL_TEXT, COL_KEY) \
	X(VALUE_VALUE, "value", COL_REAL, 0) \
	X(VALUE_RAW, "raw", COL_INT, 0) \
	X(VALUE_ENABLED, "enabled", COL_INT, 0) \
	X(VALUE_RUNNING, "running", COL_INT, 0) \
	X(VALUE_MISSING, "missing", COL_TEXT, 0)

#define METRIC_COLUMNS(X) \
	X(METRIC_RUN_ID, "run_id", COL_INT, COL_RUN | COL_KEY) \
	X(METRIC_NAME, "name", COL_TEXT, COL_KEY) \
	X(METRIC_VALUE, "value", COL_REAL, 0) \
	X(METRIC_MISSING, "missing", COL_TEXT, 0)	/* schema 6 */

/* schema 2: one row per task and timed window (run --windows) */
#define RUN_WINDOW_COLUMNS(X) \
	X(RUN_WINDOW_RUN_ID, "run_id", COL_INT, COL_RUN | COL_KEY) \
	X(RUN_WINDOW_WIN, "win", COL_INT, COL_KEY) \
	X(RUN_WINDOW_TASK, "task", COL_INT, COL_KEY) \
	X(RUN_WINDOW_ACCESSES, "accesses", COL_INT, 0) \
	X(RUN_WINDOW_WINDOW_NS, "window_ns", COL_INT, 0)

/* schema 2: one counter of one task in one window */
#define WINDOW_VALUE_COLUMNS(X) \
	X(WINDOW_VALUE_RUN_ID, "run_id", COL_INT, COL_RUN | COL_KEY) \
	X(WINDOW_VALUE_WIN, "win", COL_INT, COL_KEY) \
	X(WINDOW_VALUE_TASK, "task", COL_INT, COL_KEY) \
	X(WINDOW_VALUE_EVENT, "event", COL_TEXT, COL_KEY) \
	X(WINDOW_VALUE_VALUE, "value", COL_REAL, 0) \
	X(WINDOW_VALUE_RAW, "raw", COL_INT, 0) \
	X(WINDOW_VALUE_ENABLED, "enabled", COL_INT, 0) \
	X(WINDOW_VALUE_RUNNING, "running", COL_INT, 0) \
	X(WINDOW_VALUE_MISSING, "missing", COL_TEXT, 0)

#define TIMING_COLUMNS(X) \
	X(TIMING_ID, "id", COL_INT, COL_ROWID) \
	X(TIMING_RUN_UUID, "run_uuid", COL_TEXT, COL_KEY) \
	X(TIMING_SWEEP_UUID, "sweep_uuid", COL_TEXT, COL_KEY) \
	X(TIMING_CELL, "cell", COL_TEXT, COL_KEY) \
	X(TIMING_COMMAND, "command", COL_TEXT, COL_KEY) \
	X(TIMING_ITERATION, "iteration", COL_INT, COL_KEY) \
	X(TIMING_WALL_S, "wall_s", COL_REAL, COL_KEY) \
	X(TIMING_USER_S, "user_s", COL_REAL, 0) \
	X(TIMING_SYSTEM_S, "system_s", COL_REAL, 0) \
	X(TIMING_EXIT_CODE, "exit_code", COL_INT, 0)

#define SWEEP_COLUMNS(X) \
	X(SWEEP_UUID, "uuid", COL_TEXT, COL_KEY) \
	X(SWEEP_NAME, "name", COL_TEXT, 0) \
	X(SWEEP_STARTED_AT, "started_at", COL_TEXT, 0) \
	X(SWEEP_ORDER_SEED, "order_seed", COL_INT, 0) \
	X(SWEEP_CELL_ORDER, "cell_order", COL_TEXT, 0) \
	X(SWEEP_CONFIG, "config", COL_TEXT, 0)

#define NOISE_COLUMNS(X) \
	X(NOISE_CELL, "cell", COL_TEXT, COL_KEY) \
	X(NOISE_METRIC, "metric", COL_TEXT, COL_KEY) \
	X(NOISE_MACHINE_ID, "machine_id", COL_INT, COL_KEY | COL_MACHINE) \
	X(NOISE_FLOOR, "floor", COL_REAL, 0) \
	X(NOISE_SAMPLES, "samples", COL_INT, 0) \
	X(NOISE_MEASURED_AT, "measured_at", COL_TEXT, COL_NEWER)

#define VERDICT_COLUMNS(X) \
	X(VERDICT_ID, "id", COL_INT, COL_ROWID) \
	X(VERDICT_CREATED_AT, "created_at", COL_TEXT, COL_KEY) \
	X(VERDICT_BASELINE, "baseline", COL_TEXT, COL_KEY) \
	X(VERDICT_CANDIDATE, "candidate", COL_TEXT, COL_KEY) \
	X(VERDICT_CELL, "cell", COL_TEXT, COL_KEY) \
	X(VERDICT_METRIC, "metric", COL_TEXT, COL_KEY) \
	X(VERDICT_MACHINE_ID, "machine_id", COL_INT, COL_KEY | COL_MACHINE) \
	X(VERDICT_N_BASE, "n_base", COL_INT, 0) \
	X(VERDICT_N_CAND, "n_cand", COL_INT, 0) \
	X(VERDICT_RATIO, "ratio", COL_REAL, 0) \
	X(VERDICT_CI_LO, "ci_lo", COL_REAL, 0) \
	X(VERDICT_CI_HI, "ci_hi", COL_REAL, 0) \
	X(VERDICT_P_VALUE, "p_value", COL_REAL, 0) \
	X(VERDICT_Q_VALUE, "q_value", COL_REAL, 0) \
	X(VERDICT_VERDICT, "verdict", COL_TEXT, 0) \
	X(VERDICT_METHOD, "method", COL_TEXT, 0) \
	X(VERDICT_REASON, "reason", COL_TEXT, 0) \
	X(VERDICT_NOISE_FLOOR, "noise_floor", COL_REAL, 0) \
	X(VERDICT_MDE, "mde", COL_REAL, 0) \
	X(VERDICT_MACHINE_NAME, "machine_name", COL_TEXT, 0)	/* schema 4 */

#define COLUMN_ENUM(e, name, type, flags) e,
enum machine_col { MACHINE_COLUMNS(COLUMN_ENUM) MACHINE_NCOL };
enum run_col { RUN_COLUMNS(COLUMN_ENUM) RUN_NCOL };
enum task_col { TASK_COLUMNS(COLUMN_ENUM) TASK_NCOL };
enum value_col { VALUE_COLUMNS(COLUMN_ENUM) VALUE_NCOL };
enum metric_col { METRIC_COLUMNS(COLUMN_ENUM) METRIC_NCOL };
enum run_window_col { RUN_WINDOW_COLUMNS(COLUMN_ENUM) RUN_WINDOW_NCOL };
enum window_value_col { WINDOW_VALUE_COLUMNS(COLUMN_ENUM) WINDOW_VALUE_NCOL };
enum timing_col { TIMING_COLUMNS(COLUMN_ENUM) TIMING_NCOL };
enum sweep_col { SWEEP_COLUMNS(COLUMN_ENUM) SWEEP_NCOL };
enum noise_col { NOISE_COLUMNS(COLUMN_ENUM) NOISE_NCOL };
enum verdict_col { VERDICT_COLUMNS(COLUMN_ENUM) VERDICT_NCOL };
#undef COLUMN_ENUM

struct store_column {
	const char *name;
	enum col_type type;
	unsigned flags;		/* enum col_flag */
};

/* How 'db merge' treats a row of the table whose key is already in the output. */
enum merge_rule {
	MERGE_MAP,		/* machine: reuse the output's row, remember the id */
	MERGE_RUN,		/* run: skip it, with its child rows; else copy them along */
	MERGE_CHILD,		/* task, value, metric, run_window, window_value: copied with their run only */
	MERGE_SKIP,		/* keep the output's row */
	MERGE_NEWEST,		/* replace the output's row when the COL_NEWER column is greater */
};

struct store_table {
	const char *name;
	const struct store_column *col;
	int ncol;
	enum merge_rule merge;
};

/* Every table, in the order a merge copies them; ends with a NULL name. */
extern const struct store_table store_tables[];

enum store_table_id {
	T_MACHINE, T_RUN, T_TASK, T_VALUE, T_METRIC, T_RUN_WINDOW, T_WINDOW_VALUE, T_TIMING, T_SWEEP, T_NOISE, T_VERDICT, T_NTABLES
};

/* A column a migration renamed: a database older than that migration has
 * it under its old name, and readers and 'db merge' still read it. */
struct store_renamed {
	const char *table, *name, *old;
	int version;		/* the schema version that has the new name */
};

/* Every rename, ending with a NULL table. */
extern const struct store_renamed store_renamed[];

/* The old name of column name of table, when it was renamed after
 * schema version v; else name. */
const char *store_col_at(const char *table, const char *name, int v);

/* The SQL type name of a column type (INTEGER, REAL, TEXT). */
const char *store_col_type_name(enum col_type t);

/*
 * One value for a column, as the writers hand it to the store: kind
 * SV_NULL for SQL NULL. Text is not copied; it must outlive the insert.
 */
struct store_val {
	enum { SV_NULL, SV_INT, SV_REAL, SV_TEXT } kind;
	int64_t i;
	double d;
	const char *s;
};

struct store_val sv_int(int64_t i);
struct store_val sv_real(double d);		/* NaN and inf are stored as NULL */
struct store_val sv_text(const char *s);	/* NULL text is SQL NULL */
struct store_val sv_null(void);

#endif
