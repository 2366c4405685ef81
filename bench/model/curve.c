/*
 * curve.c - single-pass design curves (curve.h). The accesses come from
 * the reference's scheduler and streams (model_reference_observe), so
 * their order is the one both simulators use; each access's stack
 * distance within its set goes into its task's histogram, and the misses
 * at w ways are the accesses whose distance is w or more (or that had no
 * previous use).
 *
 * Stack distances:
 *  - one set (fully associative): each key's last use is a mark at its
 *    time, a bit in a bitmap of 64-time words with a Fenwick tree over the
 *    words' counts; the distance is the number of marks after it, O(log n)
 *    per access (n / 64 in the tree, a popcount within the word). When
 *    the times run out the live marks are renumbered in order
 *    (compaction), O(1) amortised;
 *  - several sets: each set keeps its most recent `depth` keys in
 *    recency order (depth = the most ways asked for); the position of the
 *    key in that list is its distance, beyond it "depth or more". O(depth)
 *    per access, fine for the way counts of real sets.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/curve.h"

#define FAR UINT32_MAX	/* no previous use, or at least the depth kept */

/* One core's fully associative stack: keys to ids (open addressing), each
 * id's last time, the id at each time, and the Fenwick tree of marks. */
struct full {
	uint64_t *hkey;		/* hcap slots, 0 empty (no key is 0: tags start at 1) */
	uint32_t *hid;
	size_t hcap, nids, idcap;
	uint32_t *last;		/* per id: time of its last use, 0 none */
	uint32_t *who;		/* per time 1..cap: id + 1 of the mark there, 0 none */
	uint64_t *mark;		/* bit t % 64 of word t / 64: a mark at time t (0..cap) */
	uint32_t *bit;		/* Fenwick tree over the words: marks per word */
	uint32_t cap, nw, now, live;	/* nw: words of mark, cap / 64 + 1 */
};

/* One core's set-associative stacks: sets * depth keys, most recent first. */
struct sets {
	uint64_t *key;
	uint32_t *n;		/* per set: keys held (at most depth) */
};

struct sweep {
	const struct model_machine *m;
	const struct model_run *r;
	unsigned sets, depth, shift;
	int hashed;		/* the swept level's index (model_set_of()) */
	struct full *full;	/* per core, when sets == 1 */
	struct sets *set;	/* per core, otherwise */
	uint64_t *hist;		/* per task depth + 1 counts: distance d < depth, [depth]: FAR */
	int failed;		/* out of memory during the pass */
};

static uint64_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

/* The id of key in f, a new one when first seen; UINT32_MAX when out of memory. */
static uint32_t full_id(struct full *f, uint64_t key)
{
	size_t i;

	if (2 * (f->nids + 1) > f->hcap) {
		size_t nc = f->hcap ? 2 * f->hcap : 1024;
		uint64_t *nk = calloc(nc, sizeof(*nk));
		uint32_t *ni = malloc(nc * sizeof(*ni));

		if (!nk || !ni) {
			free(nk);
			free(ni);
			return UINT32_MAX;
		}
		for (size_t j = 0; j < f->hcap; j++) {
			if (!f->hkey[j])
				continue;
			for (i = mix(f->hkey[j]) & (nc - 1); nk[i]; i = (i + 1) & (nc - 1))
				;
			nk[i] = f->hkey[j];
			ni[i] = f->hid[j];
		}
		free(f->hkey);
		free(f->hid);
		f->hkey = nk;
		f->hid = ni;
		f->hcap = nc;
	}
	for (i = mix(key) & (f->hcap - 1); f->hkey[i]; i = (i + 1) & (f->hcap - 1))
		if (f->hkey[i] == key)
			return f->hid[i];
	if (f->nids == f->idcap) {
		size_t nc = f->idcap ? 2 * f->idcap : 1024;
		uint32_t *nl = realloc(f->last, nc * sizeof(*nl));

		if (!nl)
			return UINT32_MAX;
		f->last = nl;
		f->idcap = nc;
	}
	f->hkey[i] = key;
	f->hid[i] = (uint32_t)f->nids;
	f->last[f->nids] = 0;
	return (uint32_t)f->nids++;
}

