/* simrun.c - settings to machine and run, the machine as JSON, the result. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/json.h"
#include "lib/log.h"
#include "lib/metrics.h"
#include "lib/opt.h"
#include "lib/parse.h"
#include "model/simrun.h"
#include "machine/sysinfo.h"

/*
 * Refuse a --machine host whose TLB geometry came from CPUID under a
 * hypervisor: the hypervisor sets those leaves, so they need not be the
 * CPU's. Returns 0 or -EINVAL with the reason in err.
 */
static int host_trusted(const struct sysinfo *si, char *err, size_t errlen)
{
	if (!si->is_vm || strcmp(si->tlb_source, "cpuid") != 0)
		return 0;
	snprintf(err, errlen, "--machine host: this machine runs under the hypervisor '%s', and its TLB "
		 "geometry comes from CPUID leaves the hypervisor sets (%s, sysinfo source '%s'), so it "
		 "cannot be trusted; use a preset (--machine list) or --machine custom --tlb",
		 si->hypervisor[0] ? si->hypervisor : "unknown",
		 strcmp(si->cpu_vendor, "AuthenticAMD") == 0 ? "Fn8000_0005/Fn8000_0006" : "leaf 2 or 0x18",
		 si->tlb_source);
	return -EINVAL;
}

/*
 * Refuse what m's hardware cannot do: more strands per core than it has,
 * more cores than its largest published part, a page size its
 * architecture does not map. Returns 0 or -EINVAL with the reason in err.
 */
static int hardware_can(const struct sim_cfg *c, const struct model_machine *m,
			const struct model_run *r, char *err, size_t errlen)
{
	char ps[96];

	if (c->strands > m->strands) {
		snprintf(err, errlen, "--strands %llu: %s has %u strand%s per core",
			 (unsigned long long)c->strands, m->name, m->strands, m->strands == 1 ? "" : "s");
		return -EINVAL;
	}
	if (m->arch && c->cores > m->max_cores) {
		snprintf(err, errlen, "--cores %llu: the largest published %s part has %u cores",
			 (unsigned long long)c->cores, m->name, m->max_cores);
		return -EINVAL;
	}
	for (unsigned a = 0; a < model_areas(r); a++) {
		unsigned psz = model_area_psz(r, a);

		if (!m->arch_psz || (m->arch_psz & (1u << psz)))
			continue;
		snprintf(err, errlen, "--%spage-size %s%s: %s has no %s pages (it maps %s)%s%s", a ? "heap-" : "",
			 model_psz_name(psz), a && (!c->heap_page || strcmp(c->heap_page, "4k") == 0) ?
			 " (the default)" : "", m->arch, model_psz_name(psz),
			 model_psz_mask_str(m->arch_psz, ps, sizeof(ps)), a ? ": give --heap-page-size " : "",
			 a ? model_psz_name((unsigned)__builtin_ctz(m->arch_psz)) : "");
		return -EINVAL;
	}
	return 0;
}

/* The heap of c into r (model_run.heap_pages): none without --heap-size.
 * Returns 0 or -EINVAL with the reason in err. */
static int heap_prepare(const struct sim_cfg *c, struct model_run *r, char *err, size_t errlen)
{
	char b[32];
	int page = model_psz_parse(c->heap_page ? c->heap_page : "4k", &r->heap_psz);

	if (!c->heap_size) {
		/* a heap setting alone would name a distinct cell for the same run */
		if (c->heap_share == 25 && !page && r->heap_psz == PSZ_4K)
			return 0;
		snprintf(err, errlen, "--heap-page-size and --heap-share describe a heap: give --heap-size SIZE "
			 "(0, the default, is none)");
		return -EINVAL;
	}
	if (page) {
		snprintf(err, errlen, "--heap-page-size '%s': not a page size the model knows (4k..16g)",
			 c->heap_page);
		return -EINVAL;
	}
	if (c->heap_size % model_psz_bytes(r->heap_psz) ||
	    c->heap_size / model_psz_bytes(r->heap_psz) >= MODEL_MAX_HEAP_PAGES) {
		snprintf(err, errlen, "--heap-size %s: not a multiple of its page size %s, or 2^30 pages or more",
			 fmt_size(c->heap_size, b, sizeof(b)), model_psz_name(r->heap_psz));
		return -EINVAL;
	}
	if (strcmp(r->ops->name, "zipf") == 0 && c->heap_size / model_psz_bytes(r->heap_psz) < 2) {
		snprintf(err, errlen, "zipf needs a heap of at least 2 pages");
		return -EINVAL;
	}
	r->heap_pages = c->heap_size / model_psz_bytes(r->heap_psz);
	r->heap_share = (unsigned)c->heap_share;
	return 0;
}

