/*
 * compare/sides.c - what each side of a comparison stands for, in its
 * header: the kernels of a side, and its runs grouped by machine and
 * fingerprint (hardware and kernel), each group with its kernel, its
 * labels (nights) and whether the comparison paired it with the other
 * side. A baseline's last-N-nights are a machine's nights by its name, so
 * after a kernel update they span fingerprints: the groups say which
 * nights ran on which kernel, and which of them were compared.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/json.h"
#include "compare/compare.h"
#include "store/query.h"

/* The human header names the first GROUP_SHOWN labels of a group, the
 * JSON at most GROUP_LABELS (its labels_total counts all). */
#define GROUP_SHOWN 10
#define GROUP_LABELS 64
/* Distinct kernel variants kept per side or group (more are left out of the lists). */
#define KERNELS_MAX 32

/*
 * A side's runs of one machine name and fingerprint: its first run, how
 * many runs, its distinct labels latest first, its distinct kernels in
 * first-seen order. Built once per side (groups_build), in O(n log n) plus
 * O(n) per group, so a fleet-wide comparison of many runs stays cheap.
 */
struct group {
	const struct run_ref *first;
	size_t runs;
	const char **labels;	/* into the runs' own strings */
	size_t nl;
	const char *kernels[KERNELS_MAX];
	size_t nk;
};

static const char *kernel_of(const struct run_ref *r)
{
	return *r->kernel_variant ? r->kernel_variant : "unknown";
}

/* Add k to the distinct kernels ks[0..*n) unless there (at most KERNELS_MAX kept). */
static void add_kernel(const char **ks, size_t *n, const char *k)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(ks[i], k) == 0)
			return;
	if (*n < KERNELS_MAX)
		ks[(*n)++] = k;
}

void cmp_side_kernels(const struct runset *rs, char *buf, size_t len, struct json *j, const char *key)
{
	const char *ks[KERNELS_MAX];
	size_t nk = 0, used = 0;

	for (size_t i = 0; i < rs->n; i++)
		add_kernel(ks, &nk, kernel_of(&rs->run[i]));
	buf[0] = '\0';
	if (j)
		json_arr_open(j, key);
	for (size_t i = 0; i < nk; i++) {
		if (j)
			json_str(j, NULL, ks[i]);
		if (used + strlen(ks[i]) + 2 < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "", ks[i]);
	}
	if (j)
		json_arr_close(j);
}

static int cmp_label_desc(const void *a, const void *b)
{
	return strcmp(*(const char *const *)b, *(const char *const *)a);
}

/* Groups in header order: the latest label first; ties, and groups without labels, by first run. */
static int cmp_group_order(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	int d = strcmp(y->nl ? y->labels[0] : "", x->nl ? x->labels[0] : "");

	return d ? d : x->first < y->first ? -1 : x->first > y->first;
}

static void groups_free(struct group *g, size_t ng)
{
	for (size_t i = 0; g && i < ng; i++)
		free(g[i].labels);
	free(g);
}

/* Side rs's groups, in header order, into *out (NULL when rs has no runs or memory ran out). */
static size_t groups_build(const struct runset *rs, struct group **out)
{
	struct group *g = calloc(rs->n + 1, sizeof(*g));
	size_t *of = calloc(rs->n + 1, sizeof(*of)), ng = 0;

	*out = NULL;
	if (!g || !of)
		goto fail;
	for (size_t i = 0; i < rs->n; i++) {
		const struct run_ref *r = &rs->run[i];
		size_t k;

		for (k = 0; k < ng; k++)
			if (g[k].first->machine_id == r->machine_id &&
			    strcmp(g[k].first->machine_name, r->machine_name) == 0)
				break;
		if (k == ng)
			g[ng++].first = r;
		of[i] = k;
		g[k].runs++;
		add_kernel(g[k].kernels, &g[k].nk, kernel_of(r));
	}
	for (size_t k = 0; k < ng; k++)
		if (!(g[k].labels = calloc(g[k].runs, sizeof(*g[k].labels))))
			goto fail;
	for (size_t i = 0; i < rs->n; i++)
		if (rs->run[i].label)
			g[of[i]].labels[g[of[i]].nl++] = rs->run[i].label;
	for (size_t k = 0; k < ng; k++) {
		size_t u = 0;

		qsort(g[k].labels, g[k].nl, sizeof(*g[k].labels), cmp_label_desc);
		for (size_t i = 0; i < g[k].nl; i++)
			if (!u || strcmp(g[k].labels[u - 1], g[k].labels[i]))
				g[k].labels[u++] = g[k].labels[i];
		g[k].nl = u;
	}
	qsort(g, ng, sizeof(*g), cmp_group_order);
	free(of);
	*out = g;
	return ng;
fail:
	free(of);
	groups_free(g, ng);
	return 0;
}

