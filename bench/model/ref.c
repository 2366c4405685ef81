/*
 * ref.c - the brute-force reference simulator. Deliberately simple: one
 * access at a time (wl_fill of one index), every lookup a linear scan of
 * the set, LRU by timestamps, every core and strand stepped in one global
 * loop, no shortcuts of any kind. A level whose ways are partitioned by
 * page size keeps each partition as its own array of sets; a heap's
 * pages probe the levels that hold its size. The test suite requires the fast
 * simulator (sim.c) to agree with it exactly.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/model.h"

#define SHARED_CTX 0x1fff	/* the shared context: the last 13-bit context */

struct ref_entry {
	int valid;
	uint32_t tag;
	uint32_t page;
	uint64_t stamp;		/* last use, for LRU */
	int used;		/* used bit, for NRU */
};

/* One level of a core, or one partition of a partitioned level: the
 * entries of one size, in their own ways of every set. */
struct ref_level {
	unsigned sets, ways;
	struct ref_entry *e;	/* sets * ways, NULL: no such partition */
	struct rng rng;		/* random replacement */
};

struct ref_task {
	struct wl_stream s;
	uint64_t left;
	uint64_t startup_left;	/* private start-up pages still to touch */
	uint32_t page;		/* the stream's current page */
	unsigned word;		/* its next word (--words), 0: read the next page */
	unsigned core, strand;
	uint32_t proc;		/* address space: task index, or 0 for threads */
	uint32_t *buf;		/* observing only: the stream read ahead, bpos of blen used */
	unsigned bpos, blen;
	struct wl_stream hs;	/* the heap's stream (model_run.heap_pages) */
	uint64_t area_done;	/* the area's accesses after start-up */
	uint64_t heap_owed;	/* heap accesses due before the area's next */
	uint32_t heap_base;	/* its heap's first page number (model_heap_base()) */
};

/* Indices read at a time while observing (model_reference_observe): the
 * streams give the same indices in blocks as one at a time (t_workload). */
#define OBSERVE_BLOCK 256

struct ref {
	const struct model_machine *m;
	const struct model_run *r;
	struct ref_level *lv;	/* cores * nlevels * PSZ_N: ref_part() */
	uint64_t clock;
	struct ref_task *t;
	int *cur;		/* cores * strands: running task, -1 idle */
	uint64_t *qleft;	/* cores * strands */
	unsigned **sched, *slen;	/* per core: issue order over its busy strands */
	unsigned **busy;	/* per core: the strands that have tasks, in order */
	uint64_t *pos;		/* per core: slots issued */
	struct model_stats *st;
	model_observe_fn *observe;	/* or NULL: simulate the levels */
	void *observe_arg;
};

/* Choose the way to fill in one set of a level. */
static unsigned ref_victim(struct ref_level *l, struct ref_entry *set, int repl)
{
	unsigned w, best = 0;

	for (w = 0; w < l->ways; w++)
		if (!set[w].valid)
			return w;
	if (repl == REPL_RANDOM)
		return (unsigned)rng_below(&l->rng, l->ways);
	if (repl == REPL_LRU) {
		for (w = 1; w < l->ways; w++)
			if (set[w].stamp < set[best].stamp)
				best = w;
		return best;
	}
	for (w = 0; w < l->ways; w++)
		if (!set[w].used)
			return w;
	for (w = 0; w < l->ways; w++)
		set[w].used = 0;
	return 0;
}

/* The set-index shift of level k for area a's pages (model_held_shift());
 * 0 for the area with several words per page, whose keys are already the
 * entries' own. */
static unsigned ref_shift(const struct ref *x, unsigned k, unsigned a)
{
	return !a && x->r->words > 1 ? 0 : model_held_shift(&x->m->level[k], model_area_psz(x->r, a));
}

/* Level k of core c for pages of size psz: the level, or with ways
 * partitioned by size the partition of psz's entry size. */
static struct ref_level *ref_part(struct ref *x, unsigned c, unsigned k, unsigned psz)
{
	const struct model_level *lv = &x->m->level[k];
	unsigned p = model_level_parted(lv) ? model_entry_psz(lv, psz) : 0;

	return &x->lv[((size_t)c * x->m->nlevels + k) * PSZ_N + p];
}

