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
 * Cores share nothing, so each is simulated on its own, start to end (by
 * one of --jobs threads):
 * core.c sets a core up, step.c runs it. This file opens the tasks' streams
 * and turns their counts into the result.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "model/sim_int.h"

#define SHARED_CTX 0x1fffull

uint64_t model_loc_limit = 1u << 24;

/* Open task i's stream and set its tags. */
static int task_init(struct ftask *t, const struct model_machine *m, const struct model_run *r,
		     unsigned i, unsigned strand)
{
	struct wl_params p = { .pages = r->pages, .rounds = r->rounds, .seed = r->seed, .task = i,
			       .ntasks = r->ntasks, .args = &r->wl };
	uint64_t tag0;

	t->proc = r->threads ? 0 : i;
	t->left = t->init_left = model_task_accesses(r);
	t->words = r->words > 1 ? r->words : 1;
	t->wshift = model_words_shift(m, r);
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
	if (r->heap_pages) {
		int ret = heap_init(t, r, i);

		if (ret)
			return ret;
	}
	return wl_open(&t->s, r->ops, &p);
}

/* Task t's accesses, probes and misses per level, and walks, from where
 * its accesses first hit (ftask.hit, over the levels holding the page size). */
static void derive_counts(const struct model_machine *m, const struct model_run *r,
			  const struct ftask *t, struct model_task *mt)
{
	uint64_t reach;
	unsigned u = 0;

	if (t->heap) {
		heap_counts(m, r, t, mt);
		return;
	}
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
	return model_simulate_jobs(m, r, st, NULL, NULL, 1);
}

int model_simulate_progress(const struct model_machine *m, const struct model_run *r,
			    struct model_stats *st, model_progress_fn *fn, void *arg)
{
	return model_simulate_jobs(m, r, st, fn, arg, 1);
}

/*
 * The cores of a run, simulated by `jobs` threads: each takes the next
 * core not yet taken. A core writes only its own tasks (their ftask and
 * model_task) and its own slot of skipped and period, which are merged in
 * core order afterwards, so the result is the one of a single thread
 * whatever the threads' timing. Progress: each core's accesses so far in
 * done[], their sum passed on under a lock.
 */
struct pool {
	const struct model_machine *m;
	const struct model_run *r;
	struct model_stats *st;
	struct ftask *t;
	const unsigned *core, *strand;
	int periodic;
	unsigned next;			/* the next core to take (atomic) */
	struct model_stats *per;	/* per core: skipped_accesses, period_cycles */
	uint64_t *done;			/* per core: accesses accounted (atomic) */
	uint64_t total;
	model_progress_fn *fn;
	void *arg;
	pthread_mutex_t lock;		/* serialises fn */
	int ret;			/* the first failure, 0 none (under lock) */
};

/* The progress of one core of a pool: arg is its slot in done[]. */
struct pool_core {
	struct pool *p;
	unsigned cn;
};

static void pool_progress(void *arg, uint64_t done, uint64_t total)
{
	struct pool_core *pc = arg;
	struct pool *p = pc->p;
	uint64_t sum = 0;

	(void)total;
	__atomic_store_n(&p->done[pc->cn], done, __ATOMIC_RELAXED);
	for (unsigned c = 0; c < p->m->cores; c++)
		sum += __atomic_load_n(&p->done[c], __ATOMIC_RELAXED);
	pthread_mutex_lock(&p->lock);
	p->fn(p->arg, sum, p->total);
	pthread_mutex_unlock(&p->lock);
}

static void *pool_worker(void *arg)
{
	struct pool *p = arg;
	unsigned cn;

	while ((cn = __atomic_fetch_add(&p->next, 1, __ATOMIC_RELAXED)) < p->m->cores) {
		struct pool_core pc = { p, cn };
		struct model_stats *ps = &p->per[cn];
		struct fcore c = { .m = p->m, .r = p->r, .st = ps, .t = p->t,
				   .progress = p->fn ? pool_progress : NULL, .progress_arg = &pc,
				   .total = p->total };
		int ret;

		ps->task = p->st->task;	/* its own tasks only; the counters its own */
		ps->ntasks = p->st->ntasks;
		ret = core_init(&c, cn, p->core, p->strand);
		if (!ret && c.ntasks)
			ret = run_core(&c, cn, p->periodic);
		if (!ret) {
			uint64_t all = 0;

			for (unsigned j = 0; j < c.ntasks; j++)
				all += p->t[c.tasks[j]].init_left;
			__atomic_store_n(&p->done[cn], all, __ATOMIC_RELAXED);
		}
		core_free(&c);
		if (ret) {
			pthread_mutex_lock(&p->lock);
			if (!p->ret)
				p->ret = ret;
			pthread_mutex_unlock(&p->lock);
			break;
		}
	}
	return NULL;
}

/* Simulate every core of the run on `jobs` threads (this one among them). */
static int run_cores(struct pool *p, unsigned jobs)
{
	pthread_t th[MODEL_MAX_JOBS];
	unsigned n = 0;

	p->per = calloc(p->m->cores, sizeof(*p->per));
	p->done = calloc(p->m->cores, sizeof(*p->done));
	if (!p->per || !p->done) {
		free(p->per);
		free(p->done);
		return -ENOMEM;
	}
	pthread_mutex_init(&p->lock, NULL);
	if (jobs > p->m->cores)
		jobs = p->m->cores;
	for (; n + 1 < jobs; n++)
		if (pthread_create(&th[n], NULL, pool_worker, p))
			break;	/* fewer threads: the same result, later */
	pool_worker(p);
	while (n-- > 0)
		pthread_join(th[n], NULL);
	pthread_mutex_destroy(&p->lock);
	/* in core order, as one thread would have left them */
	for (unsigned cn = 0; cn < p->m->cores; cn++) {
		p->st->skipped_accesses += p->per[cn].skipped_accesses;
		if (p->per[cn].period_cycles)
			p->st->period_cycles = p->per[cn].period_cycles;
	}
	free(p->per);
	free(p->done);
	return p->ret;
}

int model_simulate_jobs(const struct model_machine *m, const struct model_run *r,
			struct model_stats *st, model_progress_fn *fn, void *arg, unsigned jobs)
{
	unsigned *core = NULL, *strand = NULL;
	struct ftask *t = NULL;
	int ret = -ENOMEM, periodic;
	char err[160];

	memset(st, 0, sizeof(*st));
	if (model_check(m, r, err, sizeof(err)) || jobs < 1 || jobs > MODEL_MAX_JOBS)
		return -EINVAL;
	/* a heap's stream has rounds of its own: no period is looked for */
	periodic = !!(r->ops->flags & WL_PERIODIC) && !r->heap_pages;
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
	{
		struct pool p = { .m = m, .r = r, .st = st, .t = t, .core = core, .strand = strand,
				  .periodic = periodic, .fn = fn, .arg = arg,
				  .total = model_task_accesses(r) * r->ntasks };

		ret = run_cores(&p, jobs);
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
			heap_free(&t[i]);
		}
	}
	free(t);
	free(core);
	free(strand);
	if (ret)
		model_stats_free(st);
	return ret;
}
