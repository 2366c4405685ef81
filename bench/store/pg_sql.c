/*
 * store/pg_sql.c - rewrite the store's SQL (written for both engines, see
 * stmt.h) into PostgreSQL's dialect, word by word, outside string
 * literals and quoted names.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "store/pg.h"

/* The output being built. */
struct out {
	char *buf;
	size_t n, cap;
};

/* Append len bytes of s; returns 0 or -1 when out of memory. */
static int put(struct out *o, const char *s, size_t len)
{
	if (o->n + len + 1 > o->cap) {
		size_t cap = (o->n + len + 1) * 2;
		char *nb = realloc(o->buf, cap);

		if (!nb)
			return -1;
		o->buf = nb;
		o->cap = cap;
	}
	memcpy(o->buf + o->n, s, len);
	o->n += len;
	o->buf[o->n] = '\0';
	return 0;
}

static int puts_(struct out *o, const char *s)
{
	return put(o, s, strlen(s));
}

/* Length of the quoted literal or name starting at p (quote q, doubled to escape). */
static size_t quoted_len(const char *p)
{
	char q = *p;
	size_t i = 1;

	for (; p[i]; i++) {
		if (p[i] == q && p[i + 1] == q)
			i++;
		else if (p[i] == q)
			return i + 1;
	}
	return i;
}

char *pg_glob_regex(const char *glob, size_t len)
{
	struct out o = { 0 };
	int in_class = 0;

	if (puts_(&o, "^"))
		return NULL;
	for (size_t i = 0; i < len; i++) {
		char c = glob[i], e[3] = { '\\', c, 0 };
		int bad;

		if (in_class) {
			bad = put(&o, &c, 1);
			in_class = c != ']';
		} else if (c == '*') {
			bad = puts_(&o, ".*");
		} else if (c == '?') {
			bad = puts_(&o, ".");
		} else if (c == '[') {
			bad = put(&o, &c, 1);
			in_class = 1;
			/* a ] first in the class is a member, as in a glob */
			if (i + 1 < len && glob[i + 1] == '^')
				bad = bad || put(&o, &glob[++i], 1);
			if (i + 1 < len && glob[i + 1] == ']')
				bad = bad || put(&o, &glob[++i], 1);
		} else if (strchr(".+()|{}^$\\", c)) {
			bad = puts_(&o, e);
		} else {
			bad = put(&o, &c, 1);
		}
		if (bad) {
			free(o.buf);
			return NULL;
		}
	}
	if (puts_(&o, "$")) {
		free(o.buf);
		return NULL;
	}
	return o.buf;
}

/* Emit the glob literal at p (quoted) as a regular expression literal; its length. */
static size_t glob_literal(struct out *o, const char *p, int *bad)
{
	size_t len = quoted_len(p), k = 0;
	char *raw = malloc(len), *re;

	if (!raw) {
		*bad = 1;
		return len;
	}
	for (size_t i = 1; i + 1 < len; i++) {	/* undo '' */
		raw[k++] = p[i];
		if (p[i] == '\'' && p[i + 1] == '\'')
			i++;
	}
	re = pg_glob_regex(raw, k);
	free(raw);
	*bad = !re || puts_(o, "'");
	for (const char *c = re; !*bad && c && *c; c++)
		*bad = put(o, c, 1) || (*c == '\'' && put(o, c, 1));
	*bad = *bad || puts_(o, "'");
	free(re);
	return len;
}

/* The length of the identifier-like word at p. */
static size_t word_len(const char *p)
{
	size_t n = 0;

	while (isalnum((unsigned char)p[n]) || p[n] == '_')
		n++;
	return n;
}

static int is_word(const char *p, size_t n, const char *w)
{
	return strlen(w) == n && strncasecmp(p, w, n) == 0;
}

/* Whether p starts " IS NULL" or " IS NOT NULL". */
static int null_test(const char *p)
{
	return strncasecmp(p, " IS NULL", 8) == 0 || strncasecmp(p, " IS NOT NULL", 12) == 0;
}

/* Word for word replacements. */
static const struct {
	const char *from, *to;
} words[] = {
	{ "LIKE", "ILIKE" },
	{ "INTEGER", "BIGINT" },
	{ "REAL", "DOUBLE PRECISION" },
	{ "group_concat", "string_agg" },
	{ "instr", "strpos" },
};

#define NOW_LITE "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"
#define NOW_PG "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"

/* The translation of one statement in progress. */
struct xlate {
	struct out o;
	int nparams;		/* the highest parameter number seen */
	int autoparam;		/* the number the last bare ? took */
	int glob_next;		/* the next parameter is a GLOB pattern */
	int ignore;		/* INSERT OR IGNORE seen: ON CONFLICT DO NOTHING at the end */
	unsigned char *glob;	/* PG_MAXPARAM + 1 flags per parameter */
};

