/*
 * perf_resolve.c - event names into perf_event_attr (perf's generic names,
 * raw codes, libpfm4 names, the dtlb-walks alias), the --events list with
 * its explicit {a,b} groups, and the group layout perf_open follows.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

const char *perf_generic_name(unsigned i)
{
	return i < sizeof(generics) / sizeof(generics[0]) ? generics[i].name : NULL;
}

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
 * Returns 0 or -EINVAL with the reason in err.
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
				return -EINVAL;
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
			return -EINVAL;
		}
		if (!*p && in) {
			snprintf(err, errlen, "--events: a group '{' is not closed");
			return -EINVAL;
		}
		if (p > start) {
			if (k >= EV_MAX) {
				snprintf(err, errlen, "at most %d events", EV_MAX);
				return -EINVAL;
			}
			tok[k] = start;
			ugroup[k++] = in ? (int)ngroups : 0;
			inmemb += in;
		}
		if (*p == '}') {
			if (!inmemb) {
				snprintf(err, errlen, "--events: an empty group '{}'");
				return -EINVAL;
			}
			in = 0;
			if (p[1] && p[1] != ',') {
				snprintf(err, errlen, "--events: '%.20s' after a group: group modifiers "
					 "are not supported, separate events with ','", p + 1);
				return -EINVAL;
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
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "%s", list);
	ret = split_list(buf, tok, ugroup, &ntok, err, errlen);
	if (ret)
		return ret;
	for (k = 0; k < ntok; k++) {
		if (strlen(tok[k]) >= sizeof(specs[0].name)) {
			snprintf(err, errlen, "event name '%.40s...' too long", tok[k]);
			return -EINVAL;
		}
		for (unsigned i = 0; i < k; i++) {
			if (strcmp(specs[i].name, tok[k]) == 0) {
				snprintf(err, errlen, "event '%s' given twice", tok[k]);
				return -EINVAL;
			}
		}
		ret = resolve_one(tok[k], si, &specs[k]);
		if (ret == PFM_ERR_NOTFOUND || ret == PFM_ERR_NOINIT) {
			snprintf(err, errlen, "unknown event '%s': neither a perf generic name nor a "
				 "libpfm4 event for this CPU (list them with: perf list; or "
				 "showevtinfo from libpfm4's examples)", tok[k]);
			return -ENOENT;
		}
		if (ret) {
			snprintf(err, errlen, "event '%s': libpfm4: %s (e.g. give a unit mask: "
				 "EVENT:UMASK)", tok[k], pfm_strerror(ret));
			return -EINVAL;
		}
		specs[k].ugroup = ugroup[k];
	}
	if (!k) {
		snprintf(err, errlen, "--events is empty");
		return -EINVAL;
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