/* The custom machine (--machine custom): levels from --tlb only. */
static void custom_machine(struct model_machine *m)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "custom");
	snprintf(m->desc, sizeof(m->desc), "a custom TLB (--tlb)");
	snprintf(m->source, sizeof(m->source), "the command line");
	m->tag = TAG_ASID;
	m->cores = 1;
	m->strands = 2;
	m->walk_cycles = 30;
	m->ghz = 3.0;
	m->default_page = "4k";
	m->ev_loads = m->ev_load_misses = MC_UNSUPPORTED;
	snprintf(m->counters, sizeof(m->counters), "a custom TLB has no CPU, so no driver defines "
		 "dTLB-loads or dTLB-load-misses: read l1-dtlb-misses, l2-dtlb-misses, dtlb-walks");
}

/* The machine of c: a preset, host or custom, with --tlb, --tag, --cores,
 * --walk-cycles and --ghz applied. Returns 0, or -EINVAL / -ENODEV with the
 * reason in err. */
static int sim_machine(const struct sim_cfg *c, const struct sysinfo *si, struct model_machine *m,
		       char *err, size_t errlen)
{
	int tag;

	if (strcmp(c->machine, "host") == 0) {
		if (!si || model_from_sysinfo(si, m, err, errlen))
			return -ENODEV;
		if (host_trusted(si, err, errlen))
			return -EINVAL;
	} else if (strcmp(c->machine, "custom") == 0) {
		custom_machine(m);
		if (!c->tlb) {
			snprintf(err, errlen, "--machine custom needs --tlb");
			return -EINVAL;
		}
		/* a design has the strands it is given (2 unless told) */
		if (c->strands)
			m->strands = (unsigned)c->strands;
	} else if (model_preset_find(c->machine, m)) {
		snprintf(err, errlen, "unknown machine '%s' (one of %s|host|custom|list)", c->machine,
			 model_preset_names());
		return -EINVAL;
	}
	if (c->tlb) {
		if (model_parse_tlb(c->tlb, m, err, errlen))
			return -EINVAL;
		if (strcmp(m->name, "custom") != 0) {
			char base[32];

			snprintf(base, sizeof(base), "%s", m->name);
			snprintf(m->name, sizeof(m->name), "%.20s+tlb", base);
		}
	}
	if (c->tag) {
		tag = opt_choice_index(MODEL_TAG_CHOICES, c->tag);
		if (tag < 0) {
			snprintf(err, errlen, "--tag '%s': must be one of %s", c->tag, MODEL_TAG_CHOICES);
			return -EINVAL;
		}
		m->tag = tag;
	}
	if (m->max_cores < m->cores)
		m->max_cores = m->cores;	/* before --cores replaces cores */
	if (c->cores)
		m->cores = (unsigned)c->cores;
	if (c->walk_cycles < 0 && c->walk_cycles != -1) {
		snprintf(err, errlen, "--walk-cycles %g: give 0 or more cycles (-1, the default, is the machine's)",
			 c->walk_cycles);
		return -EINVAL;
	}
	if (c->walk_cycles >= 0)
		m->walk_cycles = c->walk_cycles;
	if (c->ghz > 0)
		m->ghz = c->ghz;
	return 0;
}

int sim_prepare(const struct sim_cfg *c, const struct sysinfo *si, struct model_machine *m,
		struct model_run *r, char *err, size_t errlen)
{
	/* as in `run`: the working set is the area unless given; the area is the working set unless given */
	uint64_t ws = c->working_set ? c->working_set : c->sga_size ? c->sga_size : SIM_DEFAULT_WS, psz_bytes;
	const char *ws_from = c->working_set ? "" : c->sga_size ? " (the default: --sga-size)" :
			      " (the default: 276m)";
	char wsb[32], sgab[32];
	const char *page;
	int ret = sim_machine(c, si, m, err, errlen);

