/*
 * sim.c - the fast simulator. Same semantics as ref.c (see model.h), with
 * these differences that change no result:
 *  - streams are read in blocks of CHUNK, not one index at a time;
 *  - a key is found without a scan: every key a core can make has a dense
 *    id, and the core's loc table says for each id where it sits in each
 *    level (one row, one cache line, per access); beyond model_loc_limit
 *    a hash index per level does the same (level.h, index.h);
 *  - an access is looked up by the one key it would be filled with (the
 *    shared context's for area pages, the task's own for start-up pages),
 *    which is the only key "context 0 or 1" can match;
 *  - LRU keeps each set's recency order (a word of 4-bit way numbers for
 *    narrow sets, a linked list for wide ones) instead of timestamps, so
 *    the whole TLB state is a canonical byte string;
 *  - counts are kept per task as "first hit at level u" and turned into
 *    probes, misses and walks at the end;
 *  - between the end of one quantum or task and the next, whole issue
 *    periods run without the end-of-quantum checks (run_quiet);
 *  - for periodic workloads (WL_PERIODIC) without random replacement, each
 *    core's full state (every level, every strand's scheduler state, each
 *    task's position within its round) is compared at round boundaries of
 *    the core's first task (Brent's cycle detection). When a state repeats,
 *    the evolution from it repeats too, so whole periods are skipped by
 *    adding the period's per-task counts k times, for the largest k that
 *    leaves every task at least one access beyond the skipped periods (a
 *    task ending changes the schedule, so it must be simulated); period.c.
 * Cores share nothing, so each is simulated on its own, start to end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/sim_int.h"

#define SHARED_CTX 0x1fffull

uint64_t model_loc_limit = 1u << 24;
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
	for (u = 0; u < c->nlv; u++) {
		struct flevel *l = &c->lv[u];
		long slot;

		set[u] = level_set(l, page);
		slot = level_find(l, key, id);
		if (slot >= 0) {
			level_use(l, set[u], (unsigned)((size_t)slot - set[u] * l->ways));
			hit = u;
			break;
		}
	}
	t->hit[hit]++;
	for (u = 0; u < hit; u++)
		level_fill(&c->lv[u], set[u], key, id);
}

/*
 * access1() for a core with a loc table: the row of the key's id tells
 * at once which levels hold it, so only the level that hits and the levels
 * filled are touched.
 */
