/* builtin/show.c - sgabench show RUN: one stored run, human, JSON or CSV. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin/builtin.h"
#include "lib/json.h"
#include "lib/log.h"
#include "lib/opt.h"
#include "machine/perf.h"
#include "output/output.h"
#include "store/read.h"
#include "machine/sysinfo.h"

struct show_cfg {
	struct read_cfg io;
	int csv;
};

#define F(x) offsetof(struct show_cfg, x)
static const struct opt show_opts[] = {
	{ .type = OPT_ROWS, .rows = builtin_read_rows, .off = F(io) },
	{ .name = "csv", .type = OPT_FLAG, .off = F(csv),
	  .help = "print as CSV" },
	{ NULL },
};

/* The --events list a stored run's config JSON records, into out ("" if none). */
static const char *config_events(const char *config, char *out, size_t len)
{
	const char *p = config ? strstr(config, "\"events\"") : NULL;
	size_t o = 0;

	out[0] = '\0';
	if (!p || !(p = strchr(p + 8, '"')))
		return out;
	for (p++; *p && *p != '"' && o + 1 < len; p++) {
		if (*p == '\\' && p[1])
			p++;
		out[o++] = *p;
	}
	out[o] = '\0';
	return out;
}

/* For a model run: the walk cost and clock its est-* metrics assumed,
 * as stored with its machine (after sim --walk-cycles and --ghz). */
static void print_model_costs(const struct stored_run *s)
{
	double walk, ghz;

	if (json_text_number(s->config_json, "walk_cycles", &walk) || json_text_number(s->config_json, "ghz", &ghz))
		return;
	printf("  est-* assumed a walk of %g cycles, each level's lookups at its hit= cost (tlb above), "
	       "%g GHz (the run's machine)\n", walk, ghz);
}

int cmd_show(int argc, char **argv)
{
	char events[2048], groups[1024];
	struct show_cfg c = { 0 };
	struct stored_run s;
	struct run_view v = { 0 };
	struct sysinfo si;
	char *pos[1];
	int np = 1, ret;
	struct store *db;

	ret = opt_parse(show_opts, &c, argc, argv, "show", "RUN (a run id or uuid prefix) [OPTIONS]", pos, &np);
	if (ret)
		return ret == OPT_HELP_SHOWN ? EX_OK : ret;
	if (np != 1) {
		error("show: which run? give a run id or uuid prefix");
		hint("'sgabench runs' lists them");
		return EX_USAGE;
	}
	ret = store_open_ro(c.io.db, &db);
	if (ret)
		return ret;
	c.io.db = store_path(db);
	ret = store_load_run(db, pos[0], &s);
	if (ret) {
		error("show: %s run '%s' in '%s'", ret == -ENOTUNIQ ? "more than one" : ret == -ENOENT ? "no" : "cannot read",
		      pos[0], c.io.db);
		if (ret == -ENOTUNIQ)
			hint("give more of the uuid");
		store_close(db);
		/* a run key that matches none or several is a usage error, as before */
		return ret == -ENOENT || ret == -ENOTUNIQ ? EX_USAGE : ret;
	}
	v.meta = &s.meta;
	v.res = &s.res;
	sysinfo_collect(&si);
	v.si = &si;
	v.command = "show";
	v.fingerprint = s.fingerprint;
	v.machine_name = s.machine_name;
	v.kernel_variant = s.kernel_variant[0] ? s.kernel_variant : NULL;
	v.machine_json = s.machine_json;
	v.describe = s.cell;
	v.groups = perf_group_text(config_events(s.config_json, events, sizeof(events)), groups,
				   sizeof(groups));
	v.run_id = s.run_id;
	v.db = c.io.db;
	if (c.io.json)
		output_json(stdout, &v);
	else if (c.csv)
		output_csv(stdout, &v);
	else {
		output_human(stdout, &v);
		print_model_costs(&s);
		if (s.label)
			printf("  label %s, sgabench %s, started %s\n", s.label, s.version, s.res.started_at);
		else
			printf("  sgabench %s, started %s\n", s.version, s.res.started_at);
	}
	store_free_run(&s);
	store_close(db);
	return EX_OK;
}