	if (ret)
		return ret;
	memset(r, 0, sizeof(*r));
	r->ops = workload_find(c->pattern);
	if (!r->ops) {
		snprintf(err, errlen, "unknown pattern '%s' (one of %s)", c->pattern, workload_names());
		return -EINVAL;
	}
	if (workload_check_args(&c->wl, err, errlen))
		return -EINVAL;
	page = c->page ? c->page : m->default_page;
	if (model_psz_parse(page, &r->psz)) {
		snprintf(err, errlen, "--page-size '%s': not a page size the model knows (4k..16g)", page);
		return -EINVAL;
	}
	psz_bytes = model_psz_bytes(r->psz);
	if (c->sga_size && c->sga_size % psz_bytes) {
		snprintf(err, errlen, "--sga-size %s is not a multiple of the page size %s%s",
			 fmt_size(c->sga_size, sgab, sizeof(sgab)), model_psz_name(r->psz),
			 c->page ? "" : " (the machine's default; set --page-size)");
		return -EINVAL;
	}
	if (ws % psz_bytes || ws < psz_bytes) {
		snprintf(err, errlen, "--working-set %s%s is not a non-zero multiple of the page size %s%s",
			 fmt_size(ws, wsb, sizeof(wsb)), ws_from, model_psz_name(r->psz),
			 c->page ? "" : " (the machine's default; set --page-size)");
		return -EINVAL;
	}
	if (c->sga_size && c->sga_size < ws) {
		snprintf(err, errlen, "--working-set %s%s is larger than --sga-size %s",
			 fmt_size(ws, wsb, sizeof(wsb)), ws_from, fmt_size(c->sga_size, sgab, sizeof(sgab)));
		return -EINVAL;
	}
	if (strcmp(r->ops->name, "zipf") == 0 && ws / psz_bytes < 2) {
		snprintf(err, errlen, "zipf needs a working set of at least 2 pages");
		return -EINVAL;
	}
	r->ntasks = (unsigned)c->tasks;
	r->threads = c->threads;
	r->sharedctx = c->sharedctx;
	r->pages = ws / psz_bytes;
	r->rounds = c->rounds;
	r->seed = c->seed;
	r->wl = c->wl;
	r->quantum = c->quantum;
	r->place = c->place;
	r->strands = (unsigned)c->strands;
	r->jitter = (unsigned)c->jitter;
	r->startup = c->startup;
	r->words = (unsigned)c->words;
	if (heap_prepare(c, r, err, errlen) || hardware_can(c, m, r, err, errlen) ||
	    model_check(m, r, err, errlen))
		return -EINVAL;
	return 0;
}

/* Name of repl/tag/place values. */
static const char *choice(const char *choices, int idx, char *buf, size_t len)
{
	return opt_choice_name(choices, idx, buf, len);
}

/* The plain name of an enum model_count, "accesses" or "unsupported". */
static const char *count_name(int c)
{
	switch (c) {
#define NAME_CASE(id, name, meaning) case id: return name;
	MODEL_PLAIN_COUNTERS(NAME_CASE)
#undef NAME_CASE
	case MC_ACCESSES:
		return "accesses";
	default:
		return "unsupported";
	}
}