static void access_loc(struct fcore *c, unsigned i)
{
	struct ftask *t = &c->t[i];
	uint32_t page = next_page(t, c->r->startup), id, *row;
	const unsigned nlv = c->nlv;
	uint64_t key;
	unsigned hit;

	if (page < 0x80000000u) {
		key = t->ikey | page;
		id = t->idbase + page;
	} else {
		key = t->pkey | page;
		id = t->pidbase + (page - 0x80000000u);
	}
	row = c->loc + (size_t)id * nlv;
	for (hit = 0; hit < nlv; hit++)
		if (row[hit])
			break;
	t->hit[hit]++;
	if (hit < nlv) {
		struct flevel *l = &c->lv[hit];
		size_t set = level_set(l, page);

		level_use(l, set, (unsigned)(row[hit] - 1 - set * l->ways));
	}
	for (unsigned u = 0; u < hit; u++) {
		struct flevel *l = &c->lv[u];
		size_t set = level_set(l, page);
		uint32_t inv = l->wide ? 0 : ~l->vmask[set] & l->full;
		unsigned w;
		size_t j;

		if (!l->wide && !inv && l->repl == REPL_LRU) {
			/* a full narrow LRU set: the least recent way goes first */
			uint64_t order = l->order[set];

			w = (unsigned)(order >> (4 * (l->ways - 1))) & 0xf;
			l->order[set] = level_nibble_rotate(l, order, w);
			j = set * l->ways + w;
			c->loc[(size_t)l->id[j] * nlv + u] = 0;
		} else {
			w = level_victim(l, set);
			j = set * l->ways + w;
			if (l->key[j] != INVALID)
				c->loc[(size_t)l->id[j] * nlv + u] = 0;
			level_use(l, set, w);
		}
		row[u] = (uint32_t)j + 1;
		l->key[j] = key;
		l->id[j] = id;
	}
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


/*
 * Slots that can be issued without any strand ending its quantum or its
 * task: whole issue periods, in each of which a busy strand issues at most
 * `per` accesses, while every busy strand has more than that left.
 */
static uint64_t quiet_slots(const struct fcore *c)
{
	uint64_t least = UINT64_MAX, per = c->r->jitter ? c->r->jitter : 1;

	for (unsigned s = 0; s < c->nsd; s++) {
		const struct fstrand *d = &c->sd[s];
		uint64_t left = c->t[d->q[d->cur]].left;

		if (d->idle)
			continue;
		if (d->qleft < least)
			least = d->qleft;
		if (left < least)
			least = left;
	}
	return least == UINT64_MAX ? 0 : (least - 1) / per * c->slen;
}

/*
 * Issue n slots (whole issue periods) in which no strand's quantum or task
 * ends (quiet_slots): every slot runs the same task as in the first
 * period, so the slots' tasks are looked up once, and each strand's
 * counters drop by its share at the end.
 */
static void run_quiet(struct fcore *c, uint64_t n)
{
	uint64_t periods = n / c->slen, per = c->r->jitter ? c->r->jitter : 1;

	if (!periods)
		return;
	for (unsigned s = 0; s < c->slen; s++) {
		const struct fstrand *sd = &c->sd[c->sched[(c->spos + s) % c->slen]];

		c->slot_task[s] = sd->idle ? -1 : (int)sd->q[sd->cur];
	}
	for (uint64_t p = 0; p < periods; p++) {
		for (unsigned s = 0; s < c->slen; s++) {
			int i = c->slot_task[s];

			if (i < 0)
				continue;
			if (c->loc)
				access_loc(c, (unsigned)i);
			else
				access1(c, (unsigned)i);
		}
	}
	for (unsigned s = 0; s < c->nsd; s++) {
		struct fstrand *sd = &c->sd[s];

		if (sd->idle)
			continue;
		sd->qleft -= periods * per;
		c->t[sd->q[sd->cur]].left -= periods * per;
	}
	c->pos += periods * c->slen;
}

#define PROGRESS_SLOTS (1u << 20)

/* Tell the progress callback how many accesses are accounted so far. */
static void report(const struct fcore *c)
{
	uint64_t done = c->done_before;

	if (!c->progress)
		return;
	for (unsigned j = 0; j < c->ntasks; j++)
		done += c->t[c->tasks[j]].init_left - c->t[c->tasks[j]].left;
	c->progress(c->progress_arg, done, c->total);
}

/*
 * Simulate core c to the end: one access per slot of the issue order.
 * With period detection on, every slot is checked; otherwise runs of
 * quiet slots go through run_quiet() without the end-of-quantum checks.
 */
static int run_core(struct fcore *c, unsigned cn, int periodic)
{
	struct detect d = { .on = periodic };
	uint64_t next_report = PROGRESS_SLOTS;
	int ret = -ENOMEM;

	c->sched = model_schedule(c->r, cn, c->nsd, &c->slen);
	c->slot_task = malloc((c->slen ? c->slen : 1) * sizeof(*c->slot_task));
	if (!c->sched || !c->slot_task)
		goto out;
	if (d.on && period_init(&d, c))
		goto out;
	c->nbusy = c->nsd;
	while (c->nbusy) {
		struct fstrand *sd;
		unsigned i;

		if (c->pos >= next_report) {
			report(c);
			next_report = c->pos + PROGRESS_SLOTS;
		}
		if (d.on) {
			period_check(c, &d);
		} else {
			uint64_t n = quiet_slots(c), cap = PROGRESS_SLOTS > c->slen ? PROGRESS_SLOTS : c->slen;

			/* at most cap slots at a time, so progress is reported */
			run_quiet(c, n < cap ? n : cap);
			if (n > cap)
				continue;
		}
		sd = &c->sd[c->sched[c->spos]];
		if (++c->spos == c->slen)
			c->spos = 0;
		c->pos++;
		if (sd->idle)
			continue;
		i = sd->q[sd->cur];
		if (c->loc)
			access_loc(c, i);
		else
			access1(c, i);
		c->t[i].left--;
		sd->qleft--;
		after(c, sd);
	}
	ret = 0;
out:
	free(c->sched);
	free(c->slot_task);
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
	unsigned nlv = 0;

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
	for (unsigned k = 0; k < m->nlevels; k++)
		if (m->level[k].psz_mask & (1u << r->psz))
			nlv++;
	nids = number_ids(c);
	if (nids <= model_loc_limit / nlv) {
		c->loc = calloc(nids * nlv, sizeof(*c->loc));
		if (!c->loc)
			return -ENOMEM;
	}
	for (unsigned k = 0; k < m->nlevels; k++) {
		if (!(m->level[k].psz_mask & (1u << r->psz)))
			continue;
		if (level_init(&c->lv[c->nlv], m, k, cn, r->seed, c->loc ? c->loc + c->nlv : NULL, nlv))
			return -ENOMEM;
		c->nlv++;
	}
	return 0;
}

static void core_free(struct fcore *c)
{
	for (unsigned u = 0; u < c->nlv; u++)
		level_free(&c->lv[u]);
	free(c->loc);
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

/* Task t's accesses, probes and misses per level, and walks, from where
 * its accesses first hit (ftask.hit, over the levels holding the page size). */
static void derive_counts(const struct model_machine *m, const struct model_run *r,
			  const struct ftask *t, struct model_task *mt)
{
	uint64_t reach;
	unsigned u = 0;

	mt->accesses = reach = t->init_left - t->left;
	for (unsigned k = 0; k < m->nlevels; k++) {
		if (!(m->level[k].psz_mask & (1u << r->psz)))
			continue;
		mt->probes[k] = reach;
		reach -= t->hit[u++];
		mt->misses[k] = reach;
	}
	mt->walks = reach;
}

int model_simulate(const struct model_machine *m, const struct model_run *r,
		   struct model_stats *st)
{
	return model_simulate_progress(m, r, st, NULL, NULL);
}

int model_simulate_progress(const struct model_machine *m, const struct model_run *r,
			    struct model_stats *st, model_progress_fn *fn, void *arg)
{
	uint64_t done = 0;
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
		struct fcore c = { .m = m, .r = r, .st = st, .t = t, .progress = fn,
				   .progress_arg = arg, .done_before = done,
				   .total = (r->startup + r->pages * r->rounds) * r->ntasks };

		ret = core_init(&c, cn, core, strand);
		if (!ret && c.ntasks)
			ret = run_core(&c, cn, periodic);
		for (unsigned j = 0; j < c.ntasks; j++)
			done += t[c.tasks[j]].init_left;
		core_free(&c);
		if (ret)
			goto out;
	}
	for (unsigned i = 0; i < r->ntasks; i++)
		derive_counts(m, r, &t[i], &st->task[i]);
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
