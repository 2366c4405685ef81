/* builtin/runs.c - sgabench runs: list stored runs, newest first. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "builtin/builtin.h"
#include "lib/json.h"
#include "lib/log.h"
#include "lib/opt.h"
#include "machine/sysinfo.h"
#include "output/envelope.h"
#include "store/query.h"
#include "store/store.h"

struct runs_cfg {
	struct read_cfg io;
	uint64_t limit;
	const char *label;
	const char *backend;
	const char *machine;
	int failed;
};

#define F(x) offsetof(struct runs_cfg, x)
static const struct opt runs_opts[] = {
	{ .type = OPT_ROWS, .rows = builtin_read_rows, .off = F(io) },
	{ .name = "limit", .type = OPT_UINT, .off = F(limit), .min = 1, .max = 1000000,
	  .metavar = "N", .def = "50",
	  .help = "show at most N runs" },
	{ .name = "label", .type = OPT_STR, .off = F(label),
	  .metavar = "TEXT",
	  .help = "only runs with this label (SQL LIKE pattern)" },
	{ .name = "backend", .type = OPT_STR, .off = F(backend),
	  .metavar = "NAME",
	  .help = "only this backend (native, model:%, ...)" },
	{ .name = "machine", .type = OPT_STR, .off = F(machine),
	  .metavar = "NAME",
	  .help = "only runs of the machine named NAME (SGABENCH_MACHINE when it ran)" },
	{ .name = "failed", .type = OPT_FLAG, .off = F(failed),
	  .help = "only failed runs" },
	{ NULL },
};

struct runs_print {
	const struct runs_cfg *c;
	struct json *j;
	int n;
};

/* Print one run as a JSON object or a table line. */
static int print_run(void *ctx, const struct store_run_row *r)
{
	struct runs_print *p = ctx;
	struct json *j = p->j;

	p->n++;
	if (p->c->io.json) {
		json_obj_open(j, NULL);
		json_i64(j, "run_id", r->id);
		json_str(j, "uuid", r->uuid);
		json_str(j, "started_at", r->started_at);
		json_str(j, "backend", r->backend);
		json_str(j, "status", r->status);
		json_str(j, "workload", r->workload);
		json_i64(j, "tasks", r->tasks);
		json_str(j, "page_size", r->page_size);
		json_str(j, "align", r->align);
		json_str(j, "backing", r->backing);
		json_i64(j, "rounds", r->rounds);
		json_str(j, "label", r->label);
		json_str(j, "fingerprint", r->fingerprint);
		json_str(j, "machine", r->machine_name);
		json_str(j, "kernel_variant", *r->kernel_variant ? r->kernel_variant : NULL);
		json_str(j, "boot_id", *r->boot_id ? r->boot_id : NULL);
		json_str(j, "reason", r->reason);
		json_str(j, "cell", r->cell);
		json_obj_close(j);
		return 0;
	}
	printf("%5lld  %.8s  %-20s  %-12.12s  %-16.16s  %-22.22s  %-6s  %-7s %5d  %-4s %-4s %-5s %10lld  %s%s%s\n",
	       (long long)r->id, r->uuid, r->started_at, r->machine_name,
	       *r->kernel_variant ? r->kernel_variant : "-", r->backend, r->status, r->workload,
	       (int)r->tasks, r->page_size, r->align, r->backing, (long long)r->rounds, r->label,
	       *r->reason ? "  failed: " : "", r->reason);
	return 0;
}

int cmd_runs(int argc, char **argv)
{
	struct runs_cfg c = { 0 };
	struct store_runs_filter f;
	struct runs_print p = { .c = &c };
	struct store *db;
	struct sysinfo si;
	struct json j;
	char shown[1024];
	int ret;

	ret = opt_parse(runs_opts, &c, argc, argv, "runs", "[OPTIONS]", NULL, NULL);
	if (ret)
		return ret == OPT_HELP_SHOWN ? EX_OK : ret;
	ret = store_open_ro(c.io.db, &db);
	if (ret)
		return ret;
	c.io.db = store_display(store_path(db), shown, sizeof(shown));
	f = (struct store_runs_filter){ c.label, c.backend, c.failed, c.limit, c.machine };
	p.j = &j;
	if (c.io.json) {	/* the envelope every JSON document starts with, then the runs */
		json_init(&j, stdout, 1);
		json_obj_open(&j, NULL);
		sysinfo_collect(&si);
		envelope_json(&j, &si, "runs");
		json_str(&j, "database", c.io.db);
		json_arr_open(&j, "runs");
	} else {
		printf("%5s  %-8s  %-20s  %-12s  %-16s  %-22s  %-6s  %-7s %5s  %-4s %-4s %-5s %10s  %s\n", "id",
		       "uuid", "started (UTC)", "machine", "kernel", "backend", "status", "pattern", "tasks", "page", "algn", "back",
		       "rounds", "label");
	}
	ret = store_list_runs(db, &f, print_run, &p);
	if (ret) {
		error("runs: %s", store_errmsg(db));
		store_close(db);
		return EX_FAIL;
	}
	if (c.io.json) {
		json_arr_close(&j);
		json_obj_close(&j);
		json_end(&j);
	} else if (!p.n) {
		printf("(no runs in %s)\n", c.io.db);
	}
	store_close(db);
	return EX_OK;
}
