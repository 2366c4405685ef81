/* compare/compare.c - the comparison's small shared helpers: option lists, direction, notes, freeing. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/compare.h"
#include "lib/metrics.h"
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

/* Whether list[0..n-1] holds metric. */
static int listed(char *const *list, size_t n, const char *metric)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], metric) == 0)
			return 1;
	return 0;
}

int cmp_higher_better(const struct cmp *c, const char *metric)
{
	return listed(c->hb, c->nhb, metric) || metric_higher_better(metric);
}

int cmp_one_sided(const struct cmp *c, const char *metric)
{
	return listed(c->osn, c->nosn, metric) || metric_one_way(metric);
}

double cmp_quantile(const struct cmp *c, const char *metric)
{
	if (!cmp_one_sided(c, metric))
		return 0.5;
	return cmp_higher_better(c, metric) ? STATS_BEST_QUANTILE : 1 - STATS_BEST_QUANTILE;
}

int cmp_any_one_sided(const struct cmp *c)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].quant != 0.5)
			return 1;
	return 0;
}

int cmp_add_metric_threshold(struct cmp *c, const char *spec, char *why, size_t len)
{
	const char *eq = strchr(spec, '=');
	char *end, *name;
	double v;
	size_t i;

	if (!eq || eq == spec || !eq[1]) {
		snprintf(why, len, "'%s' is not METRIC=R (e.g. accesses-per-cpu-s-best=0.05)", spec);
		return -EINVAL;
	}
	v = strtod(eq + 1, &end);
	if (*end || !isfinite(v) || v < 0 || v > 10) {
		snprintf(why, len, "'%s': R must be a fraction from 0 to 10 (0.05 is 5 %%)", spec);
		return -EINVAL;
	}
	for (i = 0; i < c->nmt; i++)
		if (strlen(c->mt_name[i]) == (size_t)(eq - spec) && strncmp(c->mt_name[i], spec, eq - spec) == 0)
			break;
	if (i == c->nmt) {
		if (c->nmt == CMP_MAX_LIST) {
			snprintf(why, len, "more than %d metrics with their own threshold", CMP_MAX_LIST);
			return -EINVAL;
		}
		name = strndup(spec, eq - spec);
		if (!name)
			return -ENOMEM;
		c->mt_name[c->nmt++] = name;
	}
	c->mt_value[i] = v;
	return 0;
}

double cmp_threshold(const struct cmp *c, const char *metric)
{
	for (size_t i = 0; i < c->nmt; i++)
		if (strcmp(c->mt_name[i], metric) == 0)
			return c->mt_value[i];
	return c->dp.threshold;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Add the names of values[0..n) not yet in names[0..*len) (a set; room for *cap, grown). */
static int add_names(const char ***names, size_t *len, size_t *cap, const struct run_values *values, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < values[i].n; k++) {
			size_t j = 0;

			while (j < *len && strcmp((*names)[j], values[i].name[k]) != 0)
				j++;
			if (j < *len)
				continue;
			if (*len == *cap) {
				size_t nc = *cap ? 2 * *cap : 32;
				const char **nn = realloc(*names, nc * sizeof(*nn));

				if (!nn)
					return -ENOMEM;
				*names = nn;
				*cap = nc;
			}
			(*names)[(*len)++] = values[i].name[k];
		}
	return 0;
}

int cmp_check_metrics(const struct cmp *c)
{
	const char **names = NULL;
	size_t n = 0, cap = 0;
	int ret = add_names(&names, &n, &cap, c->bv, c->base.n);

	if (!ret)
		ret = add_names(&names, &n, &cap, c->cv, c->cand.n);
	if (!ret && n)
		qsort(names, n, sizeof(*names), cmp_name);
	for (size_t i = 0; !ret && i < c->nmetric; i++)
		if (!metric_check("compare", c->metric[i], names, n))
			ret = -EINVAL;
	free(names);
	return ret;
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
	cmp_mux_free(c);
	cmp_cost_free(c);
	runset_free(&c->base);
	runset_free(&c->cand);
	for (size_t i = 0; i < c->nhb; i++)
		free(c->hb[i]);
	for (size_t i = 0; i < c->nmetric; i++)
		free(c->metric[i]);
	for (size_t i = 0; i < c->nosn; i++)
		free(c->osn[i]);
	for (size_t i = 0; i < c->nmt; i++)
		free(c->mt_name[i]);
	for (size_t i = 0; i < c->nignore; i++)
		free(c->ignore[i]);
	for (size_t i = 0; c->full_base && i < c->base.n; i++)
		free(c->full_base[i]);
	for (size_t i = 0; c->full_cand && i < c->cand.n; i++)
		free(c->full_cand[i]);
	free(c->full_base);
	free(c->full_cand);
	for (size_t i = 0; i < c->nnotes; i++)
		free(c->notes[i]);
	free(c->notes);
	free(c->shown);
	free(c->rows);
	if (c->db_handle)
		store_close(c->db_handle);
}
