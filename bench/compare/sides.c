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

/* At most this many labels are kept per group (the rest are counted),
 * and the human header names the first GROUP_SHOWN of them. */
#define GROUP_LABELS 64
#define GROUP_SHOWN 10

static const char *kernel_of(const struct run_ref *r)
{
	return *r->kernel_variant ? r->kernel_variant : "unknown";
}

/* Whether runs a and b are of one group: one machine name, one fingerprint. */
static int same_group(const struct run_ref *a, const struct run_ref *b)
{
	return a->machine_id == b->machine_id && strcmp(a->machine_name, b->machine_name) == 0;
}

/* Whether run i of rs is the first of its group (by same_group) or, with
 * kernel, the first of its kernel variant within the group. */
static int first_of(const struct runset *rs, size_t i, int kernel)
{
	for (size_t k = 0; k < i; k++)
		if (same_group(&rs->run[k], &rs->run[i]) &&
		    (!kernel || strcmp(kernel_of(&rs->run[k]), kernel_of(&rs->run[i])) == 0))
			return 0;
	return 1;
}

void cmp_side_kernels(const struct runset *rs, char *buf, size_t len, struct json *j, const char *key)
{
	size_t used = 0;

	buf[0] = '\0';
	if (j)
		json_arr_open(j, key);
	for (size_t i = 0; i < rs->n; i++) {
		const char *k = kernel_of(&rs->run[i]);
		int seen = 0;

		for (size_t p = 0; p < i && !seen; p++)
			seen = strcmp(k, kernel_of(&rs->run[p])) == 0;
		if (seen)
			continue;
		if (j)
			json_str(j, NULL, k);
		if (used + strlen(k) + 2 < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "", k);
	}
	if (j)
		json_arr_close(j);
}

/*
 * Whether the group of run g (a run of side rs) was paired with the other
 * side: every group is across machines (--cross-machine); a machine's
 * groups are by its name across kernels; else only a group whose machine
 * name and fingerprint the other side has too.
 */
static int group_compared(const struct cmp *c, const struct runset *rs, const struct run_ref *g)
{
	const struct runset *other = rs == &c->base ? &c->cand : &c->base;

	if (c->cross)
		return 1;
	for (size_t i = 0; i < other->n; i++)
		if (strcmp(other->run[i].machine_name, g->machine_name) == 0 &&
		    (c->kernels || other->run[i].machine_id == g->machine_id))
			return 1;
	return 0;
}

/*
 * Call each(c, rs, g, labels, nlabels, runs, arg) for every group of rs
 * (g its first run), the group with the latest label first, with its
 * distinct labels latest first (at most GROUP_LABELS of them in labels;
 * nlabels counts all; unlabelled runs have none).
 */
typedef void group_fn(const struct cmp *c, const struct runset *rs, const struct run_ref *g,
		      const char **labels, size_t nlabels, size_t runs, void *arg);

/* The labels of group g of rs, latest first, into labels; returns how many there are. */
static size_t group_labels(const struct runset *rs, const struct run_ref *g, const char **labels)
{
	size_t nl = 0;

	for (const char *last = NULL;;) {
		const char *best = NULL;

		for (size_t k = 0; k < rs->n; k++) {
			const char *l = rs->run[k].label;

			if (!same_group(&rs->run[k], g) || !l || (last && strcmp(l, last) >= 0))
				continue;
			if (!best || strcmp(l, best) > 0)
				best = l;
		}
		if (!best)
			return nl;
		if (nl < GROUP_LABELS)
			labels[nl] = best;
		nl++;
		last = best;
	}
}

static void each_group(const struct cmp *c, const struct runset *rs, group_fn *each, void *arg)
{
	const char *done = NULL;	/* the latest label of the group called last */
	size_t done_i = 0;

	for (;;) {
		const char *labels[GROUP_LABELS], *top = NULL;
		size_t runs = 0, nl, pick = rs->n;

		/* the next group: latest label first, ties (and no label) by first run */
		for (size_t i = 0; i < rs->n; i++) {
			const char *t;

			if (!first_of(rs, i, 0))
				continue;
			t = group_labels(rs, &rs->run[i], labels) ? labels[0] : "";
			if (done && (strcmp(t, done) > 0 || (strcmp(t, done) == 0 && i <= done_i)))
				continue;
			if (pick == rs->n || strcmp(t, top) > 0) {
				pick = i;
				top = t;
			}
		}
		if (pick == rs->n)
			return;
		nl = group_labels(rs, &rs->run[pick], labels);
		for (size_t k = 0; k < rs->n; k++)
			runs += same_group(&rs->run[k], &rs->run[pick]);
		each(c, rs, &rs->run[pick], labels, nl, runs, arg);
		done = top;
		done_i = pick;
	}
}

