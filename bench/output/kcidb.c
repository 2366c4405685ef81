/*
 * output/kcidb.c - the KCIDB v5.3 export. Ids are "ORIGIN:kernel:RELEASE"
 * (checkouts), "ORIGIN:FINGERPRINT:RELEASE:MACHINE" (builds: one per
 * machine name and kernel, as identical machines share a fingerprint) and
 * "ORIGIN:RUN_UUID:METRIC" (tests). A test's path is "sgabench", the words
 * of the run's cell whose key varies among the exported runs ("tasks=8"
 * becomes "tasks_8"), and the metric: two runs of different cells differ
 * in such a word, so their paths differ, and an axis every run shares
 * (often 20 of them) is not repeated in every path. The full cell is in
 * the test's misc. Status:
 * DONE for a value, ERROR for a failed run, SKIP for a counter this machine
 * cannot count (unsupported, no-pmu, pmu-reads-zero, not-modelled, no-driver), MISS
 * for one the harness could have counted with other settings (permission,
 * multiplexed-out). A number's unit is the registry's KCIDB unit.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lib/json.h"
#include "lib/log.h"
#include "lib/metrics.h"
#include "output/kcidb.h"
#include "output/output.h"
#include "store/query.h"
#include "store/read.h"
#include "store/store.h"
#include "store/select.h"

struct row {
	int64_t id;
	char *uuid, *status, *label, *started_at, *fingerprint, *arch, *kernel, *machine_json;
	char *machine_name;	/* "" when unknown */
	char *cell;		/* the run's cell, read by cells_load() */
};

struct rows {
	struct row *r;
	size_t n;
	int (*want)(void *ctx, int64_t id, const char *label, const char *status);
	void *ctx;
	char *varying;		/* " key key ... ": the cell keys whose value differs among the rows */
};

int kcidb_origin_ok(const char *origin)
{
	if (!origin || !*origin)
		return 0;
	for (const char *p = origin; *p; p++)
		if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_'))
			return 0;
	return 1;
}

/* Keep one run the caller wants, copying its strings. */
static int add_row(void *ctx, const struct store_export_row *e)
{
	struct rows *rs = ctx;
	struct row *nr, *r;

	if (rs->want && !rs->want(rs->ctx, e->id, e->label, e->status))
		return 0;
	nr = realloc(rs->r, (rs->n + 1) * sizeof(*nr));
	if (!nr)
		return -1;
	rs->r = nr;
	r = &rs->r[rs->n++];
	r->id = e->id;
	r->uuid = strdup(e->uuid);
	r->status = strdup(e->status);
	r->label = strdup(e->label);
	r->started_at = strdup(e->started_at);
	r->fingerprint = strdup(e->fingerprint);
	r->arch = strdup(e->arch);
	r->kernel = strdup(*e->kernel ? e->kernel : "unknown");
	r->machine_json = strdup(e->machine_json);
	r->machine_name = strdup(e->machine_name);
	r->cell = NULL;
	return r->uuid && r->status && r->label && r->started_at && r->fingerprint && r->arch &&
	       r->kernel && r->machine_json && r->machine_name ? 0 : -1;
}

static void free_rows(struct rows *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		struct row *r = &rs->r[i];

		free(r->uuid);
		free(r->status);
		free(r->label);
		free(r->started_at);
		free(r->fingerprint);
		free(r->arch);
		free(r->kernel);
		free(r->machine_json);
		free(r->machine_name);
		free(r->cell);
	}
	free(rs->r);
	free(rs->varying);
}

/* Each row's cell (a second read of the runs: the export rows do not carry it). */
static int cells_load(struct store *st, struct rows *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		struct stored_run s;

		if (store_load_run(st, rs->r[i].uuid, &s)) {
			error("export: cannot load run %s", rs->r[i].uuid);
			return -1;
		}
		rs->r[i].cell = strdup(s.cell ? s.cell : "");
		store_free_run(&s);
		if (!rs->r[i].cell)
			return -1;
	}
	return 0;
}

/*
 * The value of key (length kl) in cell as a pointer and length (*vl), or
 * NULL when the cell has no such key.
 */
