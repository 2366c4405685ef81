/* common.c - page sizes, the --tlb parser, checks and placement shared by both simulators. */
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

/*
 * Parse "4k+2m+1g>2m" (also with '/' as separator) into lv's mask and
 * held_as: "1g>2m" is a 1 GiB page held as a 2 MiB entry, which must be
 * smaller and divide it.
 */
static int parse_psz_list(const char *s, size_t l, struct model_level *lv)
{
	char word[16], *gt;
	size_t i = 0;

	lv->psz_mask = 0;
	memset(lv->held_as, 0, sizeof(lv->held_as));
	while (i < l) {
		size_t j = i;
		unsigned psz, as;

		while (j < l && s[j] != '+' && s[j] != '/')
			j++;
		if (j - i == 0 || j - i >= sizeof(word))
			return -EINVAL;
		memcpy(word, s + i, j - i);
		word[j - i] = '\0';
		gt = strchr(word, '>');
		if (gt)
			*gt++ = '\0';
		if (model_psz_parse(word, &psz))
			return -EINVAL;
		if (gt) {
			if (model_psz_parse(gt, &as) || model_psz_bytes(as) >= model_psz_bytes(psz) ||
			    model_psz_bytes(psz) % model_psz_bytes(as))
				return -EINVAL;
			lv->held_as[psz] = (unsigned char)(as + 1);
		}
		lv->psz_mask |= 1u << psz;
		i = j + 1;
	}
	return lv->psz_mask ? 0 : -EINVAL;
}

/* Parse one "name:entries,assoc,repl[,ps=..][,hit=N]" into lv. */
static int parse_level(const char *s, size_t l, struct model_level *lv, char *err, size_t errlen)
{
	const char *colon = memchr(s, ':', l), *p, *end = s + l;
	int field = 0;

	memset(lv, 0, sizeof(*lv));
	lv->psz_mask = (1u << PSZ_N) - 1;
	lv->repl = REPL_LRU;
	if (!colon || colon == s || (size_t)(colon - s) >= sizeof(lv->name)) {
		snprintf(err, errlen, "'%.*s': expected NAME:ENTRIES,ASSOC,REPLACEMENT", (int)l, s);
		return -EINVAL;
	}
	memcpy(lv->name, s, colon - s);
	for (p = colon + 1; p < end; field++) {
		const char *q = memchr(p, ',', end - p);
		size_t fl = q ? (size_t)(q - p) : (size_t)(end - p);
		char f[48];
		char *e;

		if (fl == 0 || fl >= sizeof(f))
			goto bad;
		memcpy(f, p, fl);
		f[fl] = '\0';
		if (field == 0) {
			unsigned long v = strtoul(f, &e, 10);

			if (*e || v < 1 || v > 1u << 20)
				goto bad;
			lv->entries = (unsigned)v;
		} else if (strcmp(f, "full") == 0) {
			lv->ways = 0;
		} else if (isdigit((unsigned char)f[0]) && strstr(f, "way")) {
			unsigned long v = strtoul(f, &e, 10);

			if (strcmp(e, "way") || v < 1)
				goto bad;
			lv->ways = (unsigned)v;
		} else if (strcmp(f, "lru") == 0 || strcmp(f, "nru") == 0 ||
			   strcmp(f, "random") == 0) {
			lv->repl = f[0] == 'l' ? REPL_LRU : f[0] == 'n' ? REPL_NRU : REPL_RANDOM;
		} else if (strncmp(f, "ps=", 3) == 0) {
			if (parse_psz_list(f + 3, strlen(f + 3), lv))
				goto bad;
		} else if (strcmp(f, "index=hash") == 0 || strcmp(f, "index=mod") == 0) {
			lv->hashed = f[6] == 'h';
		} else if (strncmp(f, "hit=", 4) == 0) {
			lv->hit_cycles = strtod(f + 4, &e);
			if (*e || lv->hit_cycles < 0)
				goto bad;
		} else {
			goto bad;
		}
		p += fl + 1;
	}
	if (!lv->entries)
		goto bad;
	/* entries not a multiple of the ways: floor(entries / ways) sets
	 * (model_level_sets()), the remainder not modelled */
	if (lv->ways > lv->entries) {
		snprintf(err, errlen, "level '%s': %u ways exceed its %u entries", lv->name, lv->ways,
			 lv->entries);
		return -EINVAL;
	}
	if (lv->ways == lv->entries)
		lv->ways = 0;
	if (lv->hashed && !lv->ways) {
		snprintf(err, errlen, "level '%s': index=hash needs sets: a fully associative level has one",
			 lv->name);
		return -EINVAL;
	}
	return 0;
bad:
	snprintf(err, errlen, "'%.*s': expected NAME:ENTRIES,full|Nway,lru|nru|random[,ps=4k+2m+1g>2m][,index=mod|hash][,hit=N]",
		 (int)l, s);
	return -EINVAL;
}

