/* tlbspec.c - the --tlb description of levels: parsed into a machine, and written back. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/metrics.h"
#include "model/model.h"

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

/*
 * Parse "4k:8+2m:2" into lv's part: ways of each set reserved for entries
 * of that size. -EINVAL on a bad word or a size twice.
 */
static int parse_part(const char *s, struct model_level *lv)
{
	char buf[96], *save = NULL, *e;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", s);
	memset(lv->part, 0, sizeof(lv->part));
	for (char *w = strtok_r(buf, "+/", &save); w; w = strtok_r(NULL, "+/", &save)) {
		char *colon = strchr(w, ':');
		unsigned psz;
		unsigned long v;

		if (!colon)
			return -EINVAL;
		*colon = '\0';
		v = strtoul(colon + 1, &e, 10);
		if (model_psz_parse(w, &psz) || *e || v < 1 || v > 255 || lv->part[psz])
			return -EINVAL;
		lv->part[psz] = (unsigned char)v;
	}
	return model_level_parted(lv) ? 0 : -EINVAL;
}

int model_check_part(const struct model_level *lv, char *err, size_t errlen)
{
	unsigned ways = lv->ways ? lv->ways : lv->entries, sum = 0, want = 0;

	if (!model_level_parted(lv))
		return 0;
	for (unsigned p = 0; p < PSZ_N; p++)
		if (lv->psz_mask & (1u << p))
			want |= 1u << model_entry_psz(lv, p);
	for (unsigned p = 0; p < PSZ_N; p++) {
		sum += lv->part[p];
		if (!!lv->part[p] == !!(want & (1u << p)))
			continue;
		snprintf(err, errlen, "level '%s': part= must give ways to each entry size it holds and no "
			 "other (%s %s)", lv->name, model_psz_name(p), lv->part[p] ? "is not held" : "has none");
		return -EINVAL;
	}
	if (sum > ways) {
		snprintf(err, errlen, "level '%s': part= gives %u ways, more than its %u", lv->name, sum, ways);
		return -EINVAL;
	}
	return 0;
}

#define LEVEL_GRAMMAR "NAME:ENTRIES[,full|Nway][,lru|nru|random][,ps=4k+2m+1g>2m][,part=4k:8+2m:2]" \
	"[,index=mod|hash][,hit=N]"

/* Whether c may be in a level's name (metric_level_name_char). */
static int name_char(char c)
{
	return metric_level_name_char(c);
}

/*
 * Parse one "name:entries[,assoc][,repl][,ps=..][,part=..][,index=..][,hit=N]"
 * into lv: the associativity defaults to full, the replacement to lru;
 * each field at most once. An error names the field.
 */
