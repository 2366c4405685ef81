/*
 * timed.c - the timed engine (timed.h): the reference's levels (one
 * access at a time, LRU by timestamps, NRU used bits, seeded random),
 * with each level's entries also found through a small hash of (tag,
 * page), and strands that advance in cycles. Cores are simulated one
 * after another: they share nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/timed.h"

#define SHARED_CTX 0x1fff	/* the shared context, as in ref.c */
#define KERNEL_CTX 0		/* the kernel's: no task's tag (1 + proc) */
#define KERNEL_PAGE0 0xe0000000u	/* kernel page j is key KERNEL_PAGE0 + j, set of j */

struct tentry {
	int valid, used;
	uint32_t tag, page;
	uint64_t stamp;
};

/* One level of a core (or the partition of the run's size): its sets,
 * and a hash of (tag, page) -> 1 + entry index, 0 empty. An entry's set
 * depends on its page only, so a key is in at most one entry. */
struct tlevel {
	unsigned sets, ways, hmask;
	struct tentry *e;
	uint32_t *h;
	struct rng rng;
};

struct tpend {		/* a fill made when its access completes */
	int on, walk;
	uint64_t at;
	uint32_t page, setpage, itag;
	unsigned upto;	/* fill the held levels below this one */
};

struct tstrand {
	unsigned s, *q, n, cur;	/* its tasks, in index order; the running one */
	uint64_t qleft, t, next_tick;
	unsigned tick_left;	/* kernel accesses of the running handler still to make */
	int done;
	struct tpend p;
};

struct ttask {
	struct wl_stream s;
	uint64_t left, startup_left;
	uint32_t page, proc;
	unsigned word;
};

struct tx {
	const struct model_machine *m;
	const struct model_run *r;
	const struct model_timing *tm;
	struct model_stats *st;
	struct model_timed_stats *ts;
	struct ttask *t;
	struct tlevel lv[MODEL_LEVELS];	/* the current core's */
	int held[MODEL_LEVELS];	/* level k holds the run's size */
	unsigned shift[MODEL_LEVELS];
	struct tstrand *sd;
	unsigned nsd;
	uint64_t clock;
};

static unsigned hslot(uint32_t tag, uint32_t page, unsigned mask)
{
	return (unsigned)(((((uint64_t)tag << 32) | page) * 0x9e3779b97f4a7c15ull) >> 40) & mask;
}

/* The entry index of (tag, page) in l, or -1. */
static long hfind(const struct tlevel *l, uint32_t tag, uint32_t page)
{
	for (unsigned i = hslot(tag, page, l->hmask); l->h[i]; i = (i + 1) & l->hmask) {
		const struct tentry *e = &l->e[l->h[i] - 1];

		if (e->tag == tag && e->page == page)
			return (long)l->h[i] - 1;
	}
	return -1;
}

static void hinsert(struct tlevel *l, unsigned idx)
{
	unsigned i = hslot(l->e[idx].tag, l->e[idx].page, l->hmask);

	while (l->h[i])
		i = (i + 1) & l->hmask;
	l->h[i] = idx + 1;
}

/* Remove entry idx from the hash (linear probing, backward shift). */
static void hremove(struct tlevel *l, unsigned idx)
{
	unsigned j = hslot(l->e[idx].tag, l->e[idx].page, l->hmask), k;

	while (l->h[j] != idx + 1)
		j = (j + 1) & l->hmask;
	l->h[j] = 0;
	for (k = (j + 1) & l->hmask; l->h[k]; k = (k + 1) & l->hmask) {
		const struct tentry *e = &l->e[l->h[k] - 1];

		if (((k - hslot(e->tag, e->page, l->hmask)) & l->hmask) >= ((k - j) & l->hmask)) {
			l->h[j] = l->h[k];
			l->h[k] = 0;
			j = k;
		}
	}
}

/* The way to fill in one set (ref.c's rule). */
static unsigned victim(struct tlevel *l, struct tentry *set, int repl)
{
	unsigned w, best = 0;

	for (w = 0; w < l->ways; w++)
		if (!set[w].valid)
			return w;
	if (repl == REPL_RANDOM)
		return (unsigned)rng_below(&l->rng, l->ways);
	for (w = 1; repl == REPL_LRU && w < l->ways; w++)
		best = set[w].stamp < set[best].stamp ? w : best;
	if (repl == REPL_LRU)
		return best;
	for (w = 0; w < l->ways; w++)
		if (!set[w].used)
			return w;
	for (w = 0; w < l->ways; w++)
		set[w].used = 0;
	return 0;
}

