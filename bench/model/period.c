/*
 * period.c - exact period skipping for the fast simulator (sim.c): for
 * periodic workloads without random replacement, the core's whole state is
 * compared at round boundaries of its first task (Brent's cycle
 * detection); on a repeat, whole periods are added k times over.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/sim_int.h"

/* Bytes of the canonical state of core c. */
static size_t state_size(const struct fcore *c)
{
	size_t n = 0;

	for (unsigned u = 0; u < c->nlv; u++) {
		size_t e = (size_t)c->lv[u].sets * c->lv[u].ways;

		n += e * (sizeof(uint64_t) + sizeof(uint16_t)) +
		     (size_t)c->lv[u].sets * c->lv[u].uwords * sizeof(uint64_t);
	}
	return n + c->nsd * (sizeof(uint64_t) + 2 * sizeof(unsigned)) +
	       (c->ntasks + 1) * sizeof(uint64_t);
}

/* Write core c's canonical state into buf (state_size bytes). */
static void state_write(const struct fcore *c, unsigned char *buf, uint16_t *order)
{
	unsigned char *p = buf;

	for (unsigned u = 0; u < c->nlv; u++) {
		const struct flevel *l = &c->lv[u];
		size_t e = (size_t)l->sets * l->ways;

		/* the keys, or with a loc table their ids (one to one within a core) */
		for (size_t j = 0; j < e; j++) {
			uint64_t k = l->key ? l->key[j] : l->id[j];

			memcpy(p, &k, sizeof(k));
			p += sizeof(k);
		}
		memcpy(p, l->used, (size_t)l->sets * l->uwords * sizeof(uint64_t));
		p += (size_t)l->sets * l->uwords * sizeof(uint64_t);
		for (size_t set = 0; set < l->sets; set++) {
			level_order(l, set, order);
			memcpy(p, order, l->ways * sizeof(uint16_t));
			p += l->ways * sizeof(uint16_t);
		}
	}
	for (unsigned s = 0; s < c->nsd; s++) {
		unsigned v[2] = { c->sd[s].cur, (unsigned)c->sd[s].idle };
		/* a strand with one task never switches: its quantum changes nothing */
		uint64_t q = c->sd[s].n > 1 ? c->sd[s].qleft : 0;

		memcpy(p, v, sizeof(v));
		p += sizeof(v);
		memcpy(p, &q, sizeof(uint64_t));
		p += sizeof(uint64_t);
	}
	for (unsigned j = 0; j < c->ntasks; j++) {
		const struct ftask *t = &c->t[c->tasks[j]];
		/* position within the round, and whether it has ended */
		uint64_t done = t->init_left - t->left, v;

		if (!t->left)
			v = UINT64_MAX;
		else if (done < c->r->startup)
			v = (1ull << 63) | done;
		else
			v = (done - c->r->startup) % model_round_accesses(c->r);

		memcpy(p, &v, sizeof(v));
		p += sizeof(v);
	}
	{
		uint64_t v = c->spos;	/* where the issue order stands */

		memcpy(p, &v, sizeof(v));
	}
}

/* Skip k whole periods: the counts since the saved state, k times over. */
static void skip_periods(struct fcore *c, struct detect *d)
{
	uint64_t k = UINT64_MAX;

	for (unsigned j = 0; j < c->ntasks; j++) {
		uint64_t left = c->t[c->tasks[j]].left, dl = d->saved_left[j] - left;

		if (dl && (left - 1) / dl < k)
			k = (left - 1) / dl;
	}
	if (k == UINT64_MAX || k == 0)
		return;
	for (unsigned j = 0; j < c->ntasks; j++) {
		struct model_task *now = &c->st->task[c->tasks[j]], *was = &d->saved_st[j];
		struct ftask *t = &c->t[c->tasks[j]];
		uint64_t dl = d->saved_left[j] - t->left;

		c->st->skipped_accesses += k * dl;
		t->left -= k * dl;
		now->switches += k * (now->switches - was->switches);
		for (unsigned u = 0; u <= c->nlv; u++)
			t->hit[u] += k * (t->hit[u] - d->saved_hit[j][u]);
	}
	c->st->period_cycles = c->pos - d->saved_pos;
	c->pos += k * (c->pos - d->saved_pos);
}

/* Before a slot: a checkpoint when the core's first task is at a round boundary. */
void period_check(struct fcore *c, struct detect *d)
{
	const struct ftask *a = &c->t[c->tasks[0]];
	uint64_t done = a->init_left - a->left;

	if (done == d->last_seen)
		return;
	d->last_seen = done;
	if (!a->left || done < c->r->startup || (done - c->r->startup) % model_round_accesses(c->r) ||
	    done == d->last_ck)
		return;
	d->last_ck = done;
	state_write(c, d->now, d->order);
	if (d->have && memcmp(d->now, d->saved, d->size) == 0) {
		skip_periods(c, d);
		d->on = 0;
		return;
	}
	if (++d->lam < d->power && d->have)
		return;
	memcpy(d->saved, d->now, d->size);
	for (unsigned j = 0; j < c->ntasks; j++) {
		d->saved_st[j] = c->st->task[c->tasks[j]];
		memcpy(d->saved_hit[j], c->t[c->tasks[j]].hit, sizeof(d->saved_hit[j]));
		d->saved_left[j] = c->t[c->tasks[j]].left;
	}
	d->saved_pos = c->pos;
	d->have = 1;
	d->power *= 2;
	d->lam = 0;
}

int period_init(struct detect *d, const struct fcore *c)
{
	unsigned maxways = 1;

	for (unsigned u = 0; u < c->nlv; u++)
		if (c->lv[u].ways > maxways)
			maxways = c->lv[u].ways;
	d->power = 1;
	d->last_ck = UINT64_MAX;
	d->last_seen = UINT64_MAX;
	d->size = state_size(c);
	d->saved = malloc(d->size);
	d->now = malloc(d->size);
	d->saved_st = malloc(c->ntasks * sizeof(*d->saved_st));
	d->saved_left = malloc(c->ntasks * sizeof(*d->saved_left));
	d->saved_hit = malloc(c->ntasks * sizeof(*d->saved_hit));
	d->order = malloc(maxways * sizeof(*d->order));
	if (!d->saved || !d->now || !d->saved_st || !d->saved_left || !d->order ||
	    !d->saved_hit)
		return -ENOMEM;
	return 0;
}

void period_free(struct detect *d)
{
	free(d->saved);
	free(d->now);
	free(d->saved_st);
	free(d->saved_left);
	free(d->order);
	free(d->saved_hit);
}
