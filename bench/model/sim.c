/*
 * sim.c - the fast simulator. Same semantics as ref.c (see model.h), with
 * four differences that change no result:
 *  - streams are read in chunks, not one index at a time;
 *  - LRU keeps each set's ways in recency order instead of timestamps, so
 *    the whole TLB state is a canonical byte string;
 *  - for periodic workloads (WL_PERIODIC) without random replacement, each
 *    core's full state (every level, every strand's scheduler state, each
 *    task's position within its round) is compared at round boundaries of
 *    the core's first task (Brent's cycle detection). When a state repeats,
 *    the evolution from it repeats too, so whole periods are skipped by
 *    adding the period's per-task counts k times, for the largest k that
 *    leaves every task at least one access beyond the skipped periods (a
 *    task ending changes the schedule, so it must be simulated); period.c;
 *  - sets wider than 8 ways are searched through a hash index (index.c).
 * Cores share nothing, so each is simulated on its own, start to end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/sim_int.h"

#define SHARED_CTX 0x1fffull
#define CHUNK 512

static uint32_t next_page(struct ftask *t, uint64_t startup)
{
	if (t->startup_left)
		return 0x80000000u + (uint32_t)(startup - t->startup_left--);
	if (t->bpos == t->blen) {
		t->blen = (unsigned)wl_fill(&t->s, t->buf, CHUNK);
		t->bpos = 0;
	}
	return t->buf[t->bpos++];
}

/* Move way w to the front of a set's LRU order. */
static void lru_touch(uint16_t *order, unsigned ways, unsigned w)
{
	unsigned p = 0;

	while (order[p] != w)
		p++;
	memmove(order + 1, order, p * sizeof(*order));
	order[0] = (uint16_t)w;
}

/* Find key0 or key1 in set base of l; returns the way or -1. */
static int find(const struct flevel *l, size_t base, uint64_t key0, uint64_t key1)
{
	const uint64_t *k = l->key + base;

	if (l->use_ix) {
		long s = index_find(&l->ix, l->key, key0);

		if (s < 0 && key1 != key0)
			s = index_find(&l->ix, l->key, key1);
		return s < 0 ? -1 : (int)((size_t)s - base);
	}
	for (unsigned w = 0; w < l->ways; w++)
		if (k[w] == key0 || k[w] == key1)
			return (int)w;
	return -1;
}

/* Choose the way to fill in set base of l. */
static unsigned victim(struct flevel *l, size_t base)
{
	const uint64_t *k = l->key + base;
	unsigned w;

	for (w = 0; w < l->ways; w++)
		if (k[w] == INVALID)
			return w;
	if (l->repl == REPL_LRU)
		return l->order[base + l->ways - 1];
	if (l->repl == REPL_RANDOM)
		return (unsigned)rng_below(&l->rng, l->ways);
	for (w = 0; w < l->ways; w++)
		if (!l->used[base + w])
			return w;
	memset(l->used + base, 0, l->ways);
	return 0;
}

static void access1(struct fcore *c, unsigned i)
{
	struct ftask *t = &c->t[i];
	struct model_task *mt = &c->st->task[i];
	uint64_t page = next_page(t, c->r->startup);
	uint64_t ikey = page < 0x80000000u ? t->ikey : t->pkey;
	uint64_t key0 = t->key0 | page, key1 = t->has1 ? (t->key1 | page) : key0;
	unsigned hit = c->nlv, u;

	mt->accesses++;
	for (u = 0; u < c->nlv; u++) {
		struct flevel *l = &c->lv[u];
		size_t base = (size_t)(page % l->sets) * l->ways;
		int w;

		mt->probes[l->k]++;
		w = find(l, base, key0, key1);
		if (w >= 0) {
			if (l->repl == REPL_LRU)
				lru_touch(l->order + base, l->ways, (unsigned)w);
			else
				l->used[base + w] = 1;
			hit = u;
			break;
		}
		mt->misses[l->k]++;
	}
	if (hit == c->nlv)
		mt->walks++;
	for (u = 0; u < hit; u++) {
		struct flevel *l = &c->lv[u];
		size_t base = (size_t)(page % l->sets) * l->ways;
		unsigned w = victim(l, base);

		if (l->use_ix) {
			if (l->key[base + w] != INVALID)
				index_del(&l->ix, l->key, l->key[base + w]);
			index_add(&l->ix, l->key, ikey | page, base + w);
		}
		l->key[base + w] = ikey | page;
		if (l->repl == REPL_LRU)
			lru_touch(l->order + base, l->ways, w);
		else
			l->used[base + w] = 1;
	}
}

