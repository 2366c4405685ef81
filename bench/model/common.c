/* common.c - page sizes, checks, a run's accesses and placement, shared by both simulators
 * (the --tlb parser is tlbspec.c). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/model.h"

static const struct {
	const char *name;
	uint64_t bytes;
} psz_tab[PSZ_N] = {
	[PSZ_4K] = { "4k", 4ull << 10 },	[PSZ_8K] = { "8k", 8ull << 10 },
	[PSZ_16K] = { "16k", 16ull << 10 },	[PSZ_64K] = { "64k", 64ull << 10 },
	[PSZ_512K] = { "512k", 512ull << 10 },	[PSZ_2M] = { "2m", 2ull << 20 },
	[PSZ_4M] = { "4m", 4ull << 20 },	[PSZ_32M] = { "32m", 32ull << 20 },
	[PSZ_256M] = { "256m", 256ull << 20 },	[PSZ_512M] = { "512m", 512ull << 20 },
	[PSZ_1G] = { "1g", 1ull << 30 },	[PSZ_2G] = { "2g", 2ull << 30 },
	[PSZ_16G] = { "16g", 16ull << 30 },
};

uint64_t model_psz_bytes(unsigned psz)
{
	return psz < PSZ_N ? psz_tab[psz].bytes : 0;
}

const char *model_psz_name(unsigned psz)
{
	return psz < PSZ_N ? psz_tab[psz].name : "?";
}

int model_psz_parse(const char *s, unsigned *psz)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);

	if (end == s)
		return -EINVAL;
	switch (tolower((unsigned char)*end)) {
	case 'k': v <<= 10; end++; break;
	case 'm': v <<= 20; end++; break;
	case 'g': v <<= 30; end++; break;
	default: break;
	}
	if (*end == 'b' || *end == 'B')
		end++;
	if (*end)
		return -EINVAL;
	for (unsigned i = 0; i < PSZ_N; i++) {
		if (psz_tab[i].bytes == v) {
			*psz = i;
			return 0;
		}
	}
	return -EINVAL;
}

char *model_psz_mask_str(unsigned mask, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < PSZ_N; i++)
		if (mask & (1u << i))
			n += snprintf(buf + n, n < len ? len - n : 0, "%s%s", n ? "+" : "",
				      psz_tab[i].name);
	return buf;
}

unsigned model_held_shift(const struct model_level *lv, unsigned psz)
{
	unsigned shift = 0;

	if (psz >= PSZ_N || !lv->held_as[psz])
		return 0;
	for (uint64_t r = model_psz_bytes(psz) / model_psz_bytes(lv->held_as[psz] - 1u); r > 1; r >>= 1)
		shift++;
	return shift;
}

unsigned model_words_shift(const struct model_machine *m, const struct model_run *r)
{
	if (r->words <= 1)
		return 0;
	for (unsigned k = 0; k < m->nlevels; k++)
		if (m->level[k].psz_mask & (1u << r->psz))
			return model_held_shift(&m->level[k], r->psz);
	return 0;
}

uint64_t model_round_accesses(const struct model_run *r)
{
	return r->pages * (r->words > 1 ? r->words : 1);
}

uint64_t model_heap_before(const struct model_run *r, uint64_t j)
{
	if (!r->heap_pages)
		return 0;
	return (uint64_t)((__uint128_t)j * r->heap_share / (100 - r->heap_share));
}

uint64_t model_heap_accesses(const struct model_run *r)
{
	return model_heap_before(r, model_round_accesses(r) * r->rounds);
}

uint64_t model_task_accesses(const struct model_run *r)
{
	return r->startup + model_round_accesses(r) * r->rounds + model_heap_accesses(r);
}

struct wl_params model_heap_params(const struct model_run *r, unsigned i)
{
	uint64_t n = model_heap_accesses(r);

	return (struct wl_params){ .pages = r->heap_pages, .rounds = n ? (n + r->heap_pages - 1) / r->heap_pages : 1,
				   .seed = r->seed ^ 0x68656170ull /* "heap" */, .task = i,
				   .ntasks = r->ntasks, .args = &r->wl };
}

/*
 * The heap's settings against m: a share of 1..99 percent, a page size a
 * level holds, a page count below MODEL_MAX_HEAP_PAGES, and, for the fast
 * simulator, at most MODEL_LEVELS level partitions probed by the two
 * areas together. Returns 0, or -EINVAL with the reason in err.
 */