static size_t set_base(const struct tx *x, unsigned k, uint32_t setpage)
{
	const struct tlevel *l = &x->lv[k];

	return (size_t)model_set_of((uint64_t)setpage << x->shift[k], l->sets, x->m->level[k].hashed) * l->ways;
}

/* Apply a completed access's fill: every held level above p->upto. */
static void fill(struct tx *x, const struct tpend *p)
{
	for (unsigned k = 0; k < p->upto; k++) {
		struct tlevel *l = &x->lv[k];
		long i;
		unsigned w;
		size_t b;

		if (!x->held[k])
			continue;
		i = hfind(l, p->itag, p->page);
		if (i < 0) {
			b = set_base(x, k, p->setpage);
			w = victim(l, &l->e[b], x->m->level[k].repl);
			if (l->e[b + w].valid)
				hremove(l, (unsigned)(b + w));
			l->e[b + w] = (struct tentry){ .valid = 1, .tag = p->itag, .page = p->page };
			i = (long)(b + w);
			hinsert(l, (unsigned)i);
		}
		l->e[i].stamp = ++x->clock;
		l->e[i].used = 1;
	}
}

/* Apply every pending fill completed by cycle t, in order of completion
 * (ties: the lower strand). */
static void apply_due(struct tx *x, uint64_t t)
{
	for (;;) {
		struct tstrand *best = NULL;

		for (unsigned j = 0; j < x->nsd; j++) {
			struct tstrand *d = &x->sd[j];

			if (d->p.on && d->p.at <= t && (!best || d->p.at < best->p.at))
				best = d;
		}
		if (!best)
			return;
		best->p.on = 0;
		fill(x, &best->p);
	}
}

/* The next user page of task i (start-up, then its stream with --words). */
static void next_page(struct tx *x, struct ttask *t, uint32_t *page, uint32_t *setpage)
{
	if (t->startup_left) {
		*page = *setpage = MODEL_STARTUP_PAGE0 + (uint32_t)(x->r->startup - t->startup_left);
		t->startup_left--;
		return;
	}
	unsigned words = x->r->words > 1 ? x->r->words : 1, shift = model_words_shift(x->m, x->r);

	if (t->word == 0)
		wl_fill(&t->s, &t->page, 1);
	*page = *setpage = (t->page << shift) + (uint32_t)(((uint64_t)t->word << shift) / words);
	t->word = (t->word + 1) % words;
}

/* One access of strand d: a user one of task i, or a kernel one (page j). */
static void access1(struct tx *x, struct tstrand *d, unsigned i, int kernel, uint32_t j)
{
	const struct model_machine *m = x->m;
	struct model_task *mt = &x->st->task[i];
	struct model_timed_task *tt = &x->ts->task[i];
	uint32_t page, setpage, tag0, tag1 = 0, itag;
	int has1 = 0, hit = -1, first = -1;
	uint64_t cost = x->tm->access_cycles;

	if (kernel) {
		page = KERNEL_PAGE0 + j;
		setpage = j;
		tag0 = itag = KERNEL_CTX;
	} else {
		next_page(x, &x->t[i], &page, &setpage);
		tag0 = itag = 1 + x->t[i].proc;
		if (m->tag == TAG_CTX2 && x->r->sharedctx) {
			tag1 = SHARED_CTX;
			has1 = 1;
			if (page < MODEL_STARTUP_PAGE0)
				itag = SHARED_CTX;
		}
	}
	for (unsigned k = 0; k < m->nlevels && hit < 0; k++) {
		long e;

		if (!x->held[k])
			continue;
		if (first < 0)
			first = (int)k;
		e = hfind(&x->lv[k], tag0, page);
		if (e < 0 && has1)
			e = hfind(&x->lv[k], tag1, page);
		if (e >= 0) {
			x->lv[k].e[e].stamp = ++x->clock;
			x->lv[k].e[e].used = 1;
			hit = (int)k;
		}
	}
	if (hit < 0 && x->tm->inflight == INFLIGHT_WAIT) {
		for (unsigned o = 0; o < x->nsd; o++) {
			const struct tpend *p = &x->sd[o].p;

			if (p->on && p->walk && p->page == page && (p->itag == tag0 || (has1 && p->itag == tag1))) {
				tt->merged++;	/* it ends with the walk, not before its own access */
				tt->stall_cycles += (p->at > d->t + cost ? p->at - d->t : cost) - cost;
				(kernel ? &tt->tick_accesses : &mt->accesses)[0]++;
				d->t = p->at > d->t + cost ? p->at : d->t + cost;
				return;
			}
		}
	}
	/* counters: the user's in mt, a handler's apart */
	for (unsigned k = 0; k < m->nlevels; k++) {
		if (!x->held[k] || (hit >= 0 && k > (unsigned)hit))
			continue;
		if (kernel) {
			tt->tick_misses += (int)k == first && hit != first;
			continue;
		}
		mt->probes[k]++;
		mt->misses[k] += (int)k != hit;
	}
	(kernel ? &tt->tick_accesses : &mt->accesses)[0]++;
	(kernel ? &tt->tick_walks : &mt->walks)[0] += hit < 0;
	if (hit > first)
		cost += (uint64_t)(m->level[hit].hit_cycles + 0.999999);
	if (hit < 0)
		cost += x->tm->walk_cycles;
	tt->stall_cycles += cost - x->tm->access_cycles;
	if (hit != first)
		d->p = (struct tpend){ .on = 1, .walk = hit < 0, .at = d->t + cost, .page = page,
				       .setpage = setpage, .itag = itag,
				       .upto = hit < 0 ? m->nlevels : (unsigned)hit };
	d->t += cost;
}