/* ?N (or a bare ?) at *pp becomes $N; *pp moves past it. Returns nonzero on error. */
static int xlate_param(struct xlate *x, const char **pp)
{
	const char *p = *pp;
	char num[16];
	long k = isdigit((unsigned char)p[1]) ? strtol(p + 1, NULL, 10) : ++x->autoparam;

	p++;
	while (isdigit((unsigned char)*p))
		p++;
	*pp = p;
	if (k < 1 || k > PG_MAXPARAM)
		return 1;
	if (k > x->nparams)
		x->nparams = (int)k;
	x->glob[k] |= x->glob_next | PG_PARAM_USED;
	x->glob_next = 0;
	/*
	 * $N IS NULL alone does not tell the server N's type: an
	 * untyped (text) parameter tested so is text.
	 */
	snprintf(num, sizeof(num), "$%ld%s", k, null_test(p) ? "::text" : "");
	return puts_(&x->o, num);
}

/*
 * The word at *pp in PostgreSQL's spelling, with the word after it when
 * SQLite spells one thing with two (NOT GLOB, IS ?N, INSERT OR IGNORE);
 * after a GLOB, its pattern. *pp moves past what was read. Returns
 * nonzero on error.
 */
static int xlate_word(struct xlate *x, const char **pp)
{
	const char *p = *pp, *next;
	size_t n = word_len(p), m;
	int bad;

	next = p + n;
	while (*next == ' ')
		next++;
	m = word_len(next);
	if (is_word(p, n, "NOT") && is_word(next, m, "GLOB")) {
		bad = puts_(&x->o, "!~");
		n = (size_t)(next - p) + m;
	} else if (is_word(p, n, "IS") && *next == '?') {
		/* x IS ?N: PostgreSQL's IS takes only NULL, TRUE or FALSE */
		bad = puts_(&x->o, "IS NOT DISTINCT FROM ");
		n = (size_t)(next - p);
	} else if (is_word(p, n, "GLOB")) {
		bad = puts_(&x->o, "~");
	} else if (is_word(p, n, "INSERT") && is_word(next, m, "OR") &&
		   strncasecmp(next + m, " IGNORE", 7) == 0) {
		bad = puts_(&x->o, "INSERT");
		n = (size_t)(next - p) + m + 7;
		x->ignore = 1;
	} else if (is_word(p, n, "strftime") && strncmp(p, NOW_LITE, strlen(NOW_LITE)) == 0) {
		bad = puts_(&x->o, NOW_PG);
		n = strlen(NOW_LITE);
	} else {
		size_t i;

		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (is_word(p, n, words[i].from))
				break;
		bad = i < sizeof(words) / sizeof(words[0]) ? puts_(&x->o, words[i].to) : put(&x->o, p, n);
	}
	p += n;
	if (x->o.n && x->o.buf[x->o.n - 1] == '~') {
		/* the glob's pattern: a literal now, a parameter at bind time */
		while (*p == ' ')
			bad = bad || put(&x->o, p++, 1);
		if (*p == '\'')
			p += glob_literal(&x->o, p, &bad);
		else
			x->glob_next = 1;
	}
	*pp = p;
	return bad;
}

/* INSERT OR IGNORE: ON CONFLICT DO NOTHING, before a RETURNING clause,
 * which must come last. Returns nonzero on error. */
static int xlate_ignore(struct xlate *x)
{
	char *ret = strstr(x->o.buf, " RETURNING ");
	size_t at = ret ? (size_t)(ret - x->o.buf) : x->o.n;
	char *tail = strdup(x->o.buf + at);
	int bad;

	x->o.n = at;
	bad = !tail || puts_(&x->o, " ON CONFLICT DO NOTHING") || puts_(&x->o, tail);
	free(tail);
	return bad;
}

char *pg_translate(const char *sql, int *nparams, unsigned char *glob)
{
	struct xlate x = { .glob = glob };
	const char *p = sql;
	int bad = puts_(&x.o, "");

	memset(glob, 0, PG_MAXPARAM + 1);
	while (!bad && *p) {
		if (*p == '\'' || *p == '"') {
			size_t n = quoted_len(p);

			bad = put(&x.o, p, n);
			p += n;
		} else if (*p == '?') {
			bad = xlate_param(&x, &p);
		} else if (isalpha((unsigned char)*p) || *p == '_') {
			bad = xlate_word(&x, &p);
		} else {
			bad = put(&x.o, p++, 1);
		}
	}
	if (!bad && x.ignore)
		bad = xlate_ignore(&x);
	*nparams = x.nparams;
	if (bad) {
		free(x.o.buf);
		return NULL;
	}
	return x.o.buf;
}