static int heap_check(const struct model_machine *m, const struct model_run *r, char *err, size_t errlen)
{
	unsigned held = 0, parts = 0;

	if (!r->heap_pages)
		return 0;
	if (r->heap_share < 1 || r->heap_share > 99 || r->heap_pages >= MODEL_MAX_HEAP_PAGES ||
	    model_heap_base(r, r->ntasks) > MODEL_MAX_HEAP_PAGES ||
	    r->heap_psz >= PSZ_N || r->startup > MODEL_HEAP_PAGE0 - MODEL_STARTUP_PAGE0 ||
	    model_round_accesses(r) * r->rounds > UINT64_MAX >> 8) {
		snprintf(err, errlen, "heap: a share of 1..99 percent, fewer than %llu pages (all threads' "
			 "together), at most 2^30 start-up pages and 2^56 accesses of the area",
			 (unsigned long long)MODEL_MAX_HEAP_PAGES);
		return -EINVAL;
	}
	for (unsigned k = 0; k < m->nlevels; k++) {
		const struct model_level *lv = &m->level[k];
		int a0 = !!(lv->psz_mask & (1u << r->psz)), a1 = !!(lv->psz_mask & (1u << r->heap_psz));

		held |= (unsigned)a1;
		/* one fast level per partition each area takes */
		parts += (a0 || a1) + (a0 && a1 && model_level_parted(lv) &&
				       model_entry_psz(lv, r->psz) != model_entry_psz(lv, r->heap_psz));
	}
	if (!held) {
		snprintf(err, errlen, "no TLB level of '%s' holds the heap's %s pages", m->name,
			 model_psz_name(r->heap_psz));
		return -EINVAL;
	}
	if (parts > MODEL_LEVELS) {
		snprintf(err, errlen, "the two page sizes take %u level partitions, more than %d", parts,
			 MODEL_LEVELS);
		return -EINVAL;
	}
	return 0;
}

/* With several words per page, the levels that hold r's page size must
 * hold it alike (whole, or as entries of one size): 1 and -EINVAL's
 * reason in err if not. */
static int words_levels_differ(const struct model_machine *m, const struct model_run *r, char *err,
			       size_t errlen)
{
	unsigned shift = model_words_shift(m, r);

	for (unsigned k = 0; k < m->nlevels; k++) {
		if (!(m->level[k].psz_mask & (1u << r->psz)) || model_held_shift(&m->level[k], r->psz) == shift)
			continue;
		snprintf(err, errlen, "--words %u: the levels of '%s' hold %s pages as entries of different "
			 "sizes ('%s' differs from the first): the fast simulator finds an access's entry in "
			 "every level by one key, and a word would need one key per entry size",
			 r->words, m->name, model_psz_name(r->psz), m->level[k].name);
		return 1;
	}
	return 0;
}

int model_check(const struct model_machine *m, const struct model_run *r, char *err, size_t errlen)
{
	int usable = 0;

	if (!m->nlevels || m->nlevels > MODEL_LEVELS) {
		snprintf(err, errlen, "the machine has no TLB levels");
		return -EINVAL;
	}
	for (unsigned i = 0; i < m->nlevels; i++) {
		const struct model_level *lv = &m->level[i];

		if (lv->psz_mask & (1u << r->psz))
			usable = 1;
		for (unsigned k = 0; k < i; k++) {
			if (strcmp(m->level[k].name, lv->name) == 0) {
				snprintf(err, errlen, "two levels are named '%s'", lv->name);
				return -EINVAL;
			}
		}
		if (!lv->entries || (lv->ways ? lv->ways : lv->entries) > 65535 || lv->ways > lv->entries) {
			snprintf(err, errlen, "level '%s': bad geometry (at most 65535 ways)", lv->name);
			return -EINVAL;
		}
		if (model_check_part(lv, err, errlen))
			return -EINVAL;
	}
	if (!usable) {
		snprintf(err, errlen, "no TLB level of '%s' holds %s pages", m->name,
			 model_psz_name(r->psz));
		return -EINVAL;
	}
	if (!m->cores || !m->strands) {
		snprintf(err, errlen, "the machine has no cores or strands");
		return -EINVAL;
	}
	if (!r->ops || r->ntasks < 1 || r->ntasks > MODEL_MAX_TASKS) {
		snprintf(err, errlen, "tasks must be 1..%d", MODEL_MAX_TASKS);
		return -EINVAL;
	}
	if (r->words > MODEL_MAX_WORDS || (r->words & (r->words - 1))) {
		snprintf(err, errlen, "words per page must be a power of two up to %d", MODEL_MAX_WORDS);
		return -EINVAL;
	}
	if (r->words > 1 && words_levels_differ(m, r, err, errlen))
		return -EINVAL;
	if (r->pages < 1 || (r->pages << model_words_shift(m, r)) >= MODEL_STARTUP_PAGE0 ||
	    r->startup >= MODEL_STARTUP_PAGE0 || r->rounds < 1 ||
	    r->rounds > (UINT64_MAX >> 1) / model_round_accesses(r)) {
		snprintf(err, errlen, "working set or rounds out of range");
		return -EINVAL;
	}
	if (heap_check(m, r, err, errlen))
		return -EINVAL;
	if ((uint64_t)r->jitter * m->strands > (1u << 24)) {
		snprintf(err, errlen, "jitter times strands per core must be at most %u", 1u << 24);
		return -EINVAL;
	}
	if (r->quantum < 1) {
		snprintf(err, errlen, "quantum must be at least 1");
		return -EINVAL;
	}
	return 0;
}