/*
 * Whether group g of side rs was paired with the other side: every group
 * is across machines (--cross-machine); a machine's groups are by its name
 * across kernels; else only a group whose machine name and fingerprint the
 * other side has too.
 */
static int group_compared(const struct cmp *c, const struct runset *rs, const struct group *g)
{
	const struct runset *other = rs == &c->base ? &c->cand : &c->base;

	if (c->cross)
		return 1;
	for (size_t i = 0; i < other->n; i++)
		if (strcmp(other->run[i].machine_name, g->first->machine_name) == 0 &&
		    (c->kernels || other->run[i].machine_id == g->first->machine_id))
			return 1;
	return 0;
}

/* Whether the groups are worth a line each: across kernels, a machine
 * with more than one fingerprint on a side, or a group not compared. */
static int groups_matter(const struct cmp *c)
{
	const struct runset *side[] = { &c->base, &c->cand };
	int matter = c->kernels;

	for (int s = 0; s < 2 && !matter; s++) {
		struct group *g;
		size_t ng = groups_build(side[s], &g);

		for (size_t k = 0; k < ng && !matter; k++) {
			matter = !group_compared(c, side[s], &g[k]);
			for (size_t o = k + 1; o < ng && !matter; o++)
				matter = strcmp(g[o].first->machine_name, g[k].first->machine_name) == 0;
		}
		groups_free(g, ng);
	}
	return matter;
}

static void group_line(const struct cmp *c, const struct runset *rs, const struct group *g, FILE *f)
{
	char fp[80];

	store_machine_fingerprint(c->db_handle, g->first->machine_id, fp, sizeof(fp));
	fprintf(f, "  %s, kernel", g->first->machine_name);
	for (size_t i = 0; i < g->nk; i++)
		fprintf(f, " %s", g->kernels[i]);
	fprintf(f, ", fingerprint %s:", *fp ? fp : "?");
	for (size_t i = 0; i < g->nl && i < GROUP_SHOWN; i++)
		fprintf(f, " %s", g->labels[i]);
	if (g->nl > GROUP_SHOWN)
		fprintf(f, " ... (%zu more)", g->nl - GROUP_SHOWN);
	if (!g->nl)
		fprintf(f, " (no labels)");
	fprintf(f, " (%zu run%s)", g->runs, g->runs == 1 ? "" : "s");
	if (!group_compared(c, rs, g))
		fprintf(f, ": not compared (%s)", c->kernels ? "no runs of this machine on the other side" :
			"another fingerprint than the other side's; --across-kernels compares it");
	fputc('\n', f);
}

void cmp_print_groups(const struct cmp *c, const struct runset *rs, FILE *f)
{
	struct group *g;
	size_t ng;

	if (!groups_matter(c))
		return;
	ng = groups_build(rs, &g);
	for (size_t k = 0; k < ng; k++)
		group_line(c, rs, &g[k], f);
	groups_free(g, ng);
}

void cmp_groups_json(const struct cmp *c, const struct runset *rs, struct json *j)
{
	struct group *g;
	size_t ng = groups_build(rs, &g);
	char fp[80];

	json_arr_open(j, "groups");
	for (size_t k = 0; k < ng; k++) {
		store_machine_fingerprint(c->db_handle, g[k].first->machine_id, fp, sizeof(fp));
		json_obj_open(j, NULL);
		json_str(j, "machine", g[k].first->machine_name);
		json_str(j, "fingerprint", fp);
		json_arr_open(j, "kernel_variants");
		for (size_t i = 0; i < g[k].nk; i++)
			json_str(j, NULL, g[k].kernels[i]);
		json_arr_close(j);
		json_arr_open(j, "labels");
		for (size_t i = 0; i < g[k].nl && i < GROUP_LABELS; i++)
			json_str(j, NULL, g[k].labels[i]);
		json_arr_close(j);
		json_u64(j, "labels_total", g[k].nl);
		json_u64(j, "runs", g[k].runs);
		json_bool(j, "compared", group_compared(c, rs, &g[k]));
		json_obj_close(j);
	}
	json_arr_close(j);
	groups_free(g, ng);
}