/* Tag none: drop strand s's entries from every level. */
static void flush_strand(struct fcore *c, unsigned s)
{
	for (unsigned u = 0; u < c->nlv; u++) {
		struct flevel *l = &c->lv[u];
		size_t n = (size_t)l->sets * l->ways;

		for (size_t j = 0; j < n; j++) {
			if (l->key[j] != INVALID && (l->key[j] >> 32) == 1 + s) {
				if (l->use_ix)
					index_del(&l->ix, l->key, l->key[j]);
				l->key[j] = INVALID;
				l->used[j] = 0;
			}
		}
	}
}

/* After an access on strand d: end of the quantum or of the task. */
static void after(struct fcore *c, struct fstrand *d)
{
	unsigned i = d->q[d->cur], j, nc = d->cur;

	if (c->t[i].left && d->qleft)
		return;
	d->qleft = c->r->quantum;
	for (j = 1; j <= d->n; j++) {
		nc = (d->cur + j) % d->n;
		if (c->t[d->q[nc]].left)
			break;
	}
	if (j > d->n) {
		d->idle = 1;
		c->nbusy--;
		return;
	}
	if (nc == d->cur)
		return;
	d->cur = nc;
	c->st->task[d->q[nc]].switches++;
	if (c->m->tag == TAG_NONE && c->t[d->q[nc]].proc != c->t[i].proc)
		flush_strand(c, d->s);
}


/* Simulate core c to the end: one access per slot of the issue order. */
static int run_core(struct fcore *c, unsigned cn, int periodic)
{
	struct detect d = { .on = periodic };
	int ret = -ENOMEM;

	c->sched = model_schedule(c->r, cn, c->nsd, &c->slen);
	if (!c->sched)
		goto out;
	if (d.on && period_init(&d, c))
		goto out;
	c->nbusy = c->nsd;
	while (c->nbusy) {
		struct fstrand *sd;
		unsigned i;

		if (d.on)
			period_check(c, &d);
		sd = &c->sd[c->sched[c->spos]];
		if (++c->spos == c->slen)
			c->spos = 0;
		c->pos++;
		if (sd->idle)
			continue;
		i = sd->q[sd->cur];
		access1(c, i);
		c->t[i].left--;
		sd->qleft--;
		after(c, sd);
	}
	ret = 0;
out:
	free(c->sched);
	period_free(&d);
	return ret;
}

/* Set up core c's levels and strands; tasks already placed in core[]/strand[]. */
static int core_init(struct fcore *c, unsigned cn, const unsigned *core, const unsigned *strand)
{
	const struct model_machine *m = c->m;
	const struct model_run *r = c->r;

	c->tasks = malloc(r->ntasks * sizeof(*c->tasks));
	c->sd = calloc(m->strands, sizeof(*c->sd));
	if (!c->tasks || !c->sd)
		return -ENOMEM;
	for (unsigned i = 0; i < r->ntasks; i++)
		if (core[i] == cn)
			c->tasks[c->ntasks++] = i;
	for (unsigned s = 0; s < m->strands; s++) {
		struct fstrand *d = &c->sd[c->nsd];

		d->q = malloc(c->ntasks * sizeof(*d->q) + 1);
		if (!d->q)
			return -ENOMEM;
		d->s = s;
		for (unsigned j = 0; j < c->ntasks; j++)
			if (strand[c->tasks[j]] == s)
				d->q[d->n++] = c->tasks[j];
		d->qleft = r->quantum;
		if (d->n)
			c->nsd++;
		else
			free(d->q);
	}
	for (unsigned k = 0; k < m->nlevels; k++) {
		struct flevel *l = &c->lv[c->nlv];
		size_t e;

		if (!(m->level[k].psz_mask & (1u << r->psz)))
			continue;
		l->k = k;
		l->repl = (unsigned)m->level[k].repl;
		l->ways = m->level[k].ways ? m->level[k].ways : m->level[k].entries;
		l->sets = m->level[k].entries / l->ways;
		e = (size_t)l->sets * l->ways;
		l->key = malloc(e * sizeof(*l->key));
		l->used = calloc(e, 1);
		l->order = malloc(e * sizeof(*l->order));
		c->nlv++;
		if (!l->key || !l->used || !l->order)
			return -ENOMEM;
		l->use_ix = l->ways > 8;
		if (l->use_ix && index_init(&l->ix, e))
			return -ENOMEM;
		for (size_t j = 0; j < e; j++) {
			l->key[j] = INVALID;
			l->order[j] = (uint16_t)(j % l->ways);
		}
		rng_seed(&l->rng, r->seed, 0x7100 + (uint64_t)cn * MODEL_LEVELS + k);
	}
	return 0;
}