/* One access of task i, which runs on strand s of core c. */
static void ref_access(struct ref *x, unsigned i)
{
	const struct model_machine *m = x->m;
	struct ref_task *t = &x->t[i];
	struct model_task *mt = &x->st->task[i];
	uint32_t page, tag0, tag1 = 0, itag, setpage;
	int has1 = 0, hit = -1;
	unsigned a = 0, psz;

	if (t->startup_left) {
		page = MODEL_STARTUP_PAGE0 + (uint32_t)(x->r->startup - t->startup_left);
		t->startup_left--;
	} else if (t->heap_owed) {
		a = 1;
		t->heap_owed--;
		wl_fill(&t->hs, &page, 1);
		page += MODEL_HEAP_PAGE0 + t->heap_base;
	} else {
		unsigned words = x->r->words > 1 ? x->r->words : 1, shift = model_words_shift(m, x->r);

		if (t->word == 0 && !t->buf) {
			wl_fill(&t->s, &t->page, 1);
		} else if (t->word == 0) {
			if (t->bpos == t->blen) {
				t->blen = (unsigned)wl_fill(&t->s, t->buf, OBSERVE_BLOCK);
				t->bpos = 0;
			}
			t->page = t->buf[t->bpos++];
		}
		page = (t->page << shift) + (uint32_t)(((uint64_t)t->word << shift) / words);
		t->word = (t->word + 1) % words;
		t->heap_owed = model_heap_after(x->r, ++t->area_done);
	}
	psz = model_area_psz(x->r, a);
	/* a heap page's set is that of its number within the heap */
	setpage = a ? page - MODEL_HEAP_PAGE0 : page;
	if (m->tag == TAG_NONE)
		tag0 = 1 + t->strand;
	else
		tag0 = 1 + t->proc;
	itag = tag0;
	if (m->tag == TAG_CTX2 && x->r->sharedctx) {
		tag1 = SHARED_CTX;
		has1 = 1;
		if (page < MODEL_STARTUP_PAGE0)
			itag = SHARED_CTX;
	}
	mt->accesses++;
	if (x->r->heap_pages)
		mt->area_accesses[a]++;
	if (x->observe) {
		x->observe(x->observe_arg, t->core, i, itag, page);
		return;
	}
	for (unsigned k = 0; k < m->nlevels && hit < 0; k++) {
		struct ref_level *l = ref_part(x, t->core, k, psz);
		struct ref_entry *set;

		if (!(m->level[k].psz_mask & (1u << psz)))
			continue;
		mt->probes[k]++;
		set = &l->e[(size_t)model_set_of((uint64_t)setpage << ref_shift(x, k, a), l->sets,
						 m->level[k].hashed) * l->ways];
		for (unsigned w = 0; w < l->ways; w++) {
			struct ref_entry *e = &set[w];

			if (e->valid && e->page == page &&
			    (e->tag == tag0 || (has1 && e->tag == tag1))) {
				e->stamp = ++x->clock;
				e->used = 1;
				hit = (int)k;
				break;
			}
		}
		if (hit < 0) {
			mt->misses[k]++;
			mt->area_misses[a][k] += !!x->r->heap_pages;
		}
	}
	if (hit < 0) {
		mt->walks++;
		mt->area_walks[a] += !!x->r->heap_pages;
	}
	for (unsigned k = 0; k < m->nlevels && (hit < 0 || k < (unsigned)hit); k++) {
		struct ref_level *l = ref_part(x, t->core, k, psz);
		struct ref_entry *set;
		unsigned w;

		if (!(m->level[k].psz_mask & (1u << psz)))
			continue;
		set = &l->e[(size_t)model_set_of((uint64_t)setpage << ref_shift(x, k, a), l->sets,
						 m->level[k].hashed) * l->ways];
		w = ref_victim(l, set, m->level[k].repl);
		set[w].valid = 1;
		set[w].tag = itag;
		set[w].page = page;
		set[w].stamp = ++x->clock;
		set[w].used = 1;
	}
}

/* The next runnable task on (c, s) after task `after` in index order,
 * wrapping around to `after` itself last; -1 if none. */
static int ref_next(struct ref *x, unsigned c, unsigned s, int after)
{
	unsigned n = x->r->ntasks;

	for (unsigned j = 1; j <= n; j++) {
		unsigned i = (unsigned)(after + (int)j) % n;

		if (x->t[i].core == c && x->t[i].strand == s && x->t[i].left)
			return (int)i;
	}
	return -1;
}

