/*
 * compare/costs.c - an est-* metric is a model run's counts priced at
 * assumed costs: a page walk's cycles and the clock (sim --walk-cycles,
 * --ghz, stored with the run's machine). A row whose two sides assumed
 * other costs differs by the assumption, not (only) the design: its
 * headline, its notes and its JSON say so, with each side's costs.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/compare.h"
#include "lib/json.h"
#include "lib/metrics.h"

/* One run's assumed costs, read on first need. */
struct cmp_cost_run {
	int loaded;		/* tried */
	int known;		/* the run stored them */
	double walk, ghz;
};

/* Whether metric is an estimate priced at assumed costs (the registry's kind estimate). */
static int is_estimate(const char *metric)
{
	int id = metric_find(metric);

	return id >= 0 && metric_defs[id].kind == KIND_ESTIMATE;
}

/* Whether estimate metric depends on the clock: a time does, a count of
 * cycles (the registry's unit "cycles": est-translation-cycles) does not. */
static int uses_clock(const char *metric)
{
	int id = metric_find(metric);

	return id < 0 || strcmp(metric_defs[id].kcidb_unit, "cycles") != 0;
}

/* Add x to the n distinct values of v (at most CMP_MAX_COSTS kept). */
static void add_value(double *v, unsigned *n, double x)
{
	for (unsigned i = 0; i < *n; i++)
		if (v[i] == x)
			return;
	if (*n < CMP_MAX_COSTS)
		v[(*n)++] = x;
}

/* Fill s with the costs of side's runs of row r. */
static int side_costs(struct cmp *c, const struct cmp_row *r, int side, struct cmp_costs *s)
{
	const struct runset *rs = side ? &c->cand : &c->base;
	struct cmp_cost_run *cr = c->cost[side];

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < rs->n; i++) {
		const struct run_ref *ref = &rs->run[i];

		/* the row's runs: its cell, and its machine unless compared across machines */
		if (strcmp(ref->cell, r->cell) != 0 || (!c->cross && ref->group != r->group))
			continue;
		if (!cr[i].loaded) {
			int ret = select_run_costs(c->db_handle, ref->id, &cr[i].walk, &cr[i].ghz);

			if (ret && ret != -ENOENT)
				return ret;
			cr[i].loaded = 1;
			cr[i].known = !ret;
		}
		s->runs++;
		if (!cr[i].known) {
			s->unknown++;
			continue;
		}
		add_value(s->walk, &s->nwalk, cr[i].walk);
		add_value(s->ghz, &s->nghz, cr[i].ghz);
	}
	return 0;
}

/* Whether the n distinct values of a and the m of b are not the same set. */
static int differ(const double *a, unsigned n, const double *b, unsigned m)
{
	if (n != m)
		return 1;
	for (unsigned i = 0; i < n; i++) {
		unsigned k;

		for (k = 0; k < m && b[k] != a[i]; k++)
			;
		if (k == m)
			return 1;
	}
	return 0;
}

/* Whether row r's sides assumed another walk cost, or clock. */
static int walk_differs(const struct cmp_row *r)
{
	return differ(r->costs[0].walk, r->costs[0].nwalk, r->costs[1].walk, r->costs[1].nwalk);
}

static int clock_differs(const struct cmp_row *r)
{
	return uses_clock(r->metric) &&
	       differ(r->costs[0].ghz, r->costs[0].nghz, r->costs[1].ghz, r->costs[1].nghz);
}

/* Values v[0..n-1] with unit into f: "2 GHz", "35 or 40-cycle walks". */
static void values_words(FILE *f, const double *v, unsigned n, const char *unit)
{
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "%s%g", i ? " or " : "", v[i]);
	fputs(unit, f);
}

/* Side s's costs that differ into f: "35-cycle walks at 2 GHz", "2 GHz". */
static void side_words(FILE *f, const struct cmp_costs *s, int walk, int clock)
{
	if (walk)
		values_words(f, s->walk, s->nwalk, "-cycle walks");
	if (walk && clock)
		fputs(" at ", f);
	if (clock)
		values_words(f, s->ghz, s->nghz, " GHz");
}