static int parse_level(const char *s, size_t l, struct model_level *lv, char *err, size_t errlen)
{
	const char *colon = memchr(s, ':', l), *p, *end = s + l, *why = "";
	unsigned seen = 0;
	int field = 0;
	char f[96] = "";

	memset(lv, 0, sizeof(*lv));
	lv->psz_mask = (1u << PSZ_N) - 1;
	lv->repl = REPL_LRU;
	if (!colon || colon == s || (size_t)(colon - s) >= sizeof(lv->name)) {
		snprintf(err, errlen, "'%.*s': expected " LEVEL_GRAMMAR, (int)l, s);
		return -EINVAL;
	}
	for (const char *c = s; c < colon; c++)
		if (!name_char(*c)) {
			snprintf(err, errlen, "'%.*s': a level's name is letters, digits, '-', '_' and '.'",
				 (int)(colon - s), s);
			return -EINVAL;
		}
	memcpy(lv->name, s, colon - s);
	for (p = colon + 1; p < end; field++) {
		const char *q = memchr(p, ',', end - p);
		size_t fl = q ? (size_t)(q - p) : (size_t)(end - p);
		unsigned kind;
		char *e;

		if (fl == 0 || fl >= sizeof(f)) {
			snprintf(f, sizeof(f), "%.*s", (int)(fl < 40 ? fl : 40), p);
			why = fl ? "too long" : "empty";
			goto bad;
		}
		memcpy(f, p, fl);
		f[fl] = '\0';
		if (field == 0) {
			unsigned long v = strtoul(f, &e, 10);

			why = "the entries: a count from 1 to 1048576";
			if (*e || v < 1 || v > 1u << 20 || !isdigit((unsigned char)f[0]))
				goto bad;
			lv->entries = (unsigned)v;
			kind = 0;
		} else if (strcmp(f, "full") == 0) {
			lv->ways = 0;
			kind = 1;
		} else if (isdigit((unsigned char)f[0]) && strstr(f, "way")) {
			unsigned long v = strtoul(f, &e, 10);

			why = "the ways: Nway, N from 1";
			if (strcmp(e, "way") || v < 1 || v > 1u << 20)
				goto bad;
			lv->ways = (unsigned)v;
			kind = 1;
		} else if (strcmp(f, "lru") == 0 || strcmp(f, "nru") == 0 ||
			   strcmp(f, "random") == 0) {
			lv->repl = f[0] == 'l' ? REPL_LRU : f[0] == 'n' ? REPL_NRU : REPL_RANDOM;
			kind = 2;
		} else if (strncmp(f, "ps=", 3) == 0) {
			why = "page sizes joined by + (4k, 8k, 16k, 64k, 512k, 2m, 4m, 32m, 256m, 512m, 1g, 2g, "
			      "16g), a larger one held as a smaller with >";
			if (parse_psz_list(f + 3, strlen(f + 3), lv))
				goto bad;
			kind = 3;
		} else if (strncmp(f, "part=", 5) == 0) {
			why = "ways per page size, SIZE:WAYS joined by +";
			if (parse_part(f + 5, lv))
				goto bad;
			kind = 4;
		} else if (strncmp(f, "index=", 6) == 0) {
			why = "the set index: index=mod or index=hash";
			if (strcmp(f + 6, "hash") && strcmp(f + 6, "mod"))
				goto bad;
			lv->hashed = f[6] == 'h';
			kind = 5;
		} else if (strncmp(f, "hit=", 4) == 0) {
			why = "cycles of a hit, a number from 0";
			lv->hit_cycles = strtod(f + 4, &e);
			if (!f[4] || *e || !(lv->hit_cycles >= 0) || lv->hit_cycles > 1e6)
				goto bad;
			kind = 6;
		} else {
			why = "not a field (the lowercase words of the grammar)";
			goto bad;
		}
		if (seen & (1u << kind)) {
			why = "given twice (each field at most once)";
			goto bad;
		}
		seen |= 1u << kind;
		p += fl + 1;
	}
	if (end[-1] == ',') {
		/* a trailing ',' is an empty last field, as ",," is one inside */
		f[0] = '\0';
		why = "empty";
		goto bad;
	}
	if (!lv->entries) {
		snprintf(f, sizeof(f), "%s", lv->name);
		why = "no entries";
		goto bad;
	}
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
	return model_check_part(lv, err, errlen);
bad:
	snprintf(err, errlen, "'%.*s': '%s': %s; a level is " LEVEL_GRAMMAR, (int)l, s, f, why);
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
		if (l == 0 || (semi && !semi[1])) {
			snprintf(err, errlen, "'%s': an empty level (levels are joined by one ';')", spec);
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

const char *model_level_org(const struct model_level *lv, char *buf, size_t len)
{
	size_t n;

	if (!model_level_parted(lv) && model_level_modelled(lv) == lv->entries)
		return NULL;
	n = (size_t)snprintf(buf, len, "%u sets x %u ways", model_level_sets(lv), lv->ways ? lv->ways : lv->entries);
	for (unsigned p = 0, first = 1; p < PSZ_N; p++) {
		if (!lv->part[p])
			continue;
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%u for %s", first ? " (" : ", ", lv->part[p],
				      model_psz_name(p));
		first = 0;
	}
	snprintf(buf + n, n < len ? len - n : 0, "%s, %u of its %u entries modelled", model_level_parted(lv) ? ")" : "",
		 model_level_modelled(lv), lv->entries);
	return buf;
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
		for (unsigned p = 0, first = 1; p < PSZ_N; p++) {
			if (!lv->part[p])
				continue;
			n += snprintf(buf + n, n < len ? len - n : 0, "%s%s:%u", first ? ",part=" : "+",
				      model_psz_name(p), lv->part[p]);
			first = 0;
		}
		if (lv->hashed)
			n += snprintf(buf + n, n < len ? len - n : 0, ",index=hash");
		if (lv->hit_cycles > 0)
			n += snprintf(buf + n, n < len ? len - n : 0, ",hit=%g", lv->hit_cycles);
	}
	return buf;
}

