/*
 * compare/mux.c - a row whose metric is a counted event says so in the
 * notes when, on either side, its estimates were scaled over fewer
 * rotations of the PMU than a scaled estimate needs (machine/perf_mux.h's
 * verdict and threshold, the ones run and show give) or over an unknown
 * number of them: the verdict then rests on figures that can be far off.
 * Exact readings and estimates over enough rotations add nothing.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/compare.h"
#include "lib/json.h"
#include "machine/perf_mux.h"
#include "store/read.h"

/* One run's events that were not on a counter the whole time, with their verdicts. */
struct cmp_mux_run {
	int loaded;		/* tried: the run's values were read (or could not be) */
	unsigned n;
	char (*name)[64];
	struct perf_mux *m;
	char missing[24];	/* why the run's interval is unknown ('' known) */
};

/* Read run ref's scaled events once: each event's least trusted reading (perf_mux_event). */
static int load_run(struct cmp *c, const struct run_ref *ref, struct cmp_mux_run *out)
{
	struct stored_run sr;
	char key[24];
	int ret;

	out->loaded = 1;
	snprintf(key, sizeof(key), "%lld", (long long)ref->id);
	ret = store_load_run(c->db_handle, key, &sr);
	if (ret)
		return ret == -ENOMEM ? ret : -EIO;
	out->name = calloc(sr.res.nevents + 1, sizeof(*out->name));
	out->m = calloc(sr.res.nevents + 1, sizeof(*out->m));
	if (!out->name || !out->m) {
		store_free_run(&sr);
		return -ENOMEM;
	}
	snprintf(out->missing, sizeof(out->missing), "%s", sr.res.mux_interval_missing);
	for (unsigned e = 0; e < sr.res.nevents; e++) {
		struct perf_mux m;

		if (perf_mux_event(&sr.res, e, &m) || m.trust == TRUST_EXACT)
			continue;
		snprintf(out->name[out->n], sizeof(out->name[0]), "%s", sr.res.events[e]);
		out->m[out->n++] = m;
	}
	store_free_run(&sr);
	return 0;
}

/* What one side's runs of row r say: how many few-rotations (and the fewest), how many unknown. */
struct side_mux {
	size_t runs, few, unknown;
	double min_rot;		/* the fewest rotations among the few-rotations runs */
	double min_ratio;	/* the least running/enabled among the unknown runs */
	const char *missing;	/* an unknown run's reason */
};

static int side_mux(struct cmp *c, const struct cmp_row *r, int side, struct side_mux *s)
{
	const struct runset *rs = side ? &c->cand : &c->base;
	struct cmp_mux_run *mr = c->mux[side];

	memset(s, 0, sizeof(*s));
	s->min_rot = s->min_ratio = INFINITY;
	for (size_t i = 0; i < rs->n; i++) {
		const struct run_ref *ref = &rs->run[i];
		int ret;

		/* the row's runs: its cell, and its machine unless compared across machines */
		if (strcmp(ref->cell, r->cell) != 0 || (!c->cross && ref->group != r->group))
			continue;
		if (!mr[i].loaded && (ret = load_run(c, ref, &mr[i])))
			return ret;
		s->runs++;
		for (unsigned k = 0; k < mr[i].n; k++) {
			const struct perf_mux *m = &mr[i].m[k];

			if (strcmp(mr[i].name[k], r->metric) != 0)
				continue;
			if (m->trust == TRUST_FEW_ROTATIONS) {
				s->few++;
				s->min_rot = fmin(s->min_rot, m->rotations);
			} else if (m->trust == TRUST_UNKNOWN) {
				s->unknown++;
				s->min_ratio = fmin(s->min_ratio, m->ratio);
				s->missing = mr[i].missing[0] ? mr[i].missing : "unknown";
			}
		}
	}
	return 0;
}

