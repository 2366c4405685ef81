/*
 * optcell.c - name a run from its option rows: the cell key that pairs
 * comparable runs, and the configuration JSON stored with the run. Both
 * backends call opt_render(); a row's .cell, .conf and .flags say where
 * its value goes, so an option added with them needs no renderer edit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/json.h"
#include "lib/opt.h"

/* Keys a cell can hold; more is a bug in a table (opt_render says -ENOSPC). */
#define CELL_MAX 64

struct cell_item {
	int at;		/* .cell_at */
	unsigned seq;	/* row order, for ties */
	char text[1024];	/* "key=value" */
};

struct render {
	struct json j;
	struct cell_item item[CELL_MAX];
	unsigned n;
	int ret;
};

/* The text of a value not given: the row's .unset, else "". */
static const char *unset(const struct opt *o)
{
	return o->unset ? o->unset : "";
}

/* A given text, or NULL: the text of LIST, CPUS and CHOICE_N values. */
static const char *given_text(const struct opt *o, const char *field)
{
	switch (o->type) {
	case OPT_STR:
		return *(const char *const *)field;
	case OPT_LIST:
		return ((const struct opt_list *)field)->text;
	case OPT_CPUS:
		return ((const struct opt_cpus *)field)->text;
	case OPT_CHOICE_N:
		return ((const struct opt_choice_n *)field)->text;
	default:
		return NULL;
	}
}

/* Whether the value at field counts as given (OPT_IF_SET): not 0, not NULL. */
static int is_set(const struct opt *o, const char *field)
{
	switch (o->type) {
	case OPT_FLAG:
	case OPT_CHOICE:
		return *(const int *)field != 0;
	case OPT_UINT:
	case OPT_SIZE:
		return *(const uint64_t *)field != 0;
	case OPT_DOUBLE:
		return *(const double *)field != 0;
	case OPT_NODE:
		return *(const int *)field >= 0;
	default:
		return given_text(o, field) != NULL;
	}
}

/* The value at field as the cell writes it, into buf. Returns buf. */
static const char *cell_text(const struct opt *o, const char *field, char *buf, size_t len)
{
	const char *t;

	switch (o->type) {
	case OPT_FLAG:
		snprintf(buf, len, "%d", *(const int *)field);
		break;
	case OPT_UINT:
	case OPT_SIZE:
		snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)field);
		break;
	case OPT_DOUBLE:
		snprintf(buf, len, "%g", *(const double *)field);
		break;
	case OPT_CHOICE:
		opt_choice_name(o->choices, *(const int *)field, buf, len);
		break;
	case OPT_NODE:
		if (*(const int *)field < 0)
			snprintf(buf, len, "%s", unset(o));
		else
			snprintf(buf, len, "%d", *(const int *)field);
		break;
	default:
		t = given_text(o, field);
		snprintf(buf, len, "%s", t ? t : unset(o));
		break;
	}
	return buf;
}

/* Whether the value at field is the row's default (.def parsed; none: 0). */
static int is_default(const struct opt *o, const char *field)
{
	union {
		uint64_t u;
		double d;
		int i;
		const char *s;
		struct opt_choice_n c;
		struct opt_cpus cpus;
		struct opt_list l;
	} *def = calloc(1, sizeof(*def));
	struct opt row = *o;
	char a[1024], b[1024];
	int same;

	if (!def)
		return 0;
	row.off = 0;
	if (o->type == OPT_NODE)
		def->i = -1;
	if (o->def && opt_set(&row, def, o->def, "render")) {
		free(def);
		return 0;
	}
	same = strcmp(cell_text(o, field, a, sizeof(a)), cell_text(o, (const char *)def, b, sizeof(b))) == 0;
	free(def);
	return same;
}

int opt_is_default(const struct opt *o, const void *cfg)
{
	return is_default(o, (const char *)cfg + o->off);
}