/* After a user access on d: end of its quantum or of its task. */
static void after(struct tx *x, struct tstrand *d)
{
	unsigned i = d->q[d->cur], j, nc = d->cur;

	if (x->t[i].left && d->qleft)
		return;
	d->qleft = x->r->quantum;
	for (j = 1; j <= d->n; j++) {
		nc = (d->cur + j) % d->n;
		if (x->t[d->q[nc]].left)
			break;
	}
	if (j > d->n) {
		d->done = 1;
		return;
	}
	if (nc != d->cur) {
		d->cur = nc;
		x->st->task[d->q[nc]].switches++;
	}
}

static int tick_due(const struct tx *x, const struct tstrand *d)
{
	return x->tm->hz && (unsigned __int128)d->t * x->tm->hz >=
			    (unsigned __int128)d->next_tick * x->tm->cpu_hz;
}

/* Run one core's strands to the end: the earliest clock goes first. */
static void run_core(struct tx *x)
{
	for (;;) {
		struct tstrand *d = NULL;

		for (unsigned j = 0; j < x->nsd; j++) {
			struct tstrand *e = &x->sd[j];

			if ((!e->done || e->tick_left || tick_due(x, e)) && (!d || e->t < d->t))
				d = e;
		}
		if (!d)
			break;
		apply_due(x, d->t);
		unsigned i = d->q[d->cur];

		if (!d->tick_left && tick_due(x, d)) {
			d->next_tick++;
			x->ts->task[i].ticks++;
			d->tick_left = x->tm->tick_entries;
			continue;
		}
		if (d->tick_left) {
			access1(x, d, i, 1, x->tm->tick_entries - d->tick_left);
			d->tick_left--;
			continue;
		}
		access1(x, d, i, 0, 0);
		x->ts->task[i].end_cycle = d->t;
		x->t[i].left--;
		d->qleft--;
		after(x, d);
	}
	for (unsigned j = 0; j < x->nsd; j++)
		if (x->sd[j].t > x->ts->cycles)
			x->ts->cycles = x->sd[j].t;
}

/* Empty levels for core c: each held level's partition of the run's size. */
static int alloc_levels(struct tx *x, unsigned c)
{
	for (unsigned k = 0; k < x->m->nlevels; k++) {
		const struct model_level *lv = &x->m->level[k];
		struct tlevel *l = &x->lv[k];
		unsigned hs = 1;

		if (!x->held[k])
			continue;
		l->sets = model_level_sets(lv);
		l->ways = model_level_ways(lv, x->r->psz);
		while (hs < 2 * l->sets * l->ways)
			hs <<= 1;
		l->hmask = hs - 1;
		l->e = calloc((size_t)l->sets * l->ways, sizeof(*l->e));
		l->h = calloc(hs, sizeof(*l->h));
		if (!l->e || !l->h)
			return -ENOMEM;
		rng_seed(&l->rng, x->r->seed, 0x7100 + (uint64_t)c * MODEL_LEVELS + k);
	}
	return 0;
}

