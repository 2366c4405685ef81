/* perf.c - open, enable, read and classify per-task perf events. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include "lib/log.h"
#include "machine/perf.h"
#include "machine/sysinfo.h"

struct generic {
	const char *name;
	unsigned type;
	unsigned long long config;
	int group;
};

#define HWC(cache, op, res) \
	((PERF_COUNT_HW_CACHE_##cache) | (PERF_COUNT_HW_CACHE_OP_##op << 8) | \
	 (PERF_COUNT_HW_CACHE_RESULT_##res << 16))

/* perf's generic names, as `perf list` spells them. */
static const struct generic generics[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, PG_HW },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, PG_HW },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, PG_HW },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, PG_HW },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, PG_HW },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, PG_HW },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, PG_HW },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, PG_HW },
	{ "dTLB-loads", PERF_TYPE_HW_CACHE, HWC(DTLB, READ, ACCESS), PG_HW },
	{ "dTLB-load-misses", PERF_TYPE_HW_CACHE, HWC(DTLB, READ, MISS), PG_HW },
	{ "dTLB-stores", PERF_TYPE_HW_CACHE, HWC(DTLB, WRITE, ACCESS), PG_HW },
	{ "dTLB-store-misses", PERF_TYPE_HW_CACHE, HWC(DTLB, WRITE, MISS), PG_HW },
	{ "iTLB-loads", PERF_TYPE_HW_CACHE, HWC(ITLB, READ, ACCESS), PG_HW },
	{ "iTLB-load-misses", PERF_TYPE_HW_CACHE, HWC(ITLB, READ, MISS), PG_HW },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, PG_CLOCK },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, PG_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, PG_SW },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, PG_SW },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, PG_SW },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, PG_SW },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, PG_SCHED },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, PG_SCHED },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, PG_SCHED },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, PG_SCHED },
	{ NULL, 0, 0, 0 },
};

/*
 * The page-walk event of this CPU, from measurement.md: Intel
 * DTLB_LOAD_MISSES.WALK_COMPLETED, AMD Zen L2 DTLB misses (0xf045),
 * arm64 DTLB_WALK (0x34), sparc64 T2/T3 0x0b08. Returns a libpfm4 name
 * or "rHEX", or NULL when unknown.
 */
static const char *walk_alias(const struct sysinfo *si)
{
	if (strcmp(si->cpu_vendor, "GenuineIntel") == 0)
		return "DTLB_LOAD_MISSES:WALK_COMPLETED";
	if (strcmp(si->cpu_vendor, "AuthenticAMD") == 0 && si->family >= 0x17)
		return "rf045";
	if (strcmp(si->arch, "aarch64") == 0)
		return "r34";
	if (strncmp(si->arch, "sparc", 5) == 0)
		return "r0b08";
	return NULL;
}

/* Resolve a libpfm4 name into attr. Returns 0, or a libpfm4 error (PFM_ERR_*, < 0). */
static int pfm_resolve(const char *name, struct perf_event_attr *attr)
{
	static int inited, init_ok;
	pfm_perf_encode_arg_t arg;
	struct perf_event_attr a;

	if (!inited) {
		inited = 1;
		init_ok = pfm_initialize() == PFM_SUCCESS;
	}
	int ret;

	if (!init_ok)
		return PFM_ERR_NOINIT;
	memset(&arg, 0, sizeof(arg));
	memset(&a, 0, sizeof(a));
	arg.attr = &a;
	arg.size = sizeof(arg);
	ret = pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	if (ret == PFM_SUCCESS)
		*attr = a;
	return ret;
}