/* One side's words into f: "baseline estimates scaled from 3.2 rotations (few-rotations) in 2 of 5 runs". */
static void side_words(FILE *f, const char *side, const struct side_mux *s)
{
	if (s->few)
		fprintf(f, "%s estimates scaled from %.1f rotations (few-rotations, under %d) in %zu of %zu "
			"runs", side, s->min_rot, PERF_MUX_MIN_ROTATIONS, s->few, s->runs);
	if (s->few && s->unknown)
		fprintf(f, ", and ");
	if (s->unknown)
		fprintf(f, "%s%sestimates scaled (counted %.0f%% of the time) over an unknown number of "
			"rotations (unknown: multiplexing interval %s) in %zu of %zu runs",
			s->few ? "" : side, s->few ? "" : " ", s->min_ratio * 100, s->missing, s->unknown,
			s->runs);
}

int cmp_row_mux(struct cmp *c, struct cmp_row *r)
{
	struct side_mux s[2];
	size_t *shown, len, n;
	char *buf = NULL;
	FILE *f;
	int ret;

	for (int side = 0; side < 2; side++) {
		if ((ret = side_mux(c, r, side, &s[side])))
			return ret;
		r->mux_few[side] = s[side].few;
		r->mux_unknown[side] = s[side].unknown;
		r->mux_fewest[side] = s[side].few ? s[side].min_rot : NAN;
	}
	if (!s[0].few && !s[0].unknown && !s[1].few && !s[1].unknown)
		return 0;
	f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	if (s[0].few || s[0].unknown)
		side_words(f, "baseline", &s[0]);
	if ((s[0].few || s[0].unknown) && (s[1].few || s[1].unknown))
		fprintf(f, "; ");
	if (s[1].few || s[1].unknown)
		side_words(f, "candidate", &s[1]);
	fclose(f);
	if (!buf)
		return -ENOMEM;
	n = c->nnotes;
	cmp_note(c, "'%s' in cell '%s': %s: treat the verdict with care", r->metric, r->cell, buf);
	free(buf);
	if (c->nnotes == n)
		return -ENOMEM;
	shown = realloc(c->shown, (c->nshown + 1) * sizeof(*shown));
	if (!shown)
		return -ENOMEM;
	c->shown = shown;
	c->shown[c->nshown++] = c->nnotes - 1;
	return 0;
}

void cmp_row_mux_json(struct json *j, const struct cmp_row *r)
{
	static const char *const side[2] = { "baseline", "candidate" };

	if (!r->mux_few[0] && !r->mux_unknown[0] && !r->mux_few[1] && !r->mux_unknown[1])
		return;
	json_obj_open(j, "multiplexing");
	json_u64(j, "min_rotations", PERF_MUX_MIN_ROTATIONS);
	for (int k = 0; k < 2; k++) {
		json_obj_open(j, side[k]);
		json_u64(j, "few_rotations_runs", r->mux_few[k]);
		if (isnan(r->mux_fewest[k]))
			json_null(j, "fewest_rotations");
		else
			json_dbl(j, "fewest_rotations", r->mux_fewest[k]);
		json_u64(j, "unknown_runs", r->mux_unknown[k]);
		json_obj_close(j);
	}
	json_obj_close(j);
}

int cmp_mux_alloc(struct cmp *c)
{
	c->mux[0] = calloc(c->base.n + 1, sizeof(*c->mux[0]));
	c->mux[1] = calloc(c->cand.n + 1, sizeof(*c->mux[1]));
	return c->mux[0] && c->mux[1] ? 0 : -ENOMEM;
}

void cmp_mux_free(struct cmp *c)
{
	size_t n[2] = { c->base.n, c->cand.n };

	for (int side = 0; side < 2; side++) {
		for (size_t i = 0; c->mux[side] && i < n[side]; i++) {
			free(c->mux[side][i].name);
			free(c->mux[side][i].m);
		}
		free(c->mux[side]);
		c->mux[side] = NULL;
	}
}
