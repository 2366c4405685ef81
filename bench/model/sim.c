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

/*
 * One access of task i: probe the levels in order, fill those that missed.
 * An entry is looked up by the one key it would be filled with: with a
 * shared context every area entry carries the shared tag and every
 * start-up entry the task's own, so matching "context 0 or 1" finds
 * nothing more.
 */
static void access1(struct fcore *c, unsigned i)
{
	struct ftask *t = &c->t[i];
	struct model_task *mt = &c->st->task[i];
	uint32_t page = next_page(t, c->r->startup), id;
	uint64_t key;
	size_t set[MODEL_LEVELS];
	unsigned hit = c->nlv, u;

	if (page < 0x80000000u) {
		key = t->ikey | page;
		id = t->idbase + page;
	} else {
		key = t->pkey | page;
		id = t->pidbase + (page - 0x80000000u);
	}
	mt->accesses++;
	for (u = 0; u < c->nlv; u++) {
		struct flevel *l = &c->lv[u];
		long slot;

		set[u] = level_set(l, page);
		mt->probes[l->k]++;
		slot = level_find(l, key, id);
		if (slot >= 0) {
			level_use(l, set[u], (unsigned)((size_t)slot - set[u] * l->ways));
			hit = u;
			break;
		}
		mt->misses[l->k]++;
	}
	if (hit == c->nlv)
		mt->walks++;
	for (u = 0; u < hit; u++)
		level_fill(&c->lv[u], set[u], key, id);
}

/* Tag none: drop strand s's entries from every level. */
static void flush_strand(struct fcore *c, unsigned s)
{
	for (unsigned u = 0; u < c->nlv; u++)
		level_flush_tag(&c->lv[u], 1 + (uint64_t)s);
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

/*
 * Give every key core c's tasks can make a dense id: the distinct tags of
 * the core (in order of first use) times span pages, the area's pages
 * first, then the start-up pages. Sets each task's id bases; returns the
 * number of ids.
 */
static uint64_t number_ids(struct fcore *c)
{
	uint64_t span = c->r->pages + c->r->startup, ntags = 0;
	uint64_t *tags = malloc(2 * (c->ntasks + 1) * sizeof(*tags));

	if (!tags)
		return UINT64_MAX;	/* too many for loc: the levels use the hash index */
	for (unsigned j = 0; j < c->ntasks; j++) {
		struct ftask *t = &c->t[c->tasks[j]];
		uint64_t want[2] = { t->ikey >> 32, t->pkey >> 32 }, slot[2];

		for (unsigned h = 0; h < 2; h++) {
			for (slot[h] = 0; slot[h] < ntags && tags[slot[h]] != want[h]; slot[h]++)
				;
			if (slot[h] == ntags)
				tags[ntags++] = want[h];
		}
		t->idbase = (uint32_t)(slot[0] * span);
		t->pidbase = (uint32_t)(slot[1] * span + c->r->pages);
	}
	free(tags);
	return ntags * span;
}

/* Set up core c's levels and strands; tasks already placed in core[]/strand[]. */
static int core_init(struct fcore *c, unsigned cn, const unsigned *core, const unsigned *strand)
{
	const struct model_machine *m = c->m;
	const struct model_run *r = c->r;
	uint64_t nids;

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
	nids = number_ids(c);
	for (unsigned k = 0; k < m->nlevels; k++) {
		if (!(m->level[k].psz_mask & (1u << r->psz)))
			continue;
		if (level_init(&c->lv[c->nlv++], m, k, cn, r->seed, nids))
			return -ENOMEM;
	}
	return 0;
}

static void core_free(struct fcore *c)
{
	for (unsigned u = 0; u < c->nlv; u++)
		level_free(&c->lv[u]);
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
