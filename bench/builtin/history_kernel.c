/*
 * builtin/history_kernel.c - 'history --by kernel': each cell's runs on
 * one machine name, across the fingerprints its kernels make, ordered by
 * kernel variant (lib/kver.h) rather than by date.
 */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "builtin/history.h"
#include "lib/json.h"
#include "lib/kver.h"
#include "stats/stats.h"
#include "store/query.h"

/* One run as read, before it is ordered. */
struct krun {
	char *variant, *date, *uuid;
	int has_value;
	double value;
};

struct kload {
	struct krun *r;
	size_t n, cap;
	const char *pattern;	/* --kernel */
};

static int keep_run(void *ctx, const char *variant, const char *date, const char *uuid,
		    int has_value, double value)
{
	struct kload *l = ctx;
	struct krun *k;

	if (fnmatch(l->pattern, variant, 0) != 0)
		return 0;
	if (l->n == l->cap) {
		size_t nc = l->cap ? 2 * l->cap : 64;
		struct krun *nr = realloc(l->r, nc * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		l->r = nr;
		l->cap = nc;
	}
	k = &l->r[l->n++];
	k->variant = strdup(variant);
	k->date = strdup(date);
	k->uuid = strdup(uuid);
	k->has_value = has_value;
	k->value = value;
	return k->variant && k->date && k->uuid ? 0 : -ENOMEM;
}

/* A total order: the variant's (kvariant_cmp), then start time, then uuid. */
static int krun_cmp(const void *a, const void *b)
{
	const struct krun *x = a, *y = b;
	int c = kvariant_cmp(x->variant, y->variant);

	if (!c)
		c = strcmp(x->date, y->date);
	return c ? c : strcmp(x->uuid, y->uuid);
}

int history_kernel_load(struct store *db, const struct hist_opts *o, struct series *s)
{
	struct kload k = { .pattern = o->kernel };
	struct loading l = { .s = s };
	int ret = store_kernel_points(db, o->metric, s->cell, s->name, keep_run, &k);

	if (!ret) {
		qsort(k.r, k.n, sizeof(*k.r), krun_cmp);
		for (size_t i = 0; i < k.n && !ret; i++)
			ret = history_add_run(&l, k.r[i].variant, k.r[i].date, k.r[i].uuid,
					      k.r[i].has_value, k.r[i].value);
		if (!ret && s->n && l.nv)
			s->pt[s->n - 1].value = stats_median(l.vals, l.nv);
	}
	for (size_t i = 0; i < k.n; i++) {
		free(k.r[i].variant);
		free(k.r[i].date);
		free(k.r[i].uuid);
	}
	free(k.r);
	free(l.vals);
	return ret;
}

size_t history_drop_empty(struct series *s, size_t *n)
{
	size_t k = 0;

	for (size_t i = 0; i < *n; i++) {
		if (s[i].n) {
			s[k++] = s[i];
			continue;
		}
		free(s[i].cell);
		free(s[i].pt);
		free(s[i].z);
		free(s[i].rv);
		free(s[i].rnight);
	}
	*n = k;
	return k;
}

struct klisting {
	struct series *s;
	size_t n;
};

static int add_kernel_series(void *ctx, const char *cell, const char *name, int64_t fingerprints,
			     int64_t variants)
{
	struct klisting *l = ctx;
	struct series *ns = realloc(l->s, (l->n + 1) * sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	l->s = ns;
	memset(&ns[l->n], 0, sizeof(ns[0]));
	ns[l->n].cell = strdup(cell);
	ns[l->n].machine_id = -1;
	ns[l->n].fingerprints = (size_t)fingerprints;
	ns[l->n].variants = (size_t)variants;
	snprintf(ns[l->n].name, sizeof(ns[0].name), "%s", name);
	ns[l->n].per_night = 1;
	ns[l->n].by_kernel = 1;
	return ns[l->n++].cell ? 0 : -ENOMEM;
}

int history_kernel_series(struct store *db, const struct hist_opts *o, struct series **out, size_t *n)
{
	struct klisting l = { 0 };
	int ret = store_list_kernel_series(db, o->cell, o->machine, add_kernel_series, &l);

	*out = l.s;
	*n = l.n;
	return ret;
}

static int label_cmp(const void *a, const void *b)
{
	return kvariant_cmp(*(const char *const *)a, *(const char *const *)b);
}

int history_kernels_json(struct json *j, const struct series *s, size_t n)
{
	size_t total = 0, k = 0;
	const char **v;

	for (size_t i = 0; i < n; i++)
		total += s[i].n;
	v = malloc((total + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		for (size_t p = 0; p < s[i].n; p++)
			v[k++] = s[i].pt[p].label;
	qsort(v, k, sizeof(*v), label_cmp);
	json_arr_open(j, "kernels");
	for (size_t i = 0; i < k; i++)
		if (i == 0 || strcmp(v[i], v[i - 1]) != 0)
			json_str(j, NULL, v[i]);
	json_arr_close(j);
	free(v);
	return 0;
}

int history_kernel_pulses(const struct hist_opts *o, struct series *s)
{
	int n = stats_pulses(s->rv, s->rnight, s->nr, o->pvalue, o->min_change, STATS_MIN_RUNS,
			     s->pulse, sizeof(s->pulse) / sizeof(s->pulse[0]));

	if (n < 0)
		return n;
	s->npulse = n;
	return 0;
}
