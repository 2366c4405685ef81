/* compare/compare.c - the comparison's small shared helpers: option lists, direction, notes, freeing. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/compare.h"
#include "store/store.h"

size_t cmp_split_list(const char *list, char **out, size_t max)
{
	size_t n = 0;
	const char *p = list;

	while (*p && n < max) {
		size_t l = strcspn(p, ",");

		if (l)
			out[n] = strndup(p, l);
		if (l && out[n])
			n++;
		p += l;
		if (*p == ',')
			p++;
	}
	return n;
}

/* Whether metric ends with suffix (and has something before it). */
static int ends_with(const char *metric, const char *suffix)
{
	size_t l = strlen(metric), k = strlen(suffix);

	return l > k && strcmp(metric + l - k, suffix) == 0;
}

int cmp_higher_better(const struct cmp *c, const char *metric)
{
	for (size_t i = 0; i < c->nhb; i++)
		if (strcmp(c->hb[i], metric) == 0)
			return 1;
	return ends_with(metric, "-per-s") || ends_with(metric, "-per-cpu-s") ||
	       ends_with(metric, "-per-cpu-s-best");
}

void cmp_note(struct cmp *c, const char *fmt, ...)
{
	char **nn = realloc(c->notes, (c->nnotes + 1) * sizeof(*nn));
	va_list ap;

	if (!nn)
		return;
	c->notes = nn;
	va_start(ap, fmt);
	if (vasprintf(&c->notes[c->nnotes], fmt, ap) >= 0)
		c->nnotes++;
	va_end(ap);
}

void cmp_release(struct cmp *c)
{
	for (size_t i = 0; c->bv && i < c->base.n; i++)
		run_values_free(&c->bv[i]);
	for (size_t i = 0; c->cv && i < c->cand.n; i++)
		run_values_free(&c->cv[i]);
	free(c->bv);
	free(c->cv);
	runset_free(&c->base);
	runset_free(&c->cand);
	for (size_t i = 0; i < c->nhb; i++)
		free(c->hb[i]);
	for (size_t i = 0; i < c->nmetric; i++)
		free(c->metric[i]);
	for (size_t i = 0; i < c->nnotes; i++)
		free(c->notes[i]);
	free(c->notes);
	free(c->rows);
	if (c->db_handle)
		store_close(c->db_handle);
}