static void bit_add(uint32_t *bit, uint32_t cap, uint32_t i, uint32_t v)
{
	for (; i <= cap; i += i & -i)
		bit[i] += v;	/* v is 1 or UINT32_MAX (-1) */
}

static uint32_t bit_prefix(const uint32_t *bit, uint32_t i)
{
	uint32_t s = 0;

	for (; i; i -= i & -i)
		s += bit[i];
	return s;
}

/* Renumber the live marks 1..live in time order, in times 1..cap for a cap
 * of twice their number (at least 1024). Returns 0 or -ENOMEM. */
static int full_compact(struct full *f)
{
	uint32_t cap = f->live * 2 > 1024 ? f->live * 2 : 1024, j = 0, nw = cap / 64 + 1;
	uint32_t *who = calloc((size_t)cap + 1, sizeof(*who)), *bit = calloc((size_t)nw + 1, sizeof(*bit));
	uint64_t *mark = calloc(nw, sizeof(*mark));

	if (!who || !bit || !mark || f->live >= UINT32_MAX / 2) {
		free(who);
		free(bit);
		free(mark);
		return -ENOMEM;
	}
	for (uint32_t t = 1; t <= f->now; t++) {
		if (!f->who[t])
			continue;
		who[++j] = f->who[t];
		f->last[f->who[t] - 1] = j;
		mark[j / 64] |= 1ull << (j % 64);
	}
	/* the tree of the words' counts, built in one pass (word w is node w + 1) */
	for (uint32_t i = 1; i <= nw; i++) {
		bit[i] += (uint32_t)__builtin_popcountll(mark[i - 1]);
		if (i + (i & -i) <= nw)
			bit[i + (i & -i)] += bit[i];
	}
	free(f->who);
	free(f->bit);
	free(f->mark);
	f->who = who;
	f->bit = bit;
	f->mark = mark;
	f->cap = cap;
	f->nw = nw;
	f->now = j;
	return 0;
}

/* Set (v = 1) or clear (v = UINT32_MAX, -1) the mark at time t. */
static void full_mark(struct full *f, uint32_t t, uint32_t v)
{
	f->mark[t / 64] ^= 1ull << (t % 64);
	bit_add(f->bit, f->nw, t / 64 + 1, v);
}

/* Marks at times 0..t. */
static uint32_t full_upto(const struct full *f, uint32_t t)
{
	return bit_prefix(f->bit, t / 64) + (uint32_t)__builtin_popcountll(f->mark[t / 64] & (~0ull >> (63 - t % 64)));
}

/* Use key in f: its stack distance (FAR without a previous use). */
static uint32_t full_use(struct sweep *w, struct full *f, uint64_t key)
{
	uint32_t id = full_id(f, key), d = FAR, t;

	if (id == UINT32_MAX || (f->now == f->cap && full_compact(f))) {
		w->failed = 1;
		return FAR;
	}
	t = f->last[id];
	if (t) {
		d = f->live - full_upto(f, t);
		full_mark(f, t, UINT32_MAX);
		f->who[t] = 0;
		f->live--;
	}
	t = ++f->now;
	f->last[id] = t;
	f->who[t] = id + 1;
	full_mark(f, t, 1);
	f->live++;
	return d;
}

/* Use key in set s of stacks k: its position in the set's recency list
 * (FAR beyond the depth kept), then move it to the front. */
