/* builtin/sysinfo.c - sgabench sysinfo: what this machine is, and its fingerprint. */
#include <stddef.h>
#include <stdio.h>
#include "builtin/builtin.h"
#include "lib/json.h"
#include "lib/log.h"
#include "lib/opt.h"
#include "machine/sysinfo.h"
#include "output/envelope.h"

struct sysinfo_cfg {
	int json;
};

static const struct opt sysinfo_opts[] = {
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct sysinfo_cfg, json),
	  .help = "print the machine record as JSON (with tool_version and fingerprint)" },
	{ NULL },
};

/*
 * Print the machine record: readable by default, or with --json one object
 * {"tool_version", "fingerprint", "machine": {...}}. Exit 0, or 2 on bad options.
 */
int cmd_sysinfo(int argc, char **argv)
{
	struct sysinfo_cfg cfg = { 0 };
	struct sysinfo si;
	int ret = opt_parse(sysinfo_opts, &cfg, argc, argv, "sysinfo", "[--json]", NULL, NULL);

	if (ret)
		return ret == OPT_HELP_SHOWN ? EX_OK : ret;
	sysinfo_collect(&si);
	if (cfg.json) {
		struct json j;

		json_init(&j, stdout, 1);
		json_obj_open(&j, NULL);
		envelope_json(&j, &si, "sysinfo");
		sysinfo_json(&si, &j, "machine");
		json_obj_close(&j);
		json_end(&j);
	} else {
		sysinfo_print(&si, stdout);
	}
	return fflush(stdout) ? EX_FAIL : EX_OK;
}