/* Invalidate strand s's entries in every level of core c (tag none). */
static void ref_flush(struct ref *x, unsigned c, unsigned s)
{
	for (size_t j = 0; j < (size_t)x->m->nlevels * PSZ_N; j++) {
		struct ref_level *l = &x->lv[c * x->m->nlevels * PSZ_N + j];

		for (unsigned w = 0; l->e && w < l->sets * l->ways; w++)
			if (l->e[w].tag == 1 + s)
				l->e[w].valid = 0;
	}
}

/* After an access on (c, s): end of quantum or of the task. */
static void ref_after(struct ref *x, unsigned c, unsigned s)
{
	unsigned slot = c * x->m->strands + s;
	int i = x->cur[slot], n;

	if (x->t[i].left && x->qleft[slot])
		return;
	n = ref_next(x, c, s, i);
	x->qleft[slot] = x->r->quantum;
	x->cur[slot] = n;
	if (n < 0 || n == i)
		return;
	x->st->task[n].switches++;
	if (x->m->tag == TAG_NONE && x->t[n].proc != x->t[i].proc)
		ref_flush(x, c, s);
}

/* Core c's strands that have tasks, in order, and its issue order over them. */
static int ref_core_order(struct ref *x, unsigned c)
{
	unsigned n = 0;

	x->busy[c] = malloc(x->m->strands * sizeof(unsigned));
	if (!x->busy[c])
		return -ENOMEM;
	for (unsigned s = 0; s < x->m->strands; s++) {
		for (unsigned i = 0; i < x->r->ntasks; i++) {
			if (x->t[i].core == c && x->t[i].strand == s) {
				x->busy[c][n++] = s;
				break;
			}
		}
	}
	x->slen[c] = 0;
	if (!n)
		return 0;
	x->sched[c] = model_schedule(x->r, c, n, &x->slen[c]);
	return x->sched[c] ? 0 : -ENOMEM;
}

/* Allocate x's arrays and every core's levels, all empty. Returns 0 or -ENOMEM. */
static int ref_alloc(struct ref *x)
{
	const struct model_machine *m = x->m;
	const struct model_run *r = x->r;
	unsigned ncs = m->cores * m->strands;

	x->st->ntasks = r->ntasks;
	x->st->task = calloc(r->ntasks, sizeof(*x->st->task));
	x->t = calloc(r->ntasks, sizeof(*x->t));
	x->lv = calloc((size_t)m->cores * m->nlevels * PSZ_N, sizeof(*x->lv));
	x->cur = malloc(ncs * sizeof(*x->cur));
	x->qleft = malloc(ncs * sizeof(*x->qleft));
	x->sched = calloc(m->cores, sizeof(*x->sched));
	x->busy = calloc(m->cores, sizeof(*x->busy));
	x->slen = calloc(m->cores, sizeof(*x->slen));
	x->pos = calloc(m->cores, sizeof(*x->pos));
	if (!x->st->task || !x->t || !x->lv || !x->cur || !x->qleft || !x->sched || !x->busy ||
	    !x->slen || !x->pos)
		return -ENOMEM;
	for (unsigned c = 0; c < m->cores; c++) {
		for (unsigned k = 0; k < m->nlevels; k++) {
			const struct model_level *lv = &m->level[k];

			/* the level, or each partition apart, seeded alike */
			for (unsigned p = 0; p < PSZ_N; p++) {
				struct ref_level *l = &x->lv[((size_t)c * m->nlevels + k) * PSZ_N + p];

				if (model_level_parted(lv) ? !lv->part[p] : p > 0)
					continue;
				l->ways = model_level_parted(lv) ? lv->part[p] : lv->ways ? lv->ways : lv->entries;
				l->sets = model_level_sets(lv);
				l->e = calloc((size_t)l->sets * l->ways, sizeof(*l->e));
				if (!l->e)
					return -ENOMEM;
				rng_seed(&l->rng, r->seed, 0x7100 + (uint64_t)c * MODEL_LEVELS + k);
			}
		}
	}
	return 0;
}

/* Place the tasks, open their streams, and set every strand's first task
 * and quantum. Returns 0 or -errno. */