static uint32_t sets_use(const struct sweep *w, struct sets *k, size_t s, uint64_t key)
{
	uint64_t *l = k->key + s * w->depth;
	uint32_t n = k->n[s], d = 0;

	while (d < n && l[d] != key)
		d++;
	if (d == n) {
		if (n < w->depth)
			k->n[s] = ++n;
		d = n - 1;	/* the last slot is dropped (or was empty) */
		memmove(l + 1, l, (size_t)d * sizeof(*l));
		l[0] = key;
		return FAR;
	}
	memmove(l + 1, l, (size_t)d * sizeof(*l));
	l[0] = key;
	return d;
}

/* model_observe_fn: one access of task i on core c. */
static void observe(void *arg, unsigned c, unsigned i, uint32_t tag, uint32_t page)
{
	struct sweep *w = arg;
	uint64_t key = (uint64_t)tag << 32 | page;
	uint32_t d;

	if (w->failed)
		return;
	if (w->sets == 1) {
		d = full_use(w, &w->full[c], key);
	} else {
		struct sets *k = &w->set[c];

		if (!k->key) {
			k->key = malloc((size_t)w->sets * w->depth * sizeof(*k->key));
			k->n = calloc(w->sets, sizeof(*k->n));
			if (!k->key || !k->n) {
				w->failed = 1;
				return;
			}
		}
		d = sets_use(w, k, model_set_of((uint64_t)page << w->shift, w->sets, w->hashed), key);
	}
	w->hist[(size_t)i * (w->depth + 1) + (d < w->depth ? d : w->depth)]++;
}

void model_curve_machine(const struct model_machine *m, unsigned k, unsigned sets, unsigned entries,
			 struct model_machine *out)
{
	*out = *m;
	out->level[k].entries = entries;
	if (m->level[k].ways)
		out->level[k].ways = entries / sets;
}

/* The swept level of m for r, its sets, and the sizes lo..hi it can take
 * (into cv). Returns 0 or -EINVAL with the reason in err. */
static int curve_plan(const struct model_machine *m, const struct model_run *r, unsigned lo, unsigned hi,
		      struct model_curve *cv, char *err, size_t errlen)
{
	int l1, l2;
	const struct model_level *lv;

	model_count_levels(m, r->psz, &l1, &l2);
	if (l1 < 0) {
		snprintf(err, errlen, "--sweep-entries: no level holds %s pages", model_psz_name(r->psz));
		return -EINVAL;
	}
	lv = &m->level[l1];
	cv->level = (unsigned)l1;
	cv->sets = lv->ways ? lv->entries / lv->ways : 1;
	if (lv->repl != REPL_LRU) {
		snprintf(err, errlen, "--sweep-entries: level %s is not LRU, and only LRU has the stack "
			 "property one pass needs (run each size instead)", lv->name);
		return -EINVAL;
	}
	if (r->heap_pages) {
		snprintf(err, errlen, "--sweep-entries: a run with a heap has two first levels or one that two "
			 "page sizes share; the curve is of one level seeing one page size (run each size instead)");
		return -EINVAL;
	}
	if (model_level_parted(lv)) {
		snprintf(err, errlen, "--sweep-entries: level %s has its ways partitioned by page size, and a "
			 "size in entries does not say how (run each size instead)", lv->name);
		return -EINVAL;
	}
	if (m->tag == TAG_NONE) {
		snprintf(err, errlen, "--sweep-entries: tag none flushes entries at switches, which breaks "
			 "the stack property one pass needs (run each size instead)");
		return -EINVAL;
	}
	if (lo < 1 || hi < lo || hi > CURVE_MAX_ENTRIES) {
		snprintf(err, errlen, "--sweep-entries %u..%u: need 1 <= A <= B <= %u", lo, hi, CURVE_MAX_ENTRIES);
		return -EINVAL;
	}
	if (hi / cv->sets < (lo + cv->sets - 1) / cv->sets) {
		snprintf(err, errlen, "--sweep-entries %u..%u: level %s keeps its %u sets, and no multiple of "
			 "%u lies in the range", lo, hi, lv->name, cv->sets, cv->sets);
		return -EINVAL;
	}
	if (cv->sets > 1 && hi / cv->sets > 4096) {
		snprintf(err, errlen, "--sweep-entries %u..%u: more than 4096 ways per set of %s", lo, hi, lv->name);
		return -EINVAL;
	}
	if ((uint64_t)r->ntasks * (hi / cv->sets + 1) > CURVE_MAX_CELLS) {
		snprintf(err, errlen, "--sweep-entries %u..%u: %u tasks times %u distances is more than the "
			 "%llu kept", lo, hi, r->ntasks, hi / cv->sets + 1, (unsigned long long)CURVE_MAX_CELLS);
		return -EINVAL;
	}
	return 0;
}