/* Core c's strands that have tasks, each with its tasks in index order. */
static int core_strands(struct tx *x, unsigned c, const unsigned *core, const unsigned *strand)
{
	x->nsd = 0;
	for (unsigned s = 0; s < x->m->strands; s++) {
		struct tstrand *d = &x->sd[x->nsd];

		*d = (struct tstrand){ .s = s, .qleft = x->r->quantum, .next_tick = 1 };
		for (unsigned i = 0; i < x->r->ntasks; i++)
			if (core[i] == c && strand[i] == s)
				d->n++;
		if (!d->n)
			continue;
		if (!(d->q = malloc(d->n * sizeof(*d->q))))
			return -ENOMEM;
		d->n = 0;
		for (unsigned i = 0; i < x->r->ntasks; i++)
			if (core[i] == c && strand[i] == s)
				d->q[d->n++] = i;
		x->nsd++;
	}
	return 0;
}

int model_timed_check(const struct model_machine *m, const struct model_run *r, const struct model_timing *tm,
		      char *err, size_t errlen)
{
	const char *why = NULL;

	if (model_check(m, r, err, errlen))
		return -EINVAL;
	if (r->jitter)
		why = "--timing takes the issue order from the timing: --jitter must be 0";
	else if (r->heap_pages)
		why = "--timing does not model a heap";
	else if (m->tag == TAG_NONE)
		why = "--timing does not model tag none's flushes";
	else if (!tm->access_cycles)
		why = "--access-cycles must be at least 1";
	else if (tm->hz && (!tm->cpu_hz || tm->hz > tm->cpu_hz))
		why = "--hz needs a clock of at least hz cycles per second";
	if (why)
		snprintf(err, errlen, "%s", why);
	return why ? -EINVAL : 0;
}

int model_timed(const struct model_machine *m, const struct model_run *r, const struct model_timing *tm,
		struct model_stats *st, struct model_timed_stats *ts, char *err, size_t errlen)
{
	struct tx x = { .m = m, .r = r, .tm = tm, .st = st, .ts = ts };
	unsigned *core = NULL, *strand = NULL;
	int ret;

	memset(st, 0, sizeof(*st));
	memset(ts, 0, sizeof(*ts));
	ret = model_timed_check(m, r, tm, err, errlen);
	if (ret)
		return ret;
	ret = -ENOMEM;
	st->ntasks = ts->ntasks = r->ntasks;
	st->task = calloc(r->ntasks, sizeof(*st->task));
	ts->task = calloc(r->ntasks, sizeof(*ts->task));
	x.t = calloc(r->ntasks, sizeof(*x.t));
	x.sd = calloc(m->strands, sizeof(*x.sd));
	core = malloc(r->ntasks * sizeof(*core));
	strand = malloc(r->ntasks * sizeof(*strand));
	if (!st->task || !ts->task || !x.t || !x.sd || !core || !strand)
		goto out;
	for (unsigned k = 0; k < m->nlevels; k++) {
		x.held[k] = !!(m->level[k].psz_mask & (1u << r->psz));
		x.shift[k] = r->words > 1 ? 0 : model_held_shift(&m->level[k], r->psz);
	}
	model_place_tasks(m, r, core, strand);
	for (unsigned i = 0; i < r->ntasks; i++) {
		struct wl_params p = { .pages = r->pages, .rounds = r->rounds, .seed = r->seed,
				       .task = i, .ntasks = r->ntasks, .args = &r->wl };

		st->task[i].core = core[i];
		st->task[i].strand = strand[i];
		x.t[i].proc = r->threads ? 0 : i;
		x.t[i].left = model_task_accesses(r);
		x.t[i].startup_left = r->startup;
		if ((ret = wl_open(&x.t[i].s, r->ops, &p)))
			goto out;
	}
	for (unsigned c = 0; c < m->cores; c++) {
		ret = alloc_levels(&x, c);
		if (!ret)
			ret = core_strands(&x, c, core, strand);
		if (!ret)
			run_core(&x);
		for (unsigned j = 0; j < x.nsd; j++)
			free(x.sd[j].q);
		for (unsigned k = 0; k < MODEL_LEVELS; k++) {
			free(x.lv[k].e);
			free(x.lv[k].h);
			x.lv[k] = (struct tlevel){ 0 };
		}
		if (ret)
			goto out;
	}
	st->simulated_accesses = model_total_accesses(st);
out:
	for (unsigned i = 0; x.t && i < r->ntasks; i++)
		wl_close(&x.t[i].s);
	free(x.t);
	free(x.sd);
	free(core);
	free(strand);
	if (ret) {
		model_stats_free(st);
		model_timed_free(ts);
		if (ret == -ENOMEM)
			snprintf(err, errlen, "out of memory");
	}
	return ret;
}

void model_timed_free(struct model_timed_stats *ts)
{
	free(ts->task);
	ts->task = NULL;
}
