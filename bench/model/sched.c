/*
 * sched.c - the fast simulator's scheduler (sim_int.h): the issue order of
 * a core's strands, the end of a quantum or of a task (with the flush of
 * tag none), runs of quiet slots handed to run_periods() (step.c), and
 * progress reports; run_core() simulates one core to the end.
 */
#include <errno.h>
#include <stdlib.h>
#include "model/sim_int.h"

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
	c->nflat = 0;
	for (unsigned s = 0; s < c->slen; s++) {
		const struct fstrand *sd = &c->sd[c->sched[(c->spos + s) % c->slen]];

		if (!sd->idle)
			c->flat[c->nflat++] = &c->t[sd->q[sd->cur]];
	}
	for (unsigned k = 1; k < c->reps; k++)
		for (unsigned s = 0; s < c->nflat; s++)
			c->flat[k * c->nflat + s] = c->flat[s];
	c->nflat *= c->reps;
	run_periods(c, periods);
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
/* the first quiet run is shorter: a sample for level0_mixed() */
#define FIRST_SLOTS (1u << 14)
/* run_quiet's list of tasks holds at least this many issue slots */
#define FLAT_MIN 64

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
int run_core(struct fcore *c, unsigned cn, int periodic)
{
	struct detect d = { .on = periodic };
	uint64_t next_report = PROGRESS_SLOTS;
	int ret = -ENOMEM;

	c->sched = model_schedule(c->r, cn, c->nsd, &c->slen);
	c->reps = c->slen < FLAT_MIN ? (FLAT_MIN + c->slen - 1) / c->slen : 1;
	c->flat = malloc((c->slen ? c->slen : 1) * c->reps * sizeof(*c->flat));
	if (!c->sched || !c->flat)
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
			uint64_t n = quiet_slots(c), cap = c->pos < FIRST_SLOTS ? FIRST_SLOTS : PROGRESS_SLOTS;

			/* at most cap slots at a time, so progress is reported
			   (and level0_mixed() has seen some before it matters) */
			if (cap < c->slen)
				cap = c->slen;
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
		access_one(c, &c->t[i]);
		c->t[i].left--;
		sd->qleft--;
		after(c, sd);
	}
	ret = 0;
out:
	free(c->sched);
	free(c->flat);
	period_free(&d);
	return ret;
}