/* Resolve one name into spec. Returns 0, PFM_ERR_NOTFOUND, or another libpfm4 error. */
static int resolve_one(const char *name, const struct sysinfo *si, struct perf_spec *sp)
{
	const char *alias = NULL;
	int ret;

	memset(sp, 0, sizeof(*sp));
	snprintf(sp->name, sizeof(sp->name), "%s", name);
	sp->attr.size = sizeof(sp->attr);
	for (const struct generic *g = generics; g->name; g++) {
		if (strcmp(g->name, name) == 0) {
			sp->attr.type = g->type;
			sp->attr.config = g->config;
			sp->group = g->group;
			sp->needs_kernel = g->group == PG_SCHED;
			snprintf(sp->source, sizeof(sp->source), "generic");
			return 0;
		}
	}
	if (strcmp(name, "dtlb-walks") == 0) {
		alias = si ? walk_alias(si) : NULL;
		if (!alias)
			return PFM_ERR_NOTFOUND;
		name = alias;
	}
	sp->group = PG_HW;
	if (name[0] == 'r' && name[1] && strspn(name + 1, "0123456789abcdefABCDEF") == strlen(name + 1)) {
		sp->attr.type = PERF_TYPE_RAW;
		sp->attr.config = strtoull(name + 1, NULL, 16);
		snprintf(sp->source, sizeof(sp->source), alias ? "alias:raw" : "raw");
		return 0;
	}
	ret = pfm_resolve(name, &sp->attr);
	if (ret)
		return ret;
	sp->attr.size = sizeof(sp->attr);
	if (sp->attr.type == PERF_TYPE_SOFTWARE) {
		/* libpfm4's perf:: names: group them as their generic twins. */
		switch (sp->attr.config) {
		case PERF_COUNT_SW_TASK_CLOCK:
		case PERF_COUNT_SW_CPU_CLOCK:
			sp->group = PG_CLOCK;
			break;
		case PERF_COUNT_SW_CONTEXT_SWITCHES:
		case PERF_COUNT_SW_CPU_MIGRATIONS:
			sp->group = PG_SCHED;
			sp->needs_kernel = 1;
			break;
		default:
			sp->group = PG_SW;
		}
	}
	snprintf(sp->source, sizeof(sp->source), alias ? "alias:libpfm4" : "libpfm4");
	return 0;
}

/*
 * Split list at top-level commas into tok[], recording for each token the
 * explicit group it is in (0 none, k the k-th {...}). Braces are removed.
 * Returns 0 or EX_USAGE with the reason in err.
 */
static int split_list(char *buf, char **tok, int *ugroup, unsigned *ntok, char *err, size_t errlen)
{
	unsigned k = 0, ngroups = 0, inmemb = 0;
	int in = 0;
	char *p = buf, *start = buf;

	for (;; p++) {
		if (*p == '{') {
			if (in || p != start) {
				snprintf(err, errlen, "--events: '{' must open a group at the start of an "
					 "event, and groups do not nest");
				return EX_USAGE;
			}
			in = 1;
			inmemb = 0;
			ngroups++;
			start = p + 1;
			continue;
		}
		if (*p != ',' && *p != '}' && *p)
			continue;
		if (*p == '}' && !in) {
			snprintf(err, errlen, "--events: '}' without '{'");
			return EX_USAGE;
		}
		if (!*p && in) {
			snprintf(err, errlen, "--events: a group '{' is not closed");
			return EX_USAGE;
		}
		if (p > start) {
			if (k >= EV_MAX) {
				snprintf(err, errlen, "at most %d events", EV_MAX);
				return EX_USAGE;
			}
			tok[k] = start;
			ugroup[k++] = in ? (int)ngroups : 0;
			inmemb += in;
		}
		if (*p == '}') {
			if (!inmemb) {
				snprintf(err, errlen, "--events: an empty group '{}'");
				return EX_USAGE;
			}
			in = 0;
			if (p[1] && p[1] != ',') {
				snprintf(err, errlen, "--events: '%.20s' after a group: group modifiers "
					 "are not supported, separate events with ','", p + 1);
				return EX_USAGE;
			}
		}
		if (!*p)
			break;
		*p = '\0';
		start = p + 1;
	}
	*ntok = k;
	return 0;
}

