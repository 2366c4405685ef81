/* t_model_timed.c - the timed engine (model/timed.h) against physics:
 * one strand without ticks makes the reference's misses and takes
 * accesses + misses x W cycles (plus each L2 hit's cost); ticks happen
 * floor(T x hz / cpu_hz) times; tick entries evict a cyclic working set
 * from a fully associative LRU level exactly as counted by hand; two
 * lockstep strands walking one shared page walk twice, or once with
 * INFLIGHT_WAIT, and stall as long either way, as the run's metrics;
 * runs repeat bit for bit. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "lib/result.h"
#include "model/timed.h"
#include "tap.h"

static struct model_run run_of(const char *pat, unsigned ntasks, uint64_t pages, uint64_t rounds, uint64_t seed)
{
	struct model_run r = { .ops = workload_find(pat), .ntasks = ntasks, .pages = pages,
			       .rounds = rounds, .seed = seed, .quantum = 100000 };

	workload_default_args(&r.wl);
	return r;
}

static int custom(const char *tlb, struct model_machine *m)
{
	char err[160];

	*m = (struct model_machine){ .name = "custom", .tag = TAG_ASID, .cores = 1, .strands = 2 };
	return model_parse_tlb(tlb, m, err, sizeof(err));
}

/* One strand, no tick: the reference's counts, and the cycles physics says. */
static void one_strand(const struct model_machine *m, struct model_run r, const char *name)
{
	struct model_timing tm = { .access_cycles = 1, .walk_cycles = 37, .cpu_hz = 1000000 };
	struct model_stats a, b;
	struct model_timed_stats ts;
	char err[160] = "", buf[200];
	uint64_t want;
	int l1 = -1, l2 = -1;

	if (model_reference(m, &r, &a) || model_timed(m, &r, &tm, &b, &ts, err, sizeof(err))) {
		ok(0, "%s: ran (%s)", name, err);
		return;
	}
	model_count_levels(m, r.psz, &l1, &l2);
	want = b.task[0].accesses + b.task[0].walks * tm.walk_cycles;
	if (l2 >= 0)
		want += (b.task[0].misses[l1] - b.task[0].walks) *
			(uint64_t)(m->level[l2].hit_cycles + 0.999999);
	snprintf(buf, sizeof(buf), "%s: walks equal the reference's", name);
	is_u64(b.task[0].walks, a.task[0].walks, buf);
	snprintf(buf, sizeof(buf), "%s: every level's misses equal the reference's", name);
	ok(!memcmp(a.task[0].misses, b.task[0].misses, sizeof(a.task[0].misses)) &&
	   a.task[0].accesses == b.task[0].accesses, "%s", buf);
	snprintf(buf, sizeof(buf), "%s: cycles = accesses + misses x W (+ L2 hits x their cost)", name);
	is_u64(ts.cycles, want, buf);
	model_stats_free(&a);
	model_stats_free(&b);
	model_timed_free(&ts);
}

static void single_strand_cases(void)
{
	static const char *pats[] = { "rounds", "random", "zipf" };
	struct model_machine m;
	char name[96];

	for (unsigned k = 0; k < 3; k++) {
		struct model_run r = run_of(pats[k], 1, 200, 20, 3 + k);

		model_preset_find("ultrasparc-t2", &m);
		model_psz_parse("4m", &r.psz);
		r.startup = 5;
		snprintf(name, sizeof(name), "t2 nru %s", pats[k]);
		one_strand(&m, r, name);
		custom("l1d:64,full,lru", &m);
		model_psz_parse("4k", &r.psz);
		snprintf(name, sizeof(name), "64 full lru %s", pats[k]);
		one_strand(&m, r, name);
		custom("l1d:32,4way,random;l2:256,8way,lru,hit=7", &m);
		snprintf(name, sizeof(name), "two levels, random L1, %s", pats[k]);
		one_strand(&m, r, name);
	}
}

/* Ticks: floor(T x hz / cpu_hz) over the strand's T cycles. */
static void tick_count(void)
{
	static const unsigned ks[] = { 0, 3 };
	struct model_machine m;
	struct model_run r = run_of("random", 1, 100, 50, 9);
	char err[160];

	custom("l1d:64,full,lru", &m);
	model_psz_parse("4k", &r.psz);
	for (unsigned k = 0; k < 2; k++) {
		struct model_timing tm = { .access_cycles = 2, .walk_cycles = 5, .cpu_hz = 100003, .hz = 97,
					   .tick_entries = ks[k] };
		struct model_stats st;
		struct model_timed_stats ts;

		if (model_timed(&m, &r, &tm, &st, &ts, err, sizeof(err))) {
			ok(0, "ticks: ran");
			continue;
		}
		ok(ts.task[0].ticks > 10, "ticks: more than 10 (%llu)", (unsigned long long)ts.task[0].ticks);
		is_u64(ts.task[0].ticks, ts.cycles * tm.hz / tm.cpu_hz, "ticks = floor(T x hz / cpu_hz)");
		is_u64(ts.task[0].tick_accesses, ts.task[0].ticks * ks[k], "each tick makes K kernel accesses");
		model_stats_free(&st);
		model_timed_free(&ts);
	}
}

/*
 * Tick entries in a fully associative LRU level of E entries, a cyclic
 * sweep of P pages, W = 0 (so the clock is the count of accesses) and a
 * tick every D cycles (D >= P + K: a sweep ends between ticks). P <= E - K:
 * no user miss but the P compulsory ones, K kernel misses in all. E - K <
 * P <= E: each tick evicts K - (E - P) user pages, the next ones the sweep
 * needs, and LRU then misses every access of the next P (or the rest of
 * the run), while the kernel misses its K every tick (counted by hand in
 * README.md, "Timing").
 */