/* Write the value at field as member o->conf of the configuration. */
static void conf_value(struct json *j, const struct opt *o, const char *field)
{
	char buf[64];

	switch (o->type) {
	case OPT_FLAG:
		json_bool(j, o->conf, *(const int *)field);
		break;
	case OPT_UINT:
	case OPT_SIZE:
		json_u64(j, o->conf, *(const uint64_t *)field);
		break;
	case OPT_DOUBLE:
		json_dbl(j, o->conf, *(const double *)field);
		break;
	case OPT_CHOICE:
		json_str(j, o->conf, opt_choice_name(o->choices, *(const int *)field, buf, sizeof(buf)));
		break;
	case OPT_NODE:
		json_str(j, o->conf, *(const int *)field < 0 ? NULL : cell_text(o, field, buf, sizeof(buf)));
		break;
	default:
		if (o->flags & OPT_RAW_JSON)
			json_raw(j, o->conf, given_text(o, field));
		else
			json_str(j, o->conf, given_text(o, field));
		break;
	}
}

/* Render the rows of tab over the configuration at base; at is the
 * enclosing OPT_ROWS row's .cell_at. */
static void render_rows(struct render *r, const struct opt *tab, const char *base, int at)
{
	for (const struct opt *o = tab; !opt_end(o); o++) {
		const char *field = base + o->off;
		char v[1024];

		if (o->type == OPT_ROWS) {
			render_rows(r, opt_rows(o), field, o->cell_at ? o->cell_at : at);
			continue;
		}
		if ((o->flags & OPT_IF_SET) && !is_set(o, field))
			continue;
		if (o->conf)
			conf_value(&r->j, o, field);
		if (!o->cell || ((o->flags & OPT_IF_CHANGED) && is_default(o, field)))
			continue;
		if (r->n == CELL_MAX) {
			r->ret = -ENOSPC;
			continue;
		}
		r->item[r->n].at = o->cell_at ? o->cell_at : at;
		r->item[r->n].seq = r->n;
		snprintf(r->item[r->n].text, sizeof(r->item[r->n].text), "%s=%s", o->cell,
			 cell_text(o, field, v, sizeof(v)));
		r->n++;
	}
}

static int by_place(const void *a, const void *b)
{
	const struct cell_item *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int opt_render(const struct opt *tab, const void *cfg, char *cell, size_t cell_len,
	       char *json, size_t json_len)
{
	struct render *r = calloc(1, sizeof(*r));
	FILE *f = fmemopen(json, json_len, "w");
	size_t l = 0;
	int ret;

	if (!r || !f) {
		free(r);
		if (f)
			fclose(f);
		snprintf(json, json_len, "{}");
		cell[0] = '\0';
		return -ENOMEM;
	}
	json_init(&r->j, f, 0);
	json_obj_open(&r->j, NULL);
	render_rows(r, tab, cfg, 0);
	json_obj_close(&r->j);
	fputc('\0', f);
	if (fclose(f) || !memchr(json, '\0', json_len - 1))
		r->ret = -ENOSPC;
	json[json_len - 1] = '\0';

	qsort(r->item, r->n, sizeof(r->item[0]), by_place);
	cell[0] = '\0';
	for (unsigned i = 0; i < r->n; i++) {
		int w = snprintf(cell + l, cell_len - l, "%s%s", i ? " " : "", r->item[i].text);

		if (w < 0 || (size_t)w >= cell_len - l) {
			r->ret = -ENOSPC;
			break;
		}
		l += (size_t)w;
	}
	ret = r->ret;
	free(r);
	return ret;
}

void opt_cell_keys(FILE *f, const struct opt *tab)
{
	for (const struct opt *o = tab; !opt_end(o); o++) {
		if (o->type == OPT_ROWS)
			opt_cell_keys(f, opt_rows(o));
		else if (o->cell)
			fprintf(f, "%s\t%s\n", o->name, o->cell);
	}
}

void opt_join_names(const char *const *name, unsigned k, char *buf, size_t n)
{
	size_t len = 0;

	if (n)
		buf[0] = '\0';
	for (unsigned i = 0; i < k && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s--%s", i == 0 ? "" : i + 1 == k ? " and " : ", ",
					name[i]);
}
