/* builtin/workloads.c - sgabench workloads: the registered access patterns. */
#include <stdio.h>
#include "builtin/builtin.h"
#include "lib/log.h"
#include "lib/opt.h"
#include "workloads/workload.h"

static const struct opt no_opts[] = {
	{ NULL },
};

int cmd_workloads(int argc, char **argv)
{
	int ret = opt_parse(no_opts, NULL, argc, argv, "workloads", "", NULL, NULL);

	if (ret)
		return ret == OPT_HELP_SHOWN ? EX_OK : ret;
	for (int i = 0; workload_registry[i]; i++) {
		const struct workload_ops *w = workload_registry[i];

		printf("%-8s %s%s\n", w->name, w->help,
		       w->flags & WL_DEPENDENT ? " [dependent loads]" :
		       w->flags & WL_PERIODIC ? " [periodic]" : "");
	}
	return EX_OK;
}