static const char *cell_value(const char *cell, const char *key, size_t kl, size_t *vl)
{
	while (cell && *cell) {
		size_t l = strcspn(cell, " ");
		const char *eq = memchr(cell, '=', l);
		size_t wk = eq ? (size_t)(eq - cell) : l;

		if (wk == kl && strncmp(cell, key, kl) == 0) {
			*vl = eq ? l - kl - 1 : 0;
			return eq ? eq + 1 : cell + l;
		}
		cell += l;
		cell += strspn(cell, " ");
	}
	return NULL;
}

/* Whether the key (length kl) has the same value in every row's cell. */
static int key_constant(const struct rows *rs, const char *key, size_t kl)
{
	size_t v0l = 0, vl;
	const char *v0 = rs->n ? cell_value(rs->r[0].cell, key, kl, &v0l) : NULL;

	for (size_t i = 1; i < rs->n; i++) {
		const char *v = cell_value(rs->r[i].cell, key, kl, &vl);

		if (!v != !v0 || (v && (vl != v0l || strncmp(v, v0, vl) != 0)))
			return 0;
	}
	return 1;
}

/* Append word w to path p (size len) as one path word: [A-Za-z0-9_-], '=' as '_'. */
static void path_word(char *p, size_t len, const char *w, size_t wl)
{
	size_t n = strlen(p);

	if (n + 2 >= len || wl == 0)
		return;
	p[n++] = '.';
	for (size_t i = 0; i < wl && n + 1 < len; i++) {
		char c = w[i];

		p[n++] = isalnum((unsigned char)c) || c == '_' || c == '-' ? c : '_';
	}
	p[n] = '\0';
}

/* Whether the list " key key ... " holds the key of length kl. */
static int listed(const char *list, const char *key, size_t kl)
{
	for (const char *v = list; v && *v; v = strchr(v + 1, ' '))
		if (strncmp(v + 1, key, kl) == 0 && v[1 + kl] == ' ')
			return 1;
	return 0;
}

/*
 * Set rs->varying: every key of any row's cell whose value is not the same
 * in all; each key is judged once (seen), so the cost is keys x runs.
 */
static int varying_keys(struct rows *rs)
{
	char *vbuf = NULL, *sbuf = NULL;
	size_t vlen = 0, slen = 0;
	FILE *v = open_memstream(&vbuf, &vlen);
	FILE *seen = open_memstream(&sbuf, &slen);
	int bad;

	if (v)
		fputc(' ', v);
	if (seen)
		fputc(' ', seen);
	for (size_t i = 0; v && seen && i < rs->n; i++)
		for (const char *c = rs->r[i].cell; *c;) {
			size_t l = strcspn(c, " ");
			const char *eq = memchr(c, '=', l);
			size_t kl = eq ? (size_t)(eq - c) : l;

			fflush(seen);
			if (!listed(sbuf, c, kl)) {
				fprintf(seen, "%.*s ", (int)kl, c);
				if (!key_constant(rs, c, kl))
					fprintf(v, "%.*s ", (int)kl, c);
			}
			c += l;
			c += strspn(c, " ");
		}
	bad = !v || !seen;
	if (seen && fclose(seen))
		bad = 1;
	if (v && fclose(v))
		bad = 1;
	free(sbuf);
	if (bad) {
		free(vbuf);
		return -1;
	}
	rs->varying = vbuf;
	return 0;
}

/*
 * "sgabench.<cell words>": a word per space-separated key=value of cell
 * whose key varies among the rows rs.
 */
static void cell_path(char *p, size_t len, const char *cell, const struct rows *rs)
{
	snprintf(p, len, "sgabench");
	while (cell && *cell) {
		size_t l = strcspn(cell, " ");
		const char *eq = memchr(cell, '=', l);

		if (listed(rs->varying, cell, eq ? (size_t)(eq - cell) : l))
			path_word(p, len, cell, l);
		cell += l;
		cell += strspn(cell, " ");
	}
}

/*
 * The KCIDB unit of value name: a run metric's from the registry
 * (lib/metrics.h), an event total's from metric_event_unit().
 */
static const char *unit_of(const char *name)
{
	int id = metric_find(name);

	if (id >= 0)
		return metric_defs[id].kcidb_unit;
	return metric_event_unit(name);
}

/* SKIP: the machine cannot count it; MISS: another setting of the harness could have. */
static const char *missing_status(const char *why)
{
	return why && (strcmp(why, "permission") == 0 || strcmp(why, "multiplexed-out") == 0)
		       ? "MISS" : "SKIP";
}