void cmp_costs_words(const struct cmp *c, const struct cmp_row *r, char *buf, size_t len)
{
	int walk = walk_differs(r), clock = clock_differs(r);
	FILE *f;

	buf[0] = '\0';
	if (!r->costs_differ || !(f = fmemopen(buf, len, "w")))
		return;
	fputs("the sides assume ", f);
	side_words(f, &r->costs[0], walk, clock);
	fputs(" and ", f);
	side_words(f, &r->costs[1], walk, clock);
	/* across an ignored axis the designs differ too: the ratio mixes both */
	fputs(c->nignore ? ": part of the ratio is an assumption, not the design"
			 : ": an assumption, not a design change", f);
	fclose(f);
}

int cmp_row_costs(struct cmp *c, struct cmp_row *r)
{
	char words[192];
	size_t *shown, n;
	int ret;

	if (!is_estimate(r->metric))
		return 0;
	for (int side = 0; side < 2; side++)
		if ((ret = side_costs(c, r, side, &r->costs[side])))
			return ret;
	/* a side with runs of unknown costs cannot be told apart: no claim either way */
	if (!r->costs[0].runs || !r->costs[1].runs || r->costs[0].unknown || r->costs[1].unknown)
		return 0;
	r->costs_differ = walk_differs(r) || clock_differs(r);
	if (!r->costs_differ)
		return 0;
	cmp_costs_words(c, r, words, sizeof(words));
	n = c->nnotes;
	cmp_note(c, "'%s' in cell '%s': %s (est-* price walks and lookups at the costs and clock each run "
		 "assumed, sim --walk-cycles and --ghz; compare the counts, such as dtlb-walks, for the "
		 "design)", r->metric, r->cell, words);
	if (c->nnotes == n)
		return -ENOMEM;
	shown = realloc(c->shown, (c->nshown + 1) * sizeof(*shown));
	if (!shown)
		return -ENOMEM;
	c->shown = shown;
	c->shown[c->nshown++] = c->nnotes - 1;
	return 0;
}

/* One side's costs as JSON: its runs, the distinct walk costs and clocks. */
static void side_json(struct json *j, const char *key, const struct cmp_costs *s)
{
	json_obj_open(j, key);
	json_u64(j, "runs", s->runs);
	json_u64(j, "unknown_runs", s->unknown);
	json_arr_open(j, "walk_cycles");
	for (unsigned i = 0; i < s->nwalk; i++)
		json_dbl(j, NULL, s->walk[i]);
	json_arr_close(j);
	json_arr_open(j, "ghz");
	for (unsigned i = 0; i < s->nghz; i++)
		json_dbl(j, NULL, s->ghz[i]);
	json_arr_close(j);
	json_obj_close(j);
}

void cmp_row_costs_json(const struct cmp *c, struct json *j, const struct cmp_row *r)
{
	char words[192];

	if (!is_estimate(r->metric) || (!r->costs[0].nwalk && !r->costs[1].nwalk))
		return;
	json_obj_open(j, "assumed_costs");
	side_json(j, "baseline", &r->costs[0]);
	side_json(j, "candidate", &r->costs[1]);
	json_bool(j, "differ", r->costs_differ);
	cmp_costs_words(c, r, words, sizeof(words));
	if (r->costs_differ)
		json_str(j, "words", words);
	else
		json_null(j, "words");
	json_obj_close(j);
}

int cmp_cost_alloc(struct cmp *c)
{
	c->cost[0] = calloc(c->base.n + 1, sizeof(*c->cost[0]));
	c->cost[1] = calloc(c->cand.n + 1, sizeof(*c->cost[1]));
	return c->cost[0] && c->cost[1] ? 0 : -ENOMEM;
}

void cmp_cost_free(struct cmp *c)
{
	for (int side = 0; side < 2; side++) {
		free(c->cost[side]);
		c->cost[side] = NULL;
	}
}
