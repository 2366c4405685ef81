/* store/window.c - the per-window rows of a run (tables run_window and window_value). */
#include <stddef.h>
#include "store/store.h"

/* Bind text or NULL. */
static void bind_opt_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* Insert one window of one task: its row and each event value. Returns 0 or -1. */
static int put_one(sqlite3_stmt *sw, sqlite3_stmt *sv, int64_t run_id, unsigned w, unsigned t,
		   const struct run_result *r)
{
	const struct window_result *wr = &r->win[(size_t)w * r->ntasks + t];

	sqlite3_reset(sw);
	sqlite3_bind_int64(sw, 1, run_id);
	sqlite3_bind_int(sw, 2, (int)w);
	sqlite3_bind_int(sw, 3, (int)t);
	sqlite3_bind_int64(sw, 4, (int64_t)wr->accesses);
	sqlite3_bind_int64(sw, 5, (int64_t)wr->window_ns);
	if (sqlite3_step(sw) != SQLITE_DONE)
		return -1;
	for (unsigned e = 0; e < r->nevents; e++) {
		const struct ev_value *v = &wr->ev[e];

		sqlite3_reset(sv);
		sqlite3_clear_bindings(sv);
		sqlite3_bind_int64(sv, 1, run_id);
		sqlite3_bind_int(sv, 2, (int)w);
		sqlite3_bind_int(sv, 3, (int)t);
		bind_opt_text(sv, 4, r->events[e]);
		if (v->state == EV_COUNTED) {
			sqlite3_bind_double(sv, 5, v->value);
			sqlite3_bind_int64(sv, 6, (int64_t)v->raw);
		} else {
			bind_opt_text(sv, 9, ev_state_name(v->state));
		}
		if (v->state == EV_COUNTED || v->enabled || v->running) {
			sqlite3_bind_int64(sv, 7, (int64_t)v->enabled);
			sqlite3_bind_int64(sv, 8, (int64_t)v->running);
		}
		if (sqlite3_step(sv) != SQLITE_DONE)
			return -1;
	}
	return 0;
}

int store_put_windows(sqlite3 *db, int64_t run_id, const struct run_result *r)
{
	static const char *ins_w =
		"INSERT INTO run_window (run_id, win, task, accesses, window_ns) VALUES (?,?,?,?,?)";
	static const char *ins_v =
		"INSERT INTO window_value (run_id, win, task, event, value, raw, enabled, running, missing)"
		" VALUES (?,?,?,?,?,?,?,?,?)";
	sqlite3_stmt *sw = NULL, *sv = NULL;
	int ret = -1;

	if (!r->nwindows || !r->win)
		return 0;
	if (sqlite3_prepare_v2(db, ins_w, -1, &sw, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, ins_v, -1, &sv, NULL) != SQLITE_OK)
		goto out;
	for (unsigned w = 0; w < r->nwindows; w++)
		for (unsigned t = 0; t < r->ntasks; t++)
			if (put_one(sw, sv, run_id, w, t, r))
				goto out;
	ret = 0;
out:
	sqlite3_finalize(sw);
	sqlite3_finalize(sv);
	return ret;
}
