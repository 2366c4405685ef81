/*
 * builtin/sim.c - `sgabench sim`: run a workload on the software TLB model
 * (model/backend.c) and store it like a native run (backend model:<machine>).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin/builtin.h"
#include "lib/log.h"
#include "lib/opt.h"
#include "model/backend.h"
#include "model/simrun.h"

/* Append ", TEXT" to took (k bytes used of len). */
#define TOOK(...) \
	(k += k < len ? (size_t)snprintf(took + k, len - k, ", " __VA_ARGS__) : 0)

/*
 * The settings a custom TLB (--tlb, no preset) took by default rather than
 * from the command line, as sim options with their values, into took
 * ("" when none): the machine and run sim_prepare built from c. Those that
 * change the counts; the walk cost only moves the est-* estimates, which
 * the output already calls assumed.
 */
static void custom_defaults(const struct sim_cfg *c, const struct model_machine *m,
			    const struct model_run *r, char *took, size_t len)
{
	size_t k = 0;
	char tag[16];

	took[0] = '\0';
	if (!c->working_set && !c->sga_size)
		TOOK("--working-set %llum (inferred for the T2: 69 of its 4 MiB entries)",
		     (unsigned long long)(r->pages * model_psz_bytes(r->psz) >> 20));
	if (!c->page)
		TOOK("--page-size %s", model_psz_name(r->psz));
	if (!c->cores)
		TOOK("--cores %u (%u strands each: more tasks take turns)", m->cores, m->strands);
	if (!c->tag)
		TOOK("--tag %s", opt_choice_name(MODEL_TAG_CHOICES, m->tag, tag, sizeof(tag)));
}

/*
 * Prepare as the model does; then, for a custom TLB, say on stderr which
 * settings it took by default: they come from no machine of the vendor's
 * (the working set is the one inferred for the T2), and they change every
 * count.
 */
static int prepare(const void *cfg, const struct sysinfo *si, void **plan, char *err, size_t errlen)
{
	struct sim_cfg c = *(const struct sim_cfg *)cfg;
	int ret = model_backend.prepare(cfg, si, plan, err, errlen);
	struct model_machine *m;
	struct model_run r;
	char took[512];

	if (ret || !c.tlb || (c.machine && strcmp(c.machine, "custom") != 0))
		return ret;
	c.machine = "custom";
	m = calloc(1, sizeof(*m));
	if (m && !sim_prepare(&c, si, m, &r, err, errlen)) {
		custom_defaults(&c, m, &r, took, sizeof(took));
		if (took[0])
			warning("sim: the custom TLB took these defaults: %s; give them to choose", took + 2);
	}
	free(m);
	return ret;
}

int cmd_sim(int argc, char **argv)
{
	struct backend_ops be = model_backend;

	be.prepare = prepare;
	return backend_cmd(&be, argc, argv);
}