int perf_resolve(const char *list, const struct sysinfo *si, struct perf_spec *specs,
		 unsigned *n, char *err, size_t errlen)
{
	char buf[2048], *tok[EV_MAX];
	int ugroup[EV_MAX];
	unsigned k, ntok = 0;
	int ret;

	if (strlen(list) >= sizeof(buf)) {
		snprintf(err, errlen, "--events list too long");
		return EX_USAGE;
	}
	snprintf(buf, sizeof(buf), "%s", list);
	ret = split_list(buf, tok, ugroup, &ntok, err, errlen);
	if (ret)
		return ret;
	for (k = 0; k < ntok; k++) {
		if (strlen(tok[k]) >= sizeof(specs[0].name)) {
			snprintf(err, errlen, "event name '%.40s...' too long", tok[k]);
			return EX_USAGE;
		}
		for (unsigned i = 0; i < k; i++) {
			if (strcmp(specs[i].name, tok[k]) == 0) {
				snprintf(err, errlen, "event '%s' given twice", tok[k]);
				return EX_USAGE;
			}
		}
		ret = resolve_one(tok[k], si, &specs[k]);
		if (ret == PFM_ERR_NOTFOUND || ret == PFM_ERR_NOINIT) {
			snprintf(err, errlen, "unknown event '%s': neither a perf generic name nor a "
				 "libpfm4 event for this CPU (list them with: perf list; or "
				 "showevtinfo from libpfm4's examples)", tok[k]);
			return EX_RESOURCE;
		}
		if (ret) {
			snprintf(err, errlen, "event '%s': libpfm4: %s (e.g. give a unit mask: "
				 "EVENT:UMASK)", tok[k], pfm_strerror(ret));
			return EX_USAGE;
		}
		specs[k].ugroup = ugroup[k];
	}
	if (!k) {
		snprintf(err, errlen, "--events is empty");
		return EX_USAGE;
	}
	*n = k;
	return 0;
}

const char *perf_group_text(const char *list, char *out, size_t len)
{
	size_t o = 0;
	int in = 0;

	if (!len)
		return out;
	out[0] = '\0';
	for (const char *p = list; *p && o + 2 < len; p++) {
		if (*p == '{') {
			if (o)
				out[o++] = ' ';
			in = 1;
		}
		if (in)
			out[o++] = *p;
		if (*p == '}')
			in = 0;
	}
	out[o] = '\0';
	return out;
}

void perf_layout(const struct perf_spec *specs, unsigned n, struct perf_groups *out)
{
	int kind_group[PG_NGROUPS], user_group[EV_MAX + 1];

	memset(out, 0, sizeof(*out));
	for (int k = 0; k < PG_NGROUPS; k++)
		kind_group[k] = -1;
	for (unsigned u = 0; u <= EV_MAX; u++)
		user_group[u] = -1;
	for (unsigned i = 0; i < n; i++) {
		int u = specs[i].ugroup, k = specs[i].group, *slot = NULL;
		unsigned g;

		if (u > 0 && u <= EV_MAX)
			slot = &user_group[u];
		else if (k != PG_HW && k >= 0 && k < PG_NGROUPS)
			slot = &kind_group[k];
		if (slot && *slot >= 0) {
			g = (unsigned)*slot;
		} else {
			g = out->n++;
			if (slot)
				*slot = (int)g;
		}
		out->memb[g][out->nmemb[g]++] = i;
	}
}

int perf_classify_errno(int err, int is_hw, int has_core_pmu)
{
	if (err == EACCES || err == EPERM)
		return EV_PERMISSION;
	if (is_hw && !has_core_pmu)
		return EV_NO_PMU;
	return EV_UNSUPPORTED;
}

const char *perf_state_text(int state)
{
	switch (state) {
	case EV_UNSUPPORTED: return "not counted: this CPU or kernel does not support it";
	case EV_PERMISSION: return "not counted: permission denied (perf_event_paranoid or capabilities)";
	case EV_NO_PMU: return "not counted: this machine has no hardware PMU";
	case EV_MULTIPLEXED_OUT: return "not counted: never scheduled on the PMU (multiplexed out)";
	case EV_NOT_MODELLED: return "not counted: the model does not simulate it";
	case EV_READS_ZERO: return "not counted: the PMU opened but counts nothing (cycles or instructions read 0)";
	default: return "counted";
	}
}