char *sim_machine_json(const struct model_machine *m, char *buf, size_t len)
{
	static const char *const repl[] = { "lru", "nru", "random" };
	FILE *f = fmemopen(buf, len, "w");
	struct json j;
	char b[16], ps[96];

	if (!f) {
		snprintf(buf, len, "{}");
		return buf;
	}
	json_init(&j, f, 0);
	json_obj_open(&j, NULL);
	json_str(&j, "name", m->name);
	json_str(&j, "desc", m->desc);
	json_str(&j, "source", m->source);
	json_str(&j, "inferred", m->inferred);
	json_str(&j, "counters", m->counters);
	json_str(&j, "dTLB-loads", count_name(m->ev_loads));
	json_str(&j, "dTLB-load-misses", count_name(m->ev_load_misses));
	json_str(&j, "tag", choice(MODEL_TAG_CHOICES, m->tag, b, sizeof(b)));
	json_u64(&j, "cores", m->cores);
	json_u64(&j, "strands", m->strands);
	json_dbl(&j, "walk_cycles", m->walk_cycles);
	json_dbl(&j, "ghz", m->ghz);
	json_arr_open(&j, "levels");
	for (unsigned i = 0; i < m->nlevels; i++) {
		const struct model_level *lv = &m->level[i];

		json_obj_open(&j, NULL);
		json_str(&j, "name", lv->name);
		json_u64(&j, "entries", lv->entries);
		json_u64(&j, "ways", lv->ways ? lv->ways : lv->entries);
		json_bool(&j, "fully_associative", lv->ways == 0);
		json_u64(&j, "sets", model_level_sets(lv));
		json_str(&j, "index", lv->hashed ? "hash" : "mod");
		json_u64(&j, "modelled_entries", model_level_modelled(lv));
		json_str(&j, "replacement", repl[lv->repl]);
		json_str(&j, "page_sizes", model_psz_mask_str(lv->psz_mask, ps, sizeof(ps)));
		if (model_level_parted(lv)) {
			/* ways of each set per entry size: "ways_by_size": {"4k": 8, "2m": 2} */
			json_obj_open(&j, "ways_by_size");
			for (unsigned s = 0; s < PSZ_N; s++)
				if (lv->part[s])
					json_u64(&j, model_psz_name(s), lv->part[s]);
			json_obj_close(&j);
		}
		json_dbl(&j, "hit_cycles", lv->hit_cycles);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_obj_close(&j);
	fputc('\0', f);
	fclose(f);
	buf[len - 1] = '\0';
	return buf;
}

/* Set a counted value. */
static void counted(struct ev_value *v, uint64_t n)
{
	v->raw = n;
	v->value = (double)n;
	v->state = EV_COUNTED;
}

/*
 * The Linux CPU number of a task's core and strand: x86 firmware lists
 * every core's first thread before the siblings (cpu = strand * cores +
 * core, as /sys/devices/system/cpu/cpuN/topology/thread_siblings_list
 * shows on the usual ACPI enumeration; the firmware may differ), SPARC
 * sun4v and arm64 number a core's strands consecutively.
 */
static int model_cpu_id(const struct model_machine *m, const struct model_task *t)
{
	if (m->arch && strcmp(m->arch, "x86-64") == 0)
		return (int)(t->strand * m->cores + t->core);
	return (int)(t->core * m->strands + t->strand);
}

/* The model's plain counters (model.h), in the order they are stored. */
static const struct {
	int c;
	const char *name;
} plain[] = {
#define PLAIN_ROW(id, name, meaning) { id, name },
	MODEL_PLAIN_COUNTERS(PLAIN_ROW)
#undef PLAIN_ROW
};
#define NPLAIN (sizeof(plain) / sizeof(plain[0]))

/* A generic event as the machine's driver defines it (c: enum model_count):
 * counted, or unsupported when the driver maps no event to it. */
static void driver_event(const struct model_machine *m, const struct model_run *r,
			 const struct model_task *t, int c, struct ev_value *v)
{
	uint64_t n;

	if (model_count_of(m, r, t, c, &n))
		v->state = strcmp(m->name, "custom") == 0 ? EV_NO_DRIVER : EV_UNSUPPORTED;
	else
		counted(v, n);
}

int sim_result(const struct model_machine *m, const struct model_run *r,
	       const struct model_stats *st, double wall_s, struct run_result *res)
{
	int plain_ev[NPLAIN];
	double cycles = 0;
	unsigned e, nplain;
	uint64_t misses = 0;

	memset(res, 0, sizeof(*res));
	result_stamp(res);
	snprintf(res->backend, sizeof(res->backend), "model:%s", m->name);
	snprintf(res->status, sizeof(res->status), "ok");
	res->wall_s = wall_s;
	res->seed = r->seed;
	/* no PMU is simulated: every count is exact, and there is no interval */
	snprintf(res->mux_interval_missing, sizeof(res->mux_interval_missing), "not-modelled");
	res->ntasks = st->ntasks;
	res->task = calloc(st->ntasks, sizeof(*res->task));
	if (!res->task)
		return -ENOMEM;
	snprintf(res->events[0], sizeof(res->events[0]), "dTLB-load-misses");
	snprintf(res->events[1], sizeof(res->events[1]), "dTLB-loads");
	snprintf(res->events[2], sizeof(res->events[2]), "iTLB-load-misses");
	e = 3;
	for (unsigned k = 0; k < NPLAIN; k++) {
		uint64_t n;

		/* a counter the machine lacks (no second level) is not listed */
		if (st->ntasks && model_count_of(m, r, &st->task[0], plain[k].c, &n))
			continue;
		plain_ev[e - 3] = plain[k].c;
		snprintf(res->events[e++], sizeof(res->events[0]), "%s", plain[k].name);
	}
	nplain = e - 3;
	for (unsigned k = 0; k < m->nlevels && e < EV_MAX; k++, e++)
		snprintf(res->events[e], sizeof(res->events[e]), METRIC_LEVEL_EVENT_FMT, m->level[k].name);
	res->nevents = e;
	for (unsigned i = 0; i < st->ntasks; i++) {
		const struct model_task *t = &st->task[i];
		struct task_result *tr = &res->task[i];

		tr->cpu = model_cpu_id(m, t);
		tr->accesses = t->accesses;
		tr->vmpte_kb = -1;
		tr->vmpte_start_kb = -1;
		tr->first_touch_faults = -1;
		driver_event(m, r, t, m->ev_load_misses, &tr->ev[0]);
		driver_event(m, r, t, m->ev_loads, &tr->ev[1]);
		tr->ev[2].state = EV_NOT_MODELLED;
		for (unsigned k = 0; k < nplain; k++) {
			uint64_t n = 0;

			model_count_of(m, r, t, plain_ev[k], &n);
			counted(&tr->ev[3 + k], n);
		}
		for (unsigned k = 0; k < m->nlevels && 3 + nplain + k < EV_MAX; k++)
			counted(&tr->ev[3 + nplain + k], t->misses[k]);
		cycles += model_est_cycles(m, t);
	}
	result_set_metric(res, MET_MODEL_WALL_S, wall_s);
	result_set_metric(res, MET_MODEL_ACCESSES, (double)model_total_accesses(st));
	result_set_metric(res, MET_MODEL_SIMULATED_ACCESSES, (double)st->simulated_accesses);
	result_set_metric(res, MET_MODEL_SKIPPED_ACCESSES, (double)st->skipped_accesses);
	result_set_metric(res, MET_MODEL_PERIOD_CYCLES, (double)st->period_cycles);
	if (wall_s > 0)
		result_set_metric(res, MET_MODEL_ACCESSES_PER_S, (double)model_total_accesses(st) / wall_s);
	/* dTLB-load-misses per round, as the driver defines it (T2: the DTLB's misses) */
	for (unsigned i = 0; i < st->ntasks; i++) {
		uint64_t n;

		if (model_count_of(m, r, &st->task[i], m->ev_load_misses, &n))
			break;
		misses += n;
		if (i + 1 == st->ntasks)
			result_set_metric(res, MET_DTLB_MISSES_PER_ROUND, (double)misses / (double)r->rounds);
	}
	result_set_metric(res, MET_EST_TRANSLATION_CYCLES, cycles);
	if (m->ghz > 0) {
		result_set_metric(res, MET_EST_TRANSLATION_S, cycles / (m->ghz * 1e9));
		if (model_total_accesses(st))
			result_set_metric(res, MET_EST_TRANSLATION_NS_PER_ACCESS,
					  cycles / (m->ghz * (double)model_total_accesses(st)));
	}
	return 0;
}

void sim_list_machines(FILE *f)
{
	char tlb[512], b[16], org[160], costs[160];

	for (int i = 0; model_presets[i]; i++) {
		const struct model_machine *m = model_presets[i];

		fprintf(f, "%s\n  %s\n", m->name, m->desc);
		fprintf(f, "  tlb      %s\n", model_tlb_str(m, tlb, sizeof(tlb)));
		fprintf(f, "  tag      %s; %u cores x %u strands; default page %s\n",
			choice(MODEL_TAG_CHOICES, m->tag, b, sizeof(b)), m->cores, m->strands,
			m->default_page);
		for (unsigned k = 0; k < m->nlevels; k++)
			if (model_level_org(&m->level[k], org, sizeof(org)))
				fprintf(f, "  sets     %s: %s\n", m->level[k].name, org);
		fprintf(f, "  costs    %s (estimates)\n", model_costs_str(m, costs, sizeof(costs)));
		fprintf(f, "  source   %s\n", m->source);
		fprintf(f, "  counters %s\n", m->counters);
		if (m->inferred[0])
			fprintf(f, "  inferred %s\n", m->inferred);
		fputc('\n', f);
	}
	fprintf(f, "host\n  this machine's TLB geometry from sysinfo (CPUID on x86); LRU assumed\n\n");
	fprintf(f, "custom\n  --tlb 'l1d:64,full,lru;l2:2048,8way,lru[,ps=4k+2m+1g>2m][,index=mod|hash][,hit=N]' --tag ctx2|asid|none\n");
}
