/*
 * compare/axes.c - --ignore-axis: pair cells that differ only in some axes
 * (two TLB designs: tlb), and say which values each side had of them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/compare.h"
#include "lib/json.h"

/* Sweep axes that name cell keys differently (scripts/sweep's summary map). */
static const struct {
	const char *axis, *keys;
} aliases[] = {
	{ "machine", "backend" },
	{ "sga-size", "sga" },
	{ "working-set", "ws" },
	{ "page-size", "page" },
	{ "layout", "page,align,backing" },
	{ "zipf-theta", "zipf_theta" },
};

/* Most distinct values of one axis listed for one side of a row. */
#define MAX_VALUES 8

/* Add key (length l) to the ignored keys unless there. Returns 0 or -ENOMEM. */
static int add_key(char **keys, size_t *n, const char *key, size_t l)
{
	for (size_t i = 0; i < *n; i++)
		if (strlen(keys[i]) == l && strncmp(keys[i], key, l) == 0)
			return 0;
	if (*n == CMP_MAX_LIST)
		return 0;
	keys[*n] = strndup(key, l);
	if (!keys[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

int cmp_ignore_add(struct cmp *c, const char *list)
{
	char *item[CMP_MAX_LIST];
	size_t n = cmp_split_list(list, item, CMP_MAX_LIST);
	int ret = 0;

	for (size_t i = 0; i < n; i++) {
		const char *keys = item[i];

		for (size_t a = 0; a < sizeof(aliases) / sizeof(aliases[0]); a++)
			if (strcmp(item[i], aliases[a].axis) == 0)
				keys = aliases[a].keys;
		for (const char *p = keys; *p && !ret;) {
			size_t l = strcspn(p, ",");

			ret = add_key(c->ignore, &c->nignore, p, l);
			p += l + (p[l] == ',');
		}
		free(item[i]);
	}
	return ret;
}

/* The value of key in cell (*len bytes), or NULL when the cell has no such key. */
static const char *cell_value(const char *cell, const char *key, size_t *len)
{
	size_t kl = strlen(key);

	for (const char *p = cell; *p;) {
		size_t l = strcspn(p, " ");

		if (l > kl && strncmp(p, key, kl) == 0 && p[kl] == '=') {
			*len = l - kl - 1;
			return p + kl + 1;
		}
		p += l;
		while (*p == ' ')
			p++;
	}
	return NULL;
}

/* Whether some run of rs has key in its cell. */
static int side_has(const struct runset *rs, const char *key)
{
	size_t l;

	for (size_t i = 0; i < rs->n; i++)
		if (cell_value(rs->run[i].cell, key, &l))
			return 1;
	return 0;
}

int cmp_ignore_check(const struct cmp *c, char *why, size_t len)
{
	for (size_t i = 0; i < c->nignore; i++) {
		const char *cell = c->cand.n ? c->cand.run[0].cell : "";
		size_t k = 0;

		if (side_has(&c->base, c->ignore[i]) || side_has(&c->cand, c->ignore[i]))
			continue;
		k = (size_t)snprintf(why, len, "'%s': no selected run's cell has that axis (its axes:",
				     c->ignore[i]);
		for (const char *p = cell; *p && k < len;) {
			size_t l = strcspn(p, " "), kl = strcspn(p, "=");

			k += (size_t)snprintf(why + k, len - k, " %.*s", (int)(kl < l ? kl : l), p);
			p += l;
			while (*p == ' ')
				p++;
		}
		if (k < len)
			snprintf(why + k, len - k, ")");
		return -EINVAL;
	}
	return 0;
}

/* Whether the token tok ("key=value") has an ignored key. */
static int ignored(const struct cmp *c, const char *tok, size_t l)
{
	size_t kl = strcspn(tok, "=");

	for (size_t i = 0; i < c->nignore && kl < l; i++)
		if (strlen(c->ignore[i]) == kl && strncmp(c->ignore[i], tok, kl) == 0)
			return 1;
	return 0;
}

/* cell without its ignored tokens, freshly allocated (NULL when out of memory). */
static char *reduce(const struct cmp *c, const char *cell)
{
	char *out = malloc(strlen(cell) + 1);
	size_t k = 0;

	if (!out)
		return NULL;
	for (const char *p = cell; *p;) {
		size_t l = strcspn(p, " ");

		if (l && !ignored(c, p, l)) {
			if (k)
				out[k++] = ' ';
			memcpy(out + k, p, l);
			k += l;
		}
		p += l;
		while (*p == ' ')
			p++;
	}
	out[k] = '\0';
	return out;
}

/* Give each run of rs its cell without the ignored keys, keeping the whole one in a fresh *full. */
static int apply_side(const struct cmp *c, struct runset *rs, char ***full)
{
	*full = calloc(rs->n ? rs->n : 1, sizeof(**full));
	if (!*full)
		return -ENOMEM;
	for (size_t i = 0; i < rs->n; i++) {
		char *r = reduce(c, rs->run[i].cell);

		if (!r)
			return -ENOMEM;
		(*full)[i] = rs->run[i].cell;
		rs->run[i].cell = r;
	}
	return 0;
}

/*
 * The distinct values of key among side's runs of cell on machine mach
 * (any machine with --cross-machine): up to MAX_VALUES pointers into the
 * whole cells in val, their lengths in vl. Returns how many.
 */
static size_t distinct_values(const struct cmp *c, int side, const char *cell, int64_t mach,
			      const char *key, const char **val, size_t *vl)
{
	const struct runset *rs = side ? &c->cand : &c->base;
	size_t nv = 0, l, j;

	for (size_t i = 0; i < rs->n && nv < MAX_VALUES; i++) {
		const char *v;

		if (strcmp(rs->run[i].cell, cell) != 0 || (!c->cross && rs->run[i].machine_id != mach))
			continue;
		v = cell_value(cmp_full_cell(c, side, i), key, &l);
		for (j = 0; v && j < nv; j++)
			if (vl[j] == l && strncmp(val[j], v, l) == 0)
				break;
		if (v && j == nv) {
			val[nv] = v;
			vl[nv++] = l;
		}
	}
	return nv;
}

/* A note for each group of a side whose runs differ in an ignored axis: they are pooled. */
static void note_pooled(struct cmp *c, int side)
{
	const struct runset *rs = side ? &c->cand : &c->base;

	for (size_t k = 0; k < rs->n; k++) {
		size_t i;

		for (i = 0; i < k; i++)
			if (strcmp(rs->run[i].cell, rs->run[k].cell) == 0 &&
			    (c->cross || rs->run[i].machine_id == rs->run[k].machine_id))
				break;
		for (size_t a = 0; i == k && a < c->nignore; a++) {
			const char *val[MAX_VALUES];
			size_t vl[MAX_VALUES];
			size_t n = distinct_values(c, side, rs->run[k].cell, rs->run[k].machine_id,
						   c->ignore[a], val, vl);

			if (n > 1)
				cmp_note(c, "the %s's runs of cell '%s' differ in the ignored axis '%s' "
					 "(%zu values): pooled as one", side ? "candidate" : "baseline",
					 rs->run[k].cell, c->ignore[a], n);
		}
	}
}

int cmp_ignore_apply(struct cmp *c)
{
	if (!c->nignore)
		return 0;
	if (apply_side(c, &c->base, &c->full_base) || apply_side(c, &c->cand, &c->full_cand))
		return -ENOMEM;
	note_pooled(c, 0);
	note_pooled(c, 1);
	return 0;
}

const char *cmp_full_cell(const struct cmp *c, int side, size_t i)
{
	char **full = side ? c->full_cand : c->full_base;
	const struct runset *rs = side ? &c->cand : &c->base;

	return full && full[i] ? full[i] : rs->run[i].cell;
}

void cmp_ignored_values(const struct cmp *c, const struct cmp_row *r, int side, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (size_t a = 0; a < c->nignore && k < len; a++) {
		const char *val[MAX_VALUES];
		size_t vl[MAX_VALUES];
		size_t nv = distinct_values(c, side, r->cell, r->machine_id, c->ignore[a], val, vl);

		for (size_t j = 0; j < nv && k < len; j++) {
			if (j)
				k += (size_t)snprintf(buf + k, len - k, " | %.*s", (int)vl[j], val[j]);
			else
				k += (size_t)snprintf(buf + k, len - k, "%s%s=%.*s", k ? " " : "", c->ignore[a],
						      (int)vl[j], val[j]);
		}
	}
}

/* Whether every row has the same values of the ignored axes on each side. */
static int uniform(const struct cmp *c)
{
	char b0[1024], c0[1024], b[1024], v[1024];

	cmp_ignored_values(c, &c->rows[0], 0, b0, sizeof(b0));
	cmp_ignored_values(c, &c->rows[0], 1, c0, sizeof(c0));
	for (size_t i = 1; i < c->nrows; i++) {
		cmp_ignored_values(c, &c->rows[i], 0, b, sizeof(b));
		cmp_ignored_values(c, &c->rows[i], 1, v, sizeof(v));
		if (strcmp(b, b0) != 0 || strcmp(v, c0) != 0)
			return 0;
	}
	return 1;
}

void cmp_print_ignored(const struct cmp *c, FILE *f, int header)
{
	char b[1024], v[1024], cell[512];
	int same;

	if (!c->nignore || !c->nrows)
		return;
	same = uniform(c);
	if (header) {
		fprintf(f, "ignored  ");
		for (size_t a = 0; a < c->nignore; a++)
			fprintf(f, "%s%s", a ? "," : " ", c->ignore[a]);
		fprintf(f, " (--ignore-axis: cells paired across %s)\n", c->nignore > 1 ? "them" : "it");
		if (!same) {
			fprintf(f, "          each side's values: below the table\n");
			return;
		}
		cmp_ignored_values(c, &c->rows[0], 0, b, sizeof(b));
		cmp_ignored_values(c, &c->rows[0], 1, v, sizeof(v));
		fprintf(f, "          baseline  %s\n          candidate %s\n", b, v);
		return;
	}
	if (same)
		return;
	fprintf(f, "\nignored axes, each side's values:\n");
	for (size_t i = 0; i < c->nrows; i++) {
		size_t k;

		for (k = 0; k < i; k++)
			if (c->rows[k].cell == c->rows[i].cell && c->rows[k].machine_id == c->rows[i].machine_id)
				break;
		if (k < i)
			continue;
		cmp_cell_varying(c, c->rows[i].cell, cell, sizeof(cell));
		cmp_ignored_values(c, &c->rows[i], 0, b, sizeof(b));
		cmp_ignored_values(c, &c->rows[i], 1, v, sizeof(v));
		fprintf(f, "  %s\n    baseline  %s\n    candidate %s\n", cell, b, v);
	}
}

void cmp_ignored_json(const struct cmp *c, struct json *j, const struct cmp_row *r)
{
	char b[1024];

	if (!c->nignore)
		return;
	if (!r) {
		json_arr_open(j, "ignore_axes");
		for (size_t a = 0; a < c->nignore; a++)
			json_str(j, NULL, c->ignore[a]);
		json_arr_close(j);
		return;
	}
	json_obj_open(j, "ignored");
	cmp_ignored_values(c, r, 0, b, sizeof(b));
	json_str(j, "baseline", b);
	cmp_ignored_values(c, r, 1, b, sizeof(b));
	json_str(j, "candidate", b);
	json_obj_close(j);
}

/*
 * Keys in which the two sides' runs differ entirely (no value of one side
 * on the other), comma-separated into buf: what --ignore-axis would pair
 * across when no cell has runs on both sides.
 */
void cmp_suggest_axes(const struct cmp *c, char *buf, size_t len)
{
	const char *cell = c->cand.n ? c->cand.run[0].cell : "";
	size_t k = 0;

	buf[0] = '\0';
	for (const char *p = cell; *p && k < len;) {
		size_t l = strcspn(p, " "), kl = strcspn(p, "="), shared = 0;
		char key[64];

		snprintf(key, sizeof(key), "%.*s", (int)(kl < l ? kl : l), p);
		for (size_t i = 0; i < c->cand.n && !shared; i++) {
			size_t lc, lb;
			const char *vc = cell_value(c->cand.run[i].cell, key, &lc);

			for (size_t j = 0; vc && j < c->base.n && !shared; j++) {
				const char *vb = cell_value(c->base.run[j].cell, key, &lb);

				shared = vb && lb == lc && strncmp(vb, vc, lc) == 0;
			}
		}
		if (!shared && side_has(&c->base, key))
			k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? "," : "", key);
		p += l;
		while (*p == ' ')
			p++;
	}
}