static void core_free(struct fcore *c)
{
	for (unsigned u = 0; u < c->nlv; u++) {
		free(c->lv[u].key);
		free(c->lv[u].used);
		free(c->lv[u].order);
		index_free(&c->lv[u].ix);
	}
	for (unsigned s = 0; s < c->nsd; s++)
		free(c->sd[s].q);
	free(c->sd);
	free(c->tasks);
}

/* Open task i's stream and set its tags. */
static int task_init(struct ftask *t, const struct model_machine *m, const struct model_run *r,
		     unsigned i, unsigned strand)
{
	struct wl_params p = { .pages = r->pages, .rounds = r->rounds, .seed = r->seed, .task = i,
			       .ntasks = r->ntasks, .zipf_theta = r->zipf_theta };
	uint64_t tag0;

	t->proc = r->threads ? 0 : i;
	t->left = t->init_left = r->startup + r->pages * r->rounds;
	t->startup_left = r->startup;
	tag0 = m->tag == TAG_NONE ? 1 + strand : 1 + (uint64_t)t->proc;
	t->key0 = t->ikey = t->pkey = tag0 << 32;
	if (m->tag == TAG_CTX2 && r->sharedctx) {
		t->has1 = 1;
		t->key1 = t->ikey = SHARED_CTX << 32;
	}
	t->buf = malloc(CHUNK * sizeof(*t->buf));
	if (!t->buf)
		return -ENOMEM;
	return wl_open(&t->s, r->ops, &p);
}

int model_simulate(const struct model_machine *m, const struct model_run *r,
		   struct model_stats *st)
{
	unsigned *core = NULL, *strand = NULL;
	struct ftask *t = NULL;
	int ret = -ENOMEM, periodic;
	char err[160];

	memset(st, 0, sizeof(*st));
	if (model_check(m, r, err, sizeof(err)))
		return -EINVAL;
	periodic = !!(r->ops->flags & WL_PERIODIC);
	for (unsigned k = 0; k < m->nlevels; k++)
		if ((m->level[k].psz_mask & (1u << r->psz)) && m->level[k].repl == REPL_RANDOM)
			periodic = 0;
	st->ntasks = r->ntasks;
	st->task = calloc(r->ntasks, sizeof(*st->task));
	t = calloc(r->ntasks, sizeof(*t));
	core = malloc(r->ntasks * sizeof(*core));
	strand = malloc(r->ntasks * sizeof(*strand));
	if (!st->task || !t || !core || !strand)
		goto out;
	model_place_tasks(m, r, core, strand);
	for (unsigned i = 0; i < r->ntasks; i++) {
		st->task[i].core = core[i];
		st->task[i].strand = strand[i];
		ret = task_init(&t[i], m, r, i, strand[i]);
		if (ret)
			goto out;
	}
	for (unsigned cn = 0; cn < m->cores; cn++) {
		struct fcore c = { .m = m, .r = r, .st = st, .t = t };

		ret = core_init(&c, cn, core, strand);
		if (!ret && c.ntasks)
			ret = run_core(&c, cn, periodic);
		core_free(&c);
		if (ret)
			goto out;
	}
	st->simulated_accesses = model_total_accesses(st) - st->skipped_accesses;
	ret = 0;
out:
	if (t) {
		for (unsigned i = 0; i < r->ntasks; i++) {
			wl_close(&t[i].s);
			free(t[i].buf);
		}
	}
	free(t);
	free(core);
	free(strand);
	if (ret)
		model_stats_free(st);
	return ret;
}