static void checkouts(struct json *j, const char *origin, const struct rows *rs)
{
	char id[512];

	json_arr_open(j, "checkouts");
	for (size_t i = 0; i < rs->n; i++) {
		const char *first = rs->r[i].started_at;

		if (i && strcmp(rs->r[i].kernel, rs->r[i - 1].kernel) == 0)
			continue;
		for (size_t k = i; k < rs->n && strcmp(rs->r[k].kernel, rs->r[i].kernel) == 0; k++)
			if (strcmp(rs->r[k].started_at, first) < 0)
				first = rs->r[k].started_at;
		snprintf(id, sizeof(id), "%s:kernel:%s", origin, rs->r[i].kernel);
		json_obj_open(j, NULL);
		json_str(j, "id", id);
		json_str(j, "origin", origin);
		json_str(j, "comment", "the running kernel of the machines sgabench measured");
		json_str(j, "start_time", first);
		json_bool(j, "valid", 1);
		json_obj_open(j, "misc");
		json_str(j, "kernel_release", rs->r[i].kernel);
		json_obj_close(j);
		json_obj_close(j);
	}
	json_arr_close(j);
}

/*
 * The build id of run r: "ORIGIN:FINGERPRINT:RELEASE:MACHINE" (the name
 * last, as it may hold a ':'), or "ORIGIN:FINGERPRINT:RELEASE" for a run
 * of no known name.
 */
static void build_id(char *id, size_t len, const char *origin, const struct row *r)
{
	snprintf(id, len, "%s:%s:%s%s%s", origin, r->fingerprint, r->kernel,
		 *r->machine_name ? ":" : "", r->machine_name);
}

static void builds(struct json *j, const char *origin, const struct rows *rs)
{
	char id[512], cid[512], arch[64];

	json_arr_open(j, "builds");
	for (size_t i = 0; i < rs->n; i++) {
		const struct row *r = &rs->r[i];
		size_t n = 0;

		if (i && strcmp(r->kernel, r[-1].kernel) == 0 &&
		    strcmp(r->fingerprint, r[-1].fingerprint) == 0 &&
		    strcmp(r->machine_name, r[-1].machine_name) == 0)
			continue;
		for (const char *p = r->arch; *p && n + 1 < sizeof(arch); p++)
			arch[n++] = isalnum((unsigned char)*p) ? (char)tolower((unsigned char)*p) : '_';
		arch[n] = '\0';
		build_id(id, sizeof(id), origin, r);
		snprintf(cid, sizeof(cid), "%s:kernel:%s", origin, r->kernel);
		json_obj_open(j, NULL);
		json_str(j, "id", id);
		json_str(j, "origin", origin);
		json_str(j, "checkout_id", cid);
		if (*arch)
			json_str(j, "architecture", arch);
		json_str(j, "comment", "the running kernel of one named machine (not built by sgabench)");
		json_obj_open(j, "misc");
		if (*r->machine_name)
			json_str(j, "machine_name", r->machine_name);
		json_str(j, "fingerprint", r->fingerprint);
		json_raw_without_nulls(j, "machine", r->machine_json);
		json_obj_close(j);
		json_obj_close(j);
	}
	json_arr_close(j);
}

/* The fields every test of run r has: ids, origin, path, times. */
static void test_head(struct json *j, const char *origin, const struct row *r,
		      const struct stored_run *s, const char *metric, const char *path)
{
	char id[512], bid[512];

	snprintf(id, sizeof(id), "%s:%s%s%s", origin, r->uuid, metric ? ":" : "", metric ? metric : "");
	build_id(bid, sizeof(bid), origin, r);
	json_str(j, "id", id);
	json_str(j, "origin", origin);
	json_str(j, "build_id", bid);
	json_str(j, "path", path);
	json_str(j, "start_time", r->started_at);
	if (isfinite(s->res.wall_s) && s->res.wall_s >= 0)
		json_dbl(j, "duration", s->res.wall_s);
}

/*
 * misc of a test: the run, its configuration, and for event metric its
 * per-task values and how far to trust them (json_mux_event).
 */