void model_place_tasks(const struct model_machine *m, const struct model_run *r,
		       unsigned *core, unsigned *strand)
{
	unsigned s = r->strands && r->strands < m->strands ? r->strands : m->strands;

	for (unsigned i = 0; i < r->ntasks; i++) {
		switch (r->place) {
		case MPLACE_SPREAD:
			core[i] = i % m->cores;
			strand[i] = (i / m->cores) % s;
			break;
		case MPLACE_SAME_CPU:
			core[i] = 0;
			strand[i] = 0;
			break;
		default:
			core[i] = (i / s) % m->cores;
			strand[i] = i % s;
			break;
		}
	}
}

void model_stats_free(struct model_stats *st)
{
	free(st->task);
	st->task = NULL;
	st->ntasks = 0;
}

uint64_t model_total_walks(const struct model_stats *st)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < st->ntasks; i++)
		n += st->task[i].walks;
	return n;
}

uint64_t model_total_accesses(const struct model_stats *st)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < st->ntasks; i++)
		n += st->task[i].accesses;
	return n;
}

double model_est_cycles(const struct model_machine *m, const struct model_task *t)
{
	double c = (double)t->walks * m->walk_cycles;

	for (unsigned i = 0; i < m->nlevels; i++)
		c += (double)t->probes[i] * m->level[i].hit_cycles;
	return c;
}

char *model_costs_str(const struct model_machine *m, char *buf, size_t len)
{
	int n = snprintf(buf, len, "walk %g cycles", m->walk_cycles);

	for (unsigned i = 0; i < m->nlevels && n >= 0 && (size_t)n < len; i++)
		if (m->level[i].hit_cycles > 0)
			n += snprintf(buf + n, len - (size_t)n, ", %s lookup %g cycles", m->level[i].name,
				      m->level[i].hit_cycles);
	if (n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ", %g GHz", m->ghz);
	return buf;
}

unsigned *model_schedule(const struct model_run *r, unsigned core, unsigned n, unsigned *len)
{
	unsigned per = r->jitter ? r->jitter : 1, l = n * per, *s;
	struct rng rng;

	s = malloc((l ? l : 1) * sizeof(*s));
	if (!s)
		return NULL;
	for (unsigned i = 0; i < l; i++)
		s[i] = i % n;
	if (r->jitter) {
		rng_seed(&rng, r->seed, 0x5c4ed00 + (uint64_t)core);
		for (unsigned i = l - 1; i > 0; i--) {
			unsigned j = (unsigned)rng_below(&rng, (uint64_t)i + 1), t = s[i];

			s[i] = s[j];
			s[j] = t;
		}
	}
	*len = l;
	return s;
}

void model_count_levels(const struct model_machine *m, unsigned psz, int *l1, int *l2)
{
	*l1 = *l2 = -1;
	for (unsigned k = 0; k < m->nlevels; k++) {
		if (!(m->level[k].psz_mask & (1u << psz)))
			continue;
		if (*l1 < 0) {
			*l1 = (int)k;
		} else {
			*l2 = (int)k;
			return;
		}
	}
}

/* What c counts of a task's (or one area's) accesses, misses per level and
 * walks, with l1 and l2 the levels model_count_levels() names. */
static int count_pick(int c, int l1, int l2, uint64_t accesses, const uint64_t *misses, uint64_t walks,
		      uint64_t *n)
{
	switch (c) {
	case MC_ACCESSES:
		*n = accesses;
		return 0;
	case MC_L1_MISSES:
		if (l1 < 0)
			return -ENOENT;
		*n = misses[l1];
		return 0;
	case MC_L2_MISSES:
		if (l2 < 0)
			return -ENOENT;
		*n = misses[l2];
		return 0;
	case MC_WALKS:
		*n = walks;
		return 0;
	default:
		return -ENOENT;
	}
}

int model_count_of(const struct model_machine *m, const struct model_run *r, const struct model_task *t,
		   int c, uint64_t *n)
{
	int l1, l2;

	if (r->heap_pages) {
		uint64_t sum = 0, one;

		/* Each area counted at the levels that hold its page size. */
		for (unsigned a = 0; a < MODEL_AREAS; a++) {
			model_count_levels(m, model_area_psz(r, a), &l1, &l2);
			if (count_pick(c, l1, l2, t->area_accesses[a], t->area_misses[a], t->area_walks[a], &one))
				return -ENOENT;
			sum += one;
		}
		*n = sum;
		return 0;
	}
	model_count_levels(m, r->psz, &l1, &l2);
	return count_pick(c, l1, l2, t->accesses, t->misses, t->walks, n);
}