int model_curve(const struct model_machine *m, const struct model_run *r, unsigned lo, unsigned hi,
		struct model_curve *cv, char *err, size_t errlen)
{
	struct sweep w = { .m = m, .r = r };
	struct model_stats st = { 0 };
	int ret;

	memset(cv, 0, sizeof(*cv));
	ret = curve_plan(m, r, lo, hi, cv, err, errlen);
	if (ret)
		return ret;
	w.sets = cv->sets;
	w.depth = hi / cv->sets;
	w.shift = r->words > 1 ? 0 : model_held_shift(&m->level[cv->level], r->psz);
	w.hashed = m->level[cv->level].hashed;
	cv->ntasks = r->ntasks;
	for (unsigned e = (lo + cv->sets - 1) / cv->sets * cv->sets; e <= hi; e += cv->sets)
		cv->n++;
	cv->entries = malloc(cv->n * sizeof(*cv->entries));
	cv->accesses = calloc(r->ntasks, sizeof(*cv->accesses));
	cv->misses = calloc((size_t)r->ntasks * cv->n, sizeof(*cv->misses));
	w.hist = calloc((size_t)r->ntasks * (w.depth + 1), sizeof(*w.hist));
	if (w.sets == 1)
		w.full = calloc(m->cores, sizeof(*w.full));
	else
		w.set = calloc(m->cores, sizeof(*w.set));
	ret = -ENOMEM;
	if (!cv->entries || !cv->accesses || !cv->misses || !w.hist || (!w.full && !w.set))
		goto out;
	for (unsigned j = 0, e = (lo + cv->sets - 1) / cv->sets * cv->sets; j < cv->n; j++, e += cv->sets)
		cv->entries[j] = e;
	ret = model_reference_observe(m, r, &st, observe, &w);
	if (!ret && w.failed)
		ret = -ENOMEM;
	if (ret) {
		snprintf(err, errlen, "--sweep-entries: %s", strerror(-ret));
		goto out;
	}
	for (unsigned i = 0; i < r->ntasks; i++) {
		const uint64_t *h = w.hist + (size_t)i * (w.depth + 1);
		uint64_t hits = 0;
		unsigned d = 0;

		cv->accesses[i] = st.task[i].accesses;
		for (unsigned j = 0; j < cv->n; j++) {
			unsigned ways = cv->entries[j] / cv->sets;

			for (; d < ways; d++)
				hits += h[d];
			cv->misses[(size_t)i * cv->n + j] = cv->accesses[i] - hits;
		}
	}
out:
	for (unsigned c = 0; w.full && c < m->cores; c++) {
		free(w.full[c].hkey);
		free(w.full[c].hid);
		free(w.full[c].last);
		free(w.full[c].who);
		free(w.full[c].bit);
		free(w.full[c].mark);
	}
	for (unsigned c = 0; w.set && c < m->cores; c++) {
		free(w.set[c].key);
		free(w.set[c].n);
	}
	free(w.full);
	free(w.set);
	free(w.hist);
	model_stats_free(&st);
	if (ret)
		model_curve_free(cv);
	return ret;
}

void model_curve_free(struct model_curve *cv)
{
	free(cv->entries);
	free(cv->accesses);
	free(cv->misses);
	memset(cv, 0, sizeof(*cv));
}