/* Whether the groups are worth a line each: across kernels, a machine
 * with more than one fingerprint on a side, or a group not compared. */
static int groups_matter(const struct cmp *c)
{
	const struct runset *side[] = { &c->base, &c->cand };

	if (c->kernels)
		return 1;
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < side[s]->n; i++) {
			const struct run_ref *r = &side[s]->run[i];

			if (!first_of(side[s], i, 0))
				continue;
			if (!group_compared(c, side[s], r))
				return 1;
			for (size_t k = 0; k < side[s]->n; k++)
				if (strcmp(side[s]->run[k].machine_name, r->machine_name) == 0 &&
				    side[s]->run[k].machine_id != r->machine_id)
					return 1;
		}
	return 0;
}

/* The kernels of group g alone, space-separated, into buf. */
static void group_kernels(const struct runset *rs, const struct run_ref *g, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < rs->n; i++) {
		const char *k = kernel_of(&rs->run[i]);

		if (!same_group(&rs->run[i], g) || !first_of(rs, i, 1) || used + strlen(k) + 2 >= len)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "", k);
	}
}

static void group_line(const struct cmp *c, const struct runset *rs, const struct run_ref *g,
		       const char **labels, size_t nl, size_t runs, void *arg)
{
	FILE *f = arg;
	char fp[80], kb[256];

	store_machine_fingerprint(c->db_handle, g->machine_id, fp, sizeof(fp));
	group_kernels(rs, g, kb, sizeof(kb));
	fprintf(f, "  %s, kernel %s, fingerprint %s:", g->machine_name, kb, *fp ? fp : "?");
	for (size_t i = 0; i < nl && i < GROUP_SHOWN; i++)
		fprintf(f, " %s", labels[i]);
	if (nl > GROUP_SHOWN)
		fprintf(f, " ... (%zu more)", nl - GROUP_SHOWN);
	if (!nl)
		fprintf(f, " (no labels)");
	fprintf(f, " (%zu run%s)", runs, runs == 1 ? "" : "s");
	if (!group_compared(c, rs, g))
		fprintf(f, ": not compared (%s)", c->kernels ? "no runs of this machine on the other side" :
			"another fingerprint than the other side's; --across-kernels compares it");
	fputc('\n', f);
}

void cmp_print_groups(const struct cmp *c, const struct runset *rs, FILE *f)
{
	if (groups_matter(c))
		each_group(c, rs, group_line, f);
}

static void group_json(const struct cmp *c, const struct runset *rs, const struct run_ref *g,
		       const char **labels, size_t nl, size_t runs, void *arg)
{
	struct json *j = arg;
	char fp[80];

	store_machine_fingerprint(c->db_handle, g->machine_id, fp, sizeof(fp));
	json_obj_open(j, NULL);
	json_str(j, "machine", g->machine_name);
	json_str(j, "fingerprint", fp);
	json_arr_open(j, "kernel_variants");
	for (size_t i = 0; i < rs->n; i++)
		if (same_group(&rs->run[i], g) && first_of(rs, i, 1))
			json_str(j, NULL, kernel_of(&rs->run[i]));
	json_arr_close(j);
	json_arr_open(j, "labels");
	for (size_t i = 0; i < nl && i < GROUP_LABELS; i++)
		json_str(j, NULL, labels[i]);
	json_arr_close(j);
	json_u64(j, "labels_total", nl);
	json_u64(j, "runs", runs);
	json_bool(j, "compared", group_compared(c, rs, g));
	json_obj_close(j);
}

void cmp_groups_json(const struct cmp *c, const struct runset *rs, struct json *j)
{
	json_arr_open(j, "groups");
	each_group(c, rs, group_json, j);
	json_arr_close(j);
}