static void test_misc(struct json *j, const struct row *r, const struct stored_run *s,
		      const char *metric, const char *missing)
{
	json_obj_open(j, "misc");
	json_str(j, "run_uuid", r->uuid);
	if (s->machine_name[0])
		json_str(j, "machine_name", s->machine_name);
	if (s->kernel_variant[0])
		json_str(j, "kernel_variant", s->kernel_variant);
	json_str(j, "cell", s->cell ? s->cell : "");
	if (*r->label)
		json_str(j, "label", r->label);
	json_str(j, "backend", s->res.backend);
	json_u64(j, "seed", s->res.seed);
	json_raw_without_nulls(j, "config", s->config_json);
	if (missing)
		json_str(j, "missing", missing);
	if (s->res.reason[0])
		json_str(j, "reason", s->res.reason);
	for (unsigned e = 0; metric && e < s->res.nevents; e++) {
		if (strcmp(s->res.events[e], metric) != 0)
			continue;
		json_arr_open(j, "per_task");
		for (unsigned t = 0; t < s->res.ntasks; t++) {
			const struct ev_value *v = &s->res.task[t].ev[e];

			json_obj_open(j, NULL);
			json_u64(j, "task", t);
			if (v->state == EV_COUNTED && isfinite(v->value))
				json_dbl(j, "value", v->value);
			else
				json_str(j, "missing", ev_state_name(v->state));
			json_obj_close(j);
		}
		json_arr_close(j);
		json_mux_event(j, &s->res, e);
	}
	json_obj_close(j);
}

/* Every test of run r, one of the exported rows rs. */
static int run_tests(struct store *st, struct json *j, const char *origin, const struct row *r,
		     const struct rows *rs)
{
	struct stored_run s;
	struct run_values v = { 0 };
	char base[1024], path[1200];
	int ret;

	ret = store_load_run(st, r->uuid, &s);
	if (ret) {
		error("export: cannot load run %s", r->uuid);
		return -1;
	}
	cell_path(base, sizeof(base), s.cell, rs);
	if (strcmp(r->status, "ok") != 0) {
		json_obj_open(j, NULL);
		test_head(j, origin, r, &s, NULL, base);
		json_str(j, "status", "ERROR");
		test_misc(j, r, &s, NULL, NULL);
		json_obj_close(j);
		store_free_run(&s);
		return 0;
	}
	if (select_load_values(st, r->id, &v)) {
		store_free_run(&s);
		error("export: cannot load the values of run %s", r->uuid);
		return -1;
	}
	for (size_t i = 0; i < v.n; i++) {
		snprintf(path, sizeof(path), "%s", base);
		path_word(path, sizeof(path), v.name[i], strlen(v.name[i]));
		json_obj_open(j, NULL);
		test_head(j, origin, r, &s, v.name[i], path);
		if (isnan(v.value[i])) {
			json_str(j, "status", missing_status(v.missing[i]));
		} else {
			json_str(j, "status", "DONE");
			json_obj_open(j, "number");
			json_dbl(j, "value", v.value[i]);
			json_str(j, "unit", unit_of(v.name[i]));
			json_obj_close(j);
		}
		test_misc(j, r, &s, v.name[i], isnan(v.value[i]) ?
			  (v.missing[i] ? v.missing[i] : "unknown") : NULL);
		json_obj_close(j);
	}
	run_values_free(&v);
	store_free_run(&s);
	return 0;
}

int kcidb_write(struct store *s, const char *origin,
		int (*want)(void *ctx, int64_t id, const char *label, const char *status), void *ctx,
		FILE *f)
{
	struct rows rs = { .want = want, .ctx = ctx };
	struct json j;
	int ret = store_list_export(s, add_row, &rs);

	if (ret) {
		error("export: reading runs: %s", store_errmsg(s));
		free_rows(&rs);
		return -1;
	}
	if (cells_load(s, &rs) || varying_keys(&rs)) {
		free_rows(&rs);
		return -1;
	}
	json_init(&j, f, 1);
	json_obj_open(&j, NULL);
	json_obj_open(&j, "version");
	json_u64(&j, "major", 5);
	json_u64(&j, "minor", 3);
	json_obj_close(&j);
	checkouts(&j, origin, &rs);
	builds(&j, origin, &rs);
	json_arr_open(&j, "tests");
	for (size_t i = 0; i < rs.n && !ret; i++)
		ret = run_tests(s, &j, origin, &rs.r[i], &rs);
	json_arr_close(&j);
	json_obj_close(&j);
	json_end(&j);
	free_rows(&rs);
	return ret;
}
