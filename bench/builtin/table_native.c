/* table_native.c - one table row through the native backend, in process (table_native.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin/builtin.h"
#include "builtin/table_native.h"
#include "lib/clock.h"
#include "lib/log.h"
#include "native/backend.h"

#define EVENT "dTLB-load-misses"

/*
 * The row's configuration, parsed from the same options a user would give
 * `sgabench run`, so the native option table stays the one truth for
 * defaults and ranges. Returns 0 or -EINVAL (printed by opt_parse).
 */
static int row_config(const struct native_row *nr, void *cfg)
{
	char rounds[32];
	char *argv[24];
	int argc = 0;

	snprintf(rounds, sizeof(rounds), "%llu", (unsigned long long)nr->rounds);
	argv[argc++] = "run";
	argv[argc++] = "--tasks";
	argv[argc++] = "2";
	argv[argc++] = "--place";
	argv[argc++] = (char *)nr->place;
	argv[argc++] = "--page-size";
	argv[argc++] = (char *)nr->page;
	argv[argc++] = "--sga-size";
	argv[argc++] = (char *)nr->sga;
	argv[argc++] = "--working-set";
	argv[argc++] = (char *)nr->ws;
	argv[argc++] = "--rounds";
	argv[argc++] = rounds;
	argv[argc++] = "--events";
	argv[argc++] = EVENT;
	if (nr->sharedctx)
		argv[argc++] = "--sharedctx";
	argv[argc] = NULL;
	return opt_parse(native_backend.opts, cfg, argc, argv, "run", "[OPTIONS]", NULL, NULL);
}

/* The total of EVENT over the tasks of r into *misses, or 3 with why filled. */
static int event_total(const struct run_result *r, double *misses, char *why, size_t whylen)
{
	for (unsigned e = 0; e < r->nevents; e++) {
		int st;

		if (strcmp(r->events[e], EVENT))
			continue;
		st = result_event_total(r, e, misses);
		if (!st)
			return 0;
		*misses = NAN;
		snprintf(why, whylen, EVENT " not counted: %s", ev_state_name(st));
		return EX_RESOURCE;
	}
	snprintf(why, whylen, EVENT " not in the result of the native run");
	return EX_RESOURCE;
}

int native_row_run(const struct native_row *nr, const struct sysinfo *si, double *misses,
		   char *why, size_t whylen)
{
	const struct backend_ops *be = &native_backend;
	void *cfg = calloc(1, be->cfg_size);
	struct backend_run *br = calloc(1, sizeof(*br));
	void *plan = NULL;
	int ret;

	*misses = NAN;
	if (!cfg || !br) {
		snprintf(why, whylen, "out of memory");
		ret = EX_RESOURCE;
		goto out;
	}
	ret = builtin_exit(row_config(nr, cfg));
	if (ret) {
		snprintf(why, whylen, "the table's native row does not parse as 'sgabench run' options");
		goto out;
	}
	ret = builtin_exit(be->prepare(cfg, si, &plan, why, whylen));
	if (ret)
		goto out;
	br->label = nr->label;
	br->t0 = clock_now_s();
	ret = builtin_exit(backend_run_plan(be, plan, si, nr->db, br));
	if (ret) {
		if (br->store_ret)
			snprintf(why, whylen, "the run was measured but not stored (the database error is above)");
		else
			snprintf(why, whylen, "%s", br->r.reason[0] ? br->r.reason : br->err);
		goto out;
	}
	ret = event_total(&br->r, misses, why, whylen);
out:
	backend_run_free(be, plan, br);
	free(cfg);
	return ret;
}