static void tick_evictions(void)
{
	static const uint64_t ps[] = { 10, 12, 15, 16 };
	const unsigned e = 16, k = 6;
	struct model_machine m;
	char err[160], name[96];

	custom("l1d:16,full,lru", &m);
	for (unsigned c = 0; c < 4; c++) {
		uint64_t p = ps[c], d = 50, rounds = 41, n = p * rounds, want = p, ticks = 0;
		struct model_run r = run_of("rounds", 1, p, rounds, 1);
		struct model_timing tm = { .access_cycles = 1, .cpu_hz = 1000 * d, .hz = 1000, .tick_entries = k };
		struct model_stats st;
		struct model_timed_stats ts;

		model_psz_parse("4k", &r.psz);
		if (model_timed(&m, &r, &tm, &st, &ts, err, sizeof(err))) {
			ok(0, "evictions: ran");
			continue;
		}
		/* tick j is due at cycle j x d: the user has made j x d - (j - 1) x k accesses */
		for (uint64_t j = 1; j * d <= ts.cycles; j++) {
			uint64_t u = j * d - (j - 1) * k;

			ticks++;
			if (p > e - k && u < n)
				want += n - u < p ? n - u : p;
		}
		snprintf(name, sizeof(name), "P=%llu in E=%u with K=%u: user misses as counted by hand",
			 (unsigned long long)p, e, k);
		is_u64(st.task[0].walks, want, name);
		is_u64(ts.task[0].ticks, ticks, "tick count");
		is_u64(ts.task[0].tick_misses, p > e - k ? ticks * k : k, "kernel misses: K per tick, or K once");
		model_stats_free(&st);
		model_timed_free(&ts);
	}
}

/* Two lockstep strands on one shared page: both walk, or the second waits. */
static void inflight(void)
{
	struct model_machine m;
	struct model_run r = run_of("rounds", 2, 40, 5, 1);
	char err[160];

	model_preset_find("ultrasparc-t2", &m);
	model_psz_parse("4m", &r.psz);
	r.sharedctx = 1;
	for (int pol = INFLIGHT_WALK; pol <= INFLIGHT_WAIT; pol++) {
		struct model_timing tm = { .access_cycles = 1, .walk_cycles = 60, .cpu_hz = 1400000000,
					   .inflight = pol };
		struct model_stats st;
		struct model_timed_stats ts;
		struct model_timed_totals tot;
		struct run_result res;
		double v;

		if (model_timed(&m, &r, &tm, &st, &ts, err, sizeof(err))) {
			ok(0, "inflight: ran");
			continue;
		}
		is_u64(model_total_walks(&st), pol == INFLIGHT_WALK ? 80 : 40,
		       pol == INFLIGHT_WALK ? "both strands walk each shared page" : "the second waits: one walk each");
		is_u64(ts.task[1].merged, pol == INFLIGHT_WALK ? 0 : 40, "merged walks");
		is_u64(ts.cycles, 40 * 5 + 40 * 60, "both strands end together");
		model_timed_totals(&ts, &tot);
		is_u64(tot.merged, pol == INFLIGHT_WALK ? 0 : 40, "totals: merged walks");
		/* a wait lasts as long as the walk it waits for: the same stalls either way */
		is_u64(tot.stall_cycles, 2 * 40 * 60, "totals: each strand stalls 60 cycles a page");
		is_u64(tot.cycles, ts.cycles, "totals: the cycles");
		memset(&res, 0, sizeof(res));
		sim_timed_result(&tot, &res);
		ok(res.nmetrics == 7 && !result_get_metric(&res, MET_MODEL_STALL_CYCLES, &v) && v == 2 * 40 * 60 &&
		   !result_get_metric(&res, MET_MODEL_MERGED_WALKS, &v) && v == (pol == INFLIGHT_WALK ? 0 : 40) &&
		   !result_get_metric(&res, MET_MODEL_CYCLES, &v) && v == (double)ts.cycles,
		   "the run's metrics are the totals, and only those seven");
		model_stats_free(&st);
		model_timed_free(&ts);
	}
}

/* Two runs of a contended configuration are equal bit for bit. */
static void deterministic(void)
{
	struct model_machine m;
	struct model_run r = run_of("zipf", 4, 150, 30, 7);
	struct model_timing tm = { .access_cycles = 1, .walk_cycles = 60, .cpu_hz = 1400000, .hz = 250,
				   .tick_entries = 8 };
	struct model_stats a, b;
	struct model_timed_stats ta, tb;
	char err[160] = "";

	model_preset_find("ultrasparc-t2", &m);
	model_psz_parse("4m", &r.psz);
	r.sharedctx = 1;
	if (model_timed(&m, &r, &tm, &a, &ta, err, sizeof(err)) || model_timed(&m, &r, &tm, &b, &tb, err, sizeof(err))) {
		ok(0, "deterministic: ran (%s)", err);
		return;
	}
	ok(!memcmp(a.task, b.task, 4 * sizeof(*a.task)) && !memcmp(ta.task, tb.task, 4 * sizeof(*ta.task)) &&
	   ta.cycles == tb.cycles, "two runs equal bit for bit");
	ok(ta.task[0].ticks > 0 && ta.task[0].tick_misses > 0, "ticks ran and missed");
	model_stats_free(&a);
	model_timed_free(&ta);
	r.jitter = 4;
	ok(model_timed(&m, &r, &tm, &a, &ta, err, sizeof(err)) == -EINVAL && strstr(err, "jitter"),
	   "jitter refused: %s", err);
	model_stats_free(&b);
	model_timed_free(&tb);
}

int main(void)
{
	single_strand_cases();
	tick_count();
	tick_evictions();
	inflight();
	deterministic();
	return done_testing();
}