int model_parse_tlb(const char *spec, struct model_machine *m, char *err, size_t errlen)
{
	const char *p = spec;
	unsigned n = 0;

	while (*p) {
		const char *semi = strchr(p, ';');
		size_t l = semi ? (size_t)(semi - p) : strlen(p);

		if (n == MODEL_LEVELS) {
			snprintf(err, errlen, "at most %d TLB levels", MODEL_LEVELS);
			return -EINVAL;
		}
		if (parse_level(p, l, &m->level[n], err, errlen))
			return -EINVAL;
		n++;
		p += l + (semi ? 1 : 0);
	}
	if (!n) {
		snprintf(err, errlen, "empty TLB description");
		return -EINVAL;
	}
	m->nlevels = n;
	return 0;
}

char *model_tlb_str(const struct model_machine *m, char *buf, size_t len)
{
	static const char *const repl[] = { "lru", "nru", "random" };
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < m->nlevels; i++) {
		const struct model_level *lv = &m->level[i];
		char ways[16], ps[96];
		unsigned whole = lv->psz_mask;

		if (lv->ways)
			snprintf(ways, sizeof(ways), "%uway", lv->ways);
		else
			snprintf(ways, sizeof(ways), "full");
		for (unsigned p = 0; p < PSZ_N; p++)
			if (lv->held_as[p])
				whole &= ~(1u << p);
		n += snprintf(buf + n, n < len ? len - n : 0, "%s%s:%u,%s,%s,ps=%s", i ? ";" : "",
			      lv->name, lv->entries, ways, repl[lv->repl],
			      model_psz_mask_str(whole, ps, sizeof(ps)));
		/* sizes held as smaller entries: "+1g>2m" */
		for (unsigned p = 0; p < PSZ_N; p++) {
			if (!lv->held_as[p] || !(lv->psz_mask & (1u << p)))
				continue;
			n += snprintf(buf + n, n < len ? len - n : 0, "%s%s>%s", whole ? "+" : "",
				      model_psz_name(p), model_psz_name(lv->held_as[p] - 1u));
			whole = 1;	/* a separator before the next */
		}
		if (lv->hashed)
			n += snprintf(buf + n, n < len ? len - n : 0, ",index=hash");
		if (lv->hit_cycles > 0)
			n += snprintf(buf + n, n < len ? len - n : 0, ",hit=%g", lv->hit_cycles);
	}
	return buf;
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

uint64_t model_task_accesses(const struct model_run *r)
{
	return r->startup + model_round_accesses(r) * r->rounds;
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
			 "sizes ('%s' differs from the first), which one key per access cannot follow",
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

int model_count_of(const struct model_machine *m, unsigned psz, const struct model_task *t,
		   int c, uint64_t *n)
{
	int l1, l2;

	model_count_levels(m, psz, &l1, &l2);
	switch (c) {
	case MC_ACCESSES:
		*n = t->accesses;
		return 0;
	case MC_L1_MISSES:
		if (l1 < 0)
			return -ENOENT;
		*n = t->misses[l1];
		return 0;
	case MC_L2_MISSES:
		if (l2 < 0)
			return -ENOENT;
		*n = t->misses[l2];
		return 0;
	case MC_WALKS:
		*n = t->walks;
		return 0;
	default:
		return -ENOENT;
	}
}
