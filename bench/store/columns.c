/* store/columns.c - the descriptor arrays of columns.h and the SQL built from them. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "store/internal.h"

#define COLUMN(e, name, type, flags) { name, type, flags },
static const struct store_column machine_cols[] = { MACHINE_COLUMNS(COLUMN) };
static const struct store_column run_cols[] = { RUN_COLUMNS(COLUMN) };
static const struct store_column task_cols[] = { TASK_COLUMNS(COLUMN) };
static const struct store_column value_cols[] = { VALUE_COLUMNS(COLUMN) };
static const struct store_column metric_cols[] = { METRIC_COLUMNS(COLUMN) };
static const struct store_column run_window_cols[] = { RUN_WINDOW_COLUMNS(COLUMN) };
static const struct store_column window_value_cols[] = { WINDOW_VALUE_COLUMNS(COLUMN) };
static const struct store_column sweep_cols[] = { SWEEP_COLUMNS(COLUMN) };
static const struct store_column timing_cols[] = { TIMING_COLUMNS(COLUMN) };
static const struct store_column noise_cols[] = { NOISE_COLUMNS(COLUMN) };
static const struct store_column verdict_cols[] = { VERDICT_COLUMNS(COLUMN) };
#undef COLUMN

#define TABLE(name, cols, rule) { name, cols, (int)(sizeof(cols) / sizeof(cols[0])), rule }
const struct store_table store_tables[] = {
	[T_MACHINE] = TABLE("machine", machine_cols, MERGE_MAP),
	[T_RUN] = TABLE("run", run_cols, MERGE_RUN),
	[T_TASK] = TABLE("task", task_cols, MERGE_CHILD),
	[T_VALUE] = TABLE("value", value_cols, MERGE_CHILD),
	[T_METRIC] = TABLE("metric", metric_cols, MERGE_CHILD),
	[T_RUN_WINDOW] = TABLE("run_window", run_window_cols, MERGE_CHILD),
	[T_WINDOW_VALUE] = TABLE("window_value", window_value_cols, MERGE_CHILD),
	[T_TIMING] = TABLE("timing", timing_cols, MERGE_SKIP),
	[T_SWEEP] = TABLE("sweep", sweep_cols, MERGE_SKIP),
	[T_NOISE] = TABLE("noise", noise_cols, MERGE_NEWEST),
	[T_VERDICT] = TABLE("verdict", verdict_cols, MERGE_SKIP),
	[T_NTABLES] = { NULL, NULL, 0, MERGE_SKIP },
};
#undef TABLE

const struct store_renamed store_renamed[] = {
	{ "run", "working_set_bytes", "ws_bytes", 3 },
	{ "task", "first_touch_faults", "ft_minflt", 3 },
	{ NULL, NULL, NULL, 0 },
};

const char *store_col_at(const char *table, const char *name, int v)
{
	for (const struct store_renamed *r = store_renamed; r->table; r++)
		if (v < r->version && strcmp(r->table, table) == 0 && strcmp(r->name, name) == 0)
			return r->old;
	return name;
}

const char *store_col_type_name(enum col_type t)
{
	return t == COL_INT ? "INTEGER" : t == COL_REAL ? "REAL" : "TEXT";
}

struct store_val sv_int(int64_t i)
{
	return (struct store_val){ .kind = SV_INT, .i = i };
}

struct store_val sv_real(double d)
{
	return isfinite(d) ? (struct store_val){ .kind = SV_REAL, .d = d } : sv_null();
}

struct store_val sv_text(const char *s)
{
	return s ? (struct store_val){ .kind = SV_TEXT, .s = s } : sv_null();
}

struct store_val sv_null(void)
{
	return (struct store_val){ .kind = SV_NULL };
}

/* Append s to buf at *n; returns -1 when it does not fit. */
static int put(char *buf, size_t len, size_t *n, const char *s)
{
	size_t l = strlen(s);

	if (*n + l + 1 > len)
		return -1;
	memcpy(buf + *n, s, l + 1);
	*n += l;
	return 0;
}

char *store_insert_sql(const struct store_table *t, char *buf, size_t len)
{
	return store_insert_sql_cols(t, NULL, buf, len);
}