static int ref_start(struct ref *x)
{
	const struct model_machine *m = x->m;
	const struct model_run *r = x->r;
	unsigned *core = malloc(r->ntasks * sizeof(*core)), *strand = malloc(r->ntasks * sizeof(*strand));
	int ret = -ENOMEM;

	if (!core || !strand)
		goto out;
	model_place_tasks(m, r, core, strand);
	for (unsigned i = 0; i < r->ntasks; i++) {
		struct wl_params p = { .pages = r->pages, .rounds = r->rounds, .seed = r->seed,
				       .task = i, .ntasks = r->ntasks, .args = &r->wl };

		x->t[i].core = x->st->task[i].core = core[i];
		x->t[i].strand = x->st->task[i].strand = strand[i];
		x->t[i].proc = r->threads ? 0 : i;
		x->t[i].left = model_task_accesses(r);
		x->t[i].startup_left = r->startup;
		x->t[i].heap_base = (uint32_t)model_heap_base(r, i);
		if (x->observe && !(x->t[i].buf = malloc(OBSERVE_BLOCK * sizeof(uint32_t)))) {
			ret = -ENOMEM;
			goto out;
		}
		ret = wl_open(&x->t[i].s, r->ops, &p);
		if (!ret && r->heap_pages) {
			struct wl_params hp = model_heap_params(r, i);

			ret = wl_open(&x->t[i].hs, r->ops, &hp);
		}
		if (ret)
			goto out;
	}
	ret = -ENOMEM;
	for (unsigned c = 0; c < m->cores; c++) {
		if (ref_core_order(x, c))
			goto out;
		for (unsigned s = 0; s < m->strands; s++) {
			x->cur[c * m->strands + s] = ref_next(x, c, s, -1);
			x->qleft[c * m->strands + s] = r->quantum;
		}
	}
	ret = 0;
out:
	free(core);
	free(strand);
	return ret;
}

/* Every core takes one slot of its issue order per step, until every
 * task has ended. */
static void ref_run(struct ref *x)
{
	const struct model_machine *m = x->m;
	int busy;

	do {
		busy = 0;
		for (unsigned c = 0; c < m->cores; c++) {
			unsigned s, slot;
			int i, any = 0;

			for (s = 0; s < m->strands; s++)
				if (x->cur[c * m->strands + s] >= 0)
					any = 1;
			if (!any)
				continue;
			busy = 1;
			s = x->busy[c][x->sched[c][x->pos[c]++ % x->slen[c]]];
			slot = c * m->strands + s;
			i = x->cur[slot];
			if (i < 0)
				continue;
			ref_access(x, (unsigned)i);
			x->t[i].left--;
			x->qleft[slot]--;
			ref_after(x, c, s);
		}
	} while (busy);
}

/* Free what ref_alloc() and ref_start() made (also after a failure). */
static void ref_free(struct ref *x)
{
	const struct model_machine *m = x->m;

	if (x->t)
		for (unsigned i = 0; i < x->r->ntasks; i++) {
			wl_close(&x->t[i].s);
			wl_close(&x->t[i].hs);
			free(x->t[i].buf);
		}
	if (x->lv)
		for (size_t j = 0; j < (size_t)m->cores * m->nlevels * PSZ_N; j++)
			free(x->lv[j].e);
	for (unsigned c = 0; x->sched && c < m->cores; c++)
		free(x->sched[c]);
	for (unsigned c = 0; x->busy && c < m->cores; c++)
		free(x->busy[c]);
	free(x->sched);
	free(x->busy);
	free(x->slen);
	free(x->pos);
	free(x->lv);
	free(x->t);
	free(x->cur);
	free(x->qleft);
}

int model_reference(const struct model_machine *m, const struct model_run *r,
		    struct model_stats *st)
{
	return model_reference_observe(m, r, st, NULL, NULL);
}

int model_reference_observe(const struct model_machine *m, const struct model_run *r,
			    struct model_stats *st, model_observe_fn *fn, void *arg)
{
	struct ref x = { .m = m, .r = r, .st = st, .observe = fn, .observe_arg = arg };
	char err[160];
	int ret;

	memset(st, 0, sizeof(*st));
	/* observers see one page size: refuse a heap */
	if (model_check(m, r, err, sizeof(err)) || (fn && r->heap_pages))
		return -EINVAL;
	ret = ref_alloc(&x);
	if (!ret)
		ret = ref_start(&x);
	if (!ret) {
		ref_run(&x);
		st->simulated_accesses = model_total_accesses(st);
	}
	ref_free(&x);
	if (ret)
		model_stats_free(st);
	return ret;
}