static int sys_perf_event_open(struct perf_event_attr *a, int group_fd)
{
	return (int)syscall(SYS_perf_event_open, a, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
}

/* Open spec i with leader fd lead (-1: as a group leader, disabled). */
static int open_one(const struct perf_spec *sp, int lead)
{
	struct perf_event_attr a = sp->attr;

	a.size = sizeof(a);
	a.disabled = lead < 0;
	a.exclude_kernel = !sp->needs_kernel;
	a.exclude_hv = 1;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	return sys_perf_event_open(&a, lead);
}

/* Add spec i as a group of its own to ps; the fd is already open. */
static void add_solo(struct perf_set *ps, unsigned i)
{
	unsigned g = ps->g.n++;

	ps->g.nmemb[g] = 1;
	ps->g.memb[g][0] = i;
}

/*
 * Enable group g alone for a short spin and report whether it was ever
 * scheduled. Every other group of ours is disabled at this point, so a
 * group that does not run now cannot be held by the PMU at all.
 */
static int group_runs(struct perf_set *ps, unsigned g)
{
	uint64_t buf[3 + EV_MAX];
	int fd = ps->fd[ps->g.memb[g][0]];
	volatile unsigned spin = 0;

	ioctl(fd, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	for (unsigned k = 0; k < 200000; k++)
		spin = spin + 1;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	if (read(fd, buf, sizeof(buf)) < (ssize_t)(3 * sizeof(uint64_t)))
		return 1;	/* cannot tell: keep it */
	return !(buf[1] > 0 && buf[2] == 0);
}

/* Does group g of ps hold more than one event, one of them hardware? */
static int hw_multi(const struct perf_set *ps, const struct perf_spec *specs, unsigned g)
{
	if (ps->g.nmemb[g] < 2)
		return 0;
	for (unsigned m = 0; m < ps->g.nmemb[g]; m++)
		if (specs[ps->g.memb[g][m]].group == PG_HW)
			return 1;
	return 0;
}

/* Reopen every member of group g alone (the PMU cannot hold it whole). */
static void split_group(struct perf_set *ps, const struct perf_spec *specs, unsigned g,
			int has_core_pmu)
{
	unsigned memb[EV_MAX], nm = ps->g.nmemb[g];

	memcpy(memb, ps->g.memb[g], nm * sizeof(memb[0]));
	for (unsigned m = nm; m-- > 0;)
		close(ps->fd[memb[m]]);
	/* the first member takes over slot g, the others are appended */
	ps->g.nmemb[g] = 0;
	for (unsigned m = 0; m < nm; m++) {
		unsigned i = memb[m];
		int fd = open_one(&specs[i], -1);

		ps->fd[i] = fd;
		ps->split[i] = 1;
		if (fd < 0) {
			ps->state[i] = perf_classify_errno(errno, specs[i].group == PG_HW, has_core_pmu);
			continue;
		}
		if (!ps->g.nmemb[g]) {
			ps->g.nmemb[g] = 1;
			ps->g.memb[g][0] = i;
		} else {
			add_solo(ps, i);
		}
	}
}

void perf_open(struct perf_set *ps, const struct perf_spec *specs, unsigned n, int has_core_pmu)
{
	struct perf_groups plan;

	memset(ps, 0, sizeof(*ps));
	ps->n = n;
	for (unsigned i = 0; i < EV_MAX; i++)
		ps->fd[i] = -1;
	perf_layout(specs, n, &plan);
	for (unsigned pg = 0; pg < plan.n; pg++) {
		unsigned g = ps->g.n, lead = 0;
		int have_lead = 0;

		for (unsigned m = 0; m < plan.nmemb[pg]; m++) {
			unsigned i = plan.memb[pg][m];
			int fd = open_one(&specs[i], have_lead ? ps->fd[lead] : -1);

			if (fd < 0 && have_lead && (errno == EINVAL || errno == ENOSPC)) {
				/* The kernel will not take it into this group: count it alone. */
				fd = open_one(&specs[i], -1);
				ps->split[i] = fd >= 0;
				ps->split[lead] |= fd >= 0;
				ps->fd[i] = fd;
				if (fd >= 0) {
					ps->state[i] = EV_COUNTED;
					add_solo(ps, i);
					continue;
				}
			}
			ps->fd[i] = fd;
			if (fd < 0) {
				ps->state[i] = perf_classify_errno(errno, specs[i].group == PG_HW, has_core_pmu);
				continue;
			}
			ps->state[i] = EV_COUNTED;
			if (!have_lead) {
				have_lead = 1;
				lead = i;
				g = ps->g.n++;
			}
			ps->g.memb[g][ps->g.nmemb[g]++] = i;
		}
	}
	for (unsigned g = 0, ng = ps->g.n; g < ng; g++)
		if (hw_multi(ps, specs, g) && !group_runs(ps, g))
			split_group(ps, specs, g, has_core_pmu);
}

/* Apply ioctl op to every group leader. */
static void each_leader(struct perf_set *ps, unsigned long op)
{
	for (unsigned g = 0; g < ps->g.n; g++)
		ioctl(ps->fd[ps->g.memb[g][0]], op, PERF_IOC_FLAG_GROUP);
}

void perf_enable(struct perf_set *ps)
{
	each_leader(ps, PERF_EVENT_IOC_RESET);
	each_leader(ps, PERF_EVENT_IOC_ENABLE);
}

void perf_disable(struct perf_set *ps)
{
	each_leader(ps, PERF_EVENT_IOC_DISABLE);
}

void perf_scale(struct ev_value *out, uint64_t raw, uint64_t en, uint64_t run)
{
	out->raw = raw;
	out->enabled = en;
	out->running = run;
	if (run == 0) {
		out->state = EV_MULTIPLEXED_OUT;
		out->value = 0;
		return;
	}
	out->state = EV_COUNTED;
	out->value = run >= en ? (double)raw : (double)raw * (double)en / (double)run;
}

void perf_read(struct perf_set *ps, struct ev_value *out)
{
	uint64_t buf[3 + EV_MAX];

	for (unsigned i = 0; i < ps->n; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].state = ps->state[i];
	}
	for (unsigned g = 0; g < ps->g.n; g++) {
		unsigned nm = ps->g.nmemb[g];
		ssize_t want = (ssize_t)((3 + nm) * sizeof(uint64_t));

		if (read(ps->fd[ps->g.memb[g][0]], buf, sizeof(buf)) < want || buf[0] != nm) {
			for (unsigned m = 0; m < nm; m++)
				out[ps->g.memb[g][m]].state = EV_UNSUPPORTED;
			continue;
		}
		for (unsigned m = 0; m < nm; m++)
			perf_scale(&out[ps->g.memb[g][m]], buf[3 + m], buf[1], buf[2]);
	}
}

/* Can this event not read 0 over a window in which the task ran user code? */
static int is_canary(const struct perf_spec *sp)
{
	if (sp->attr.type != PERF_TYPE_HARDWARE)
		return 0;
	return sp->attr.config == PERF_COUNT_HW_CPU_CYCLES ||
	       sp->attr.config == PERF_COUNT_HW_INSTRUCTIONS ||
	       sp->attr.config == PERF_COUNT_HW_REF_CPU_CYCLES;
}

int perf_check_dead(const struct perf_spec *specs, struct ev_value *ev, unsigned n)
{
	int zero_whole = 0, counted = 0;

	for (unsigned i = 0; i < n; i++) {
		if (!is_canary(&specs[i]) || ev[i].state != EV_COUNTED)
			continue;
		if (ev[i].raw > 0)
			counted = 1;
		else if (ev[i].running > 0 && ev[i].running >= ev[i].enabled)
			zero_whole = 1;
	}
	if (counted || !zero_whole)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		if (specs[i].group != PG_HW || ev[i].state != EV_COUNTED || ev[i].raw != 0)
			continue;
		ev[i].state = EV_READS_ZERO;
		ev[i].value = 0;
	}
	return 1;
}

void perf_close(struct perf_set *ps)
{
	for (unsigned i = 0; i < ps->n; i++) {
		if (ps->fd[i] >= 0)
			close(ps->fd[i]);
		ps->fd[i] = -1;
	}
}