char *store_insert_sql_cols(const struct store_table *t, const int *present, char *buf, size_t len)
{
	size_t n = 0;
	int first = 1, bad = 0;

	bad |= put(buf, len, &n, "INSERT INTO ");
	bad |= put(buf, len, &n, t->name);
	bad |= put(buf, len, &n, " (");
	for (int i = 0; i < t->ncol; i++) {
		if ((t->col[i].flags & COL_ROWID) || (present && !present[i]))
			continue;
		bad |= put(buf, len, &n, first ? "" : ", ");
		bad |= put(buf, len, &n, t->col[i].name);
		first = 0;
	}
	bad |= put(buf, len, &n, ") VALUES (");
	first = 1;
	for (int i = 0; i < t->ncol; i++) {
		if ((t->col[i].flags & COL_ROWID) || (present && !present[i]))
			continue;
		bad |= put(buf, len, &n, first ? "?" : ", ?");
		first = 0;
	}
	bad |= put(buf, len, &n, ")");
	return bad ? NULL : buf;
}

/* The values of one counter as a value or window_value row tail (value, raw, enabled, running, missing). */
void store_ev_cols(const struct ev_value *ev, struct store_val *v)
{
	int counted = ev->state == EV_COUNTED;
	int times = counted || ev->enabled || ev->running;

	v[0] = counted ? sv_real(ev->value) : sv_null();
	v[1] = counted ? sv_int((int64_t)ev->raw) : sv_null();
	v[2] = times ? sv_int((int64_t)ev->enabled) : sv_null();
	v[3] = times ? sv_int((int64_t)ev->running) : sv_null();
	v[4] = counted ? sv_null() : sv_text(ev_state_name(ev->state));
}

void store_run_vals(int64_t machine_id, const struct run_meta *m, const struct run_result *r,
		    struct store_val *v)
{
	v[RUN_ID] = sv_null();
	v[RUN_UUID] = sv_text(r->uuid);
	v[RUN_MACHINE_ID] = sv_int(machine_id);
	v[RUN_STARTED_AT] = sv_text(r->started_at);
	v[RUN_WALL_S] = sv_real(r->wall_s);
	v[RUN_VERSION] = sv_text(SGA_VERSION);
	v[RUN_BACKEND] = sv_text(r->backend);
	v[RUN_WORKLOAD] = sv_text(m->workload);
	v[RUN_TASKS] = sv_int((int64_t)m->tasks);
	v[RUN_THREADS] = sv_int(m->threads);
	v[RUN_PAGE_SIZE] = sv_text(m->page_size);
	v[RUN_ALIGN] = sv_text(m->align);
	v[RUN_BACKING] = sv_text(m->backing);
	v[RUN_SHAREDCTX] = sv_int(m->sharedctx);
	v[RUN_SGA_BYTES] = sv_int((int64_t)m->sga_bytes);
	v[RUN_WORKING_SET_BYTES] = sv_int((int64_t)m->working_set_bytes);
	v[RUN_ROUNDS] = sv_int((int64_t)m->rounds);
	v[RUN_SEED] = sv_int((int64_t)r->seed);
	v[RUN_CELL] = sv_text(m->cell);
	v[RUN_LABEL] = sv_text(m->label);
	v[RUN_CONFIG_JSON] = sv_text(m->config_json ? m->config_json : "{}");
	v[RUN_STATUS] = sv_text(r->status[0] ? r->status : "ok");
	v[RUN_REASON] = sv_text(r->reason[0] ? r->reason : NULL);
	v[RUN_MACHINE_NAME] = sv_null();	/* the writer names the machine (store_put_run) */
	v[RUN_KERNEL_VARIANT] = sv_null();	/* and its kernel */
	/* the interval, or NULL and why not: one of the two, never both */
	if (r->mux_interval_ms > 0) {
		v[RUN_MUX_INTERVAL_MS] = sv_real(r->mux_interval_ms);
		v[RUN_MUX_INTERVAL_MISSING] = sv_null();
	} else {
		v[RUN_MUX_INTERVAL_MS] = sv_null();
		v[RUN_MUX_INTERVAL_MISSING] = sv_text(r->mux_interval_missing[0] ? r->mux_interval_missing
								: "unknown");
	}
	v[RUN_BOOT_ID] = sv_text(r->boot_id[0] ? r->boot_id : NULL);
}

void store_task_vals(int64_t run_id, unsigned t, const struct task_result *tr, struct store_val *tv)
{
	tv[TASK_RUN_ID] = sv_int(run_id);
	tv[TASK_TASK] = sv_int(t);
	tv[TASK_CPU] = tr->cpu >= 0 ? sv_int(tr->cpu) : sv_null();
	tv[TASK_ACCESSES] = sv_int((int64_t)tr->accesses);
	tv[TASK_WINDOW_NS] = sv_int((int64_t)tr->window_ns);
	tv[TASK_VMPTE_KB] = tr->vmpte_kb >= 0 ? sv_int(tr->vmpte_kb) : sv_null();
	tv[TASK_FIRST_TOUCH_FAULTS] = tr->first_touch_faults >= 0 ? sv_int(tr->first_touch_faults) : sv_null();
}
