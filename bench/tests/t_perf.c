/*
 * t_perf: event resolution (explicit {a,b} groups included), errno
 * classification, the group layout, scaling, the dead-PMU check on
 * synthetic reads (the over-committed PMU of issue 9 among them), and
 * real windows: the software page-fault counters
 * of this task must count exactly the pages it first-touches. Where the
 * machine has a core PMU, cycles must count and read more than 0; where
 * it has none, cycles must come back missing as no-pmu, never as 0.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "lib/log.h"
#include "machine/perf.h"
#include "machine/sysinfo.h"
#include "tap.h"

#define PAGES 64

/* Index of event name in specs[0..n-1], or -1. */
static int find(const struct perf_spec *specs, unsigned n, const char *name)
{
	for (unsigned i = 0; i < n; i++)
		if (strcmp(specs[i].name, name) == 0)
			return (int)i;
	return -1;
}

static void test_resolve(const struct sysinfo *si)
{
	struct perf_spec sp[EV_MAX];
	char err[256];
	unsigned n = 0;

	ok(perf_resolve("cycles,page-faults,task-clock,context-switches,r00c4,ref-cycles", si, sp, &n,
			err, sizeof(err)) == 0 && n == 6, "generic and raw names resolve");
	ok(sp[0].group == PG_HW && sp[0].attr.type == PERF_TYPE_HARDWARE &&
	   sp[0].attr.config == PERF_COUNT_HW_CPU_CYCLES && strcmp(sp[0].source, "generic") == 0,
	   "cycles is a generic hardware event");
	ok(sp[1].group == PG_SW && sp[1].attr.type == PERF_TYPE_SOFTWARE &&
	   sp[1].attr.config == PERF_COUNT_SW_PAGE_FAULTS && !sp[1].needs_kernel,
	   "page-faults is a user-only software event");
	ok(sp[2].group == PG_CLOCK, "task-clock leads its own group");
	ok(sp[3].group == PG_SCHED && sp[3].needs_kernel, "context-switches counts kernel-side");
	ok(sp[4].group == PG_HW && sp[4].attr.type == PERF_TYPE_RAW && sp[4].attr.config == 0xc4 &&
	   strcmp(sp[4].source, "raw") == 0, "rHEX is a raw hardware event");
	ok(perf_resolve("no-such-event-xyz", si, sp, &n, err, sizeof(err)) == EX_RESOURCE &&
	   strstr(err, "unknown event 'no-such-event-xyz'"), "an unknown name is a missing resource: %s", err);
	ok(perf_resolve("cycles,cycles", si, sp, &n, err, sizeof(err)) == EX_USAGE, "a name given twice is a usage error");
	ok(perf_resolve(",,", si, sp, &n, err, sizeof(err)) == EX_USAGE, "an empty list is a usage error");
}

static void test_classify(void)
{
	is_u64(perf_classify_errno(EACCES, 1, 1), EV_PERMISSION, "EACCES is permission");
	is_u64(perf_classify_errno(EPERM, 0, 0), EV_PERMISSION, "EPERM is permission");
	is_u64(perf_classify_errno(ENOENT, 1, 0), EV_NO_PMU, "a hardware event without a core PMU is no-pmu");
	is_u64(perf_classify_errno(ENOENT, 1, 1), EV_UNSUPPORTED, "with a PMU it is unsupported");
	is_u64(perf_classify_errno(EOPNOTSUPP, 0, 0), EV_UNSUPPORTED, "a software event is never no-pmu");
}

/* Fill ev as if read: state counted, raw, enabled = running = run_ns. */
static void fake(struct ev_value *ev, int state, uint64_t raw, uint64_t run_ns)
{
	memset(ev, 0, sizeof(*ev));
	ev->state = state;
	ev->raw = raw;
	ev->enabled = run_ns;
	ev->running = run_ns;
	ev->value = (double)raw;
}

static void test_dead(const struct sysinfo *si)
{
	struct perf_spec sp[EV_MAX];
	struct ev_value ev[EV_MAX];
	char err[256];
	unsigned n = 0;

	perf_resolve("cycles,dTLB-load-misses,page-faults,instructions", si, sp, &n, err, sizeof(err));
	fake(&ev[0], EV_COUNTED, 0, 1000000);
	fake(&ev[1], EV_COUNTED, 0, 1000000);
	fake(&ev[2], EV_COUNTED, 64, 1000000);
	fake(&ev[3], EV_COUNTED, 0, 1000000);
	is_u64(perf_check_dead(sp, ev, n), 1, "cycles read 0 while running: the PMU is dead");
	ok(ev[0].state == EV_READS_ZERO && ev[1].state == EV_READS_ZERO && ev[3].state == EV_READS_ZERO,
	   "every hardware event is then missing as pmu-reads-zero");
	ok(ev[2].state == EV_COUNTED && ev[2].raw == 64, "software events keep their values");
	ok(strcmp(ev_state_name(EV_READS_ZERO), "pmu-reads-zero") == 0, "the stored reason is pmu-reads-zero");

	fake(&ev[0], EV_COUNTED, 123456, 1000000);
	fake(&ev[1], EV_COUNTED, 0, 1000000);
	fake(&ev[3], EV_COUNTED, 99999, 1000000);
	is_u64(perf_check_dead(sp, ev, n), 0, "cycles counting: a 0 of dTLB-load-misses is a real 0");
	ok(ev[1].state == EV_COUNTED && ev[1].raw == 0, "and stays counted");

	fake(&ev[0], EV_MULTIPLEXED_OUT, 0, 0);
	fake(&ev[3], EV_NO_PMU, 0, 0);
	is_u64(perf_check_dead(sp, ev, n), 0, "no canary that ran: nothing can be concluded");

	perf_resolve("dTLB-load-misses,page-faults", si, sp, &n, err, sizeof(err));
	fake(&ev[0], EV_COUNTED, 0, 1000000);
	fake(&ev[1], EV_COUNTED, 5, 1000000);
	is_u64(perf_check_dead(sp, ev, n), 0, "without cycles or instructions the check does nothing");
	ok(ev[0].state == EV_COUNTED, "and leaves the value alone");
}

/* Explicit groups: parsed, laid out whole; everything else as before. */
static void test_groups(const struct sysinfo *si)
{
	struct perf_spec sp[EV_MAX];
	struct perf_groups g;
	char err[256], txt[256];
	unsigned n = 0, biggest = 0;

	ok(perf_resolve("{dTLB-loads,dTLB-load-misses},cycles,{instructions,page-faults},task-clock", si,
			sp, &n, err, sizeof(err)) == 0 && n == 6, "braces group events: %s", n ? "" : err);
	ok(sp[0].ugroup == 1 && sp[1].ugroup == 1 && sp[2].ugroup == 0 && sp[3].ugroup == 2 &&
	   sp[4].ugroup == 2 && sp[5].ugroup == 0, "each event knows its explicit group");
	ok(strcmp(sp[0].name, "dTLB-loads") == 0 && strcmp(sp[4].name, "page-faults") == 0,
	   "names lose their braces");
	perf_layout(sp, n, &g);
	is_u64(g.n, 4, "layout: {dTLB-loads,dTLB-load-misses} {cycles} {instructions,page-faults} {task-clock}");
	ok(g.nmemb[0] == 2 && g.memb[0][0] == 0 && g.memb[0][1] == 1, "an explicit group stays whole, leader first");
	ok(g.nmemb[1] == 1 && g.memb[1][0] == 2, "a hardware event outside a group is alone");
	ok(g.nmemb[2] == 2 && g.memb[2][0] == 3 && g.memb[2][1] == 4, "a software event may join an explicit group");
	is_u64(strlen(perf_group_text("{dTLB-loads,dTLB-load-misses},cycles,{instructions,page-faults}", txt,
				      sizeof(txt))) > 0, 1, "the groups as text");
	ok(strcmp(txt, "{dTLB-loads,dTLB-load-misses} {instructions,page-faults}") == 0, "are '%s'", txt);
	ok(strcmp(perf_group_text("cycles,instructions", txt, sizeof(txt)), "") == 0, "no group, no text");

	ok(perf_resolve(PERF_DEFAULT_EVENTS, si, sp, &n, err, sizeof(err)) == 0, "the default events resolve");
	perf_layout(sp, n, &g);
	for (unsigned k = 0; k < g.n; k++) {
		unsigned hw = 0;

		for (unsigned m = 0; m < g.nmemb[k]; m++)
			hw += sp[g.memb[k][m]].group == PG_HW;
		if (hw > biggest)
			biggest = hw;
	}
	is_u64(biggest, 1, "default events: no group holds more than one hardware event");
	is_u64(g.n, 8, "default events: 5 hardware events alone, faults, scheduler, clock: 8 groups");

	ok(perf_resolve("cycles,instructions,r8,r11,r08,r011,r008,r0011,r0008,r00011", si, sp, &n, err,
			sizeof(err)) == 0 && n == 10, "10 hardware events resolve");
	perf_layout(sp, n, &g);
	is_u64(g.n, 10, "10 hardware events are 10 groups: the kernel multiplexes them one by one");

	ok(perf_resolve("{a", si, sp, &n, err, sizeof(err)) == EX_USAGE && strstr(err, "not closed"),
	   "an open group is a usage error: %s", err);
	ok(perf_resolve("cycles}", si, sp, &n, err, sizeof(err)) == EX_USAGE, "a stray '}' is a usage error");
	ok(perf_resolve("{}", si, sp, &n, err, sizeof(err)) == EX_USAGE, "an empty group is a usage error");
	ok(perf_resolve("{cycles,{instructions}}", si, sp, &n, err, sizeof(err)) == EX_USAGE,
	   "nested groups are a usage error");
	ok(perf_resolve("{cycles}:u", si, sp, &n, err, sizeof(err)) == EX_USAGE && strstr(err, "modifiers"),
	   "group modifiers are a usage error: %s", err);
}

/* Scaling by each event's own enabled/running. */
static void test_scale(void)
{
	struct ev_value v;

	perf_scale(&v, 1000, 100, 25);
	ok(v.state == EV_COUNTED && v.value == 4000.0 && v.raw == 1000, "ran a quarter of the time: scaled x4");
	perf_scale(&v, 1000, 100, 100);
	ok(v.state == EV_COUNTED && v.value == 1000.0, "ran the whole time: the raw count");
	perf_scale(&v, 0, 100, 0);
	is_u64(v.state, EV_MULTIPLEXED_OUT, "never ran: multiplexed-out, not 0");
	perf_scale(&v, 0, 100, 100);
	ok(v.state == EV_COUNTED && v.value == 0.0, "ran the whole time and read 0: a real 0");
}

/* Fill ev: counted, raw, enabled en, running run. */
static void fake2(struct ev_value *ev, uint64_t raw, uint64_t en, uint64_t run)
{
	perf_scale(ev, raw, en, run);
}

/* Issue 9: more hardware events than counters must not look like a dead PMU. */
static void test_dead_overcommit(const struct sysinfo *si)
{
	struct perf_spec sp[EV_MAX];
	struct ev_value ev[EV_MAX];
	char err[256];
	unsigned n = 0;

	perf_resolve("instructions,cycles,r8,r11,page-faults", si, sp, &n, err, sizeof(err));
	/* what the old code saw: a group scheduled 28.9 us of 11.6 ms read 0,
	 * events alone ran part of the window and counted */
	fake2(&ev[0], 0, 11600000, 28900);
	fake2(&ev[1], 0, 11600000, 28900);
	fake2(&ev[2], 1234567, 11600000, 3500000);
	fake2(&ev[3], 2345678, 11600000, 7500000);
	fake2(&ev[4], 3, 11600000, 11600000);
	is_u64(perf_check_dead(sp, ev, n), 0, "a canary that read 0 for part of the window is no evidence");
	ok(ev[0].state == EV_COUNTED && ev[2].state == EV_COUNTED && ev[2].value > 1234567.0 * 3,
	   "the counted events keep their scaled values");

	fake2(&ev[0], 0, 11600000, 11600000);
	fake2(&ev[1], 987654, 11600000, 5000000);
	is_u64(perf_check_dead(sp, ev, n), 0, "one canary read 0 all window, another counted: not dead");
	ok(ev[0].state == EV_COUNTED, "and nothing is marked");

	fake2(&ev[0], 0, 11600000, 11600000);
	fake2(&ev[1], 0, 11600000, 0);
	fake2(&ev[2], 0, 11600000, 11600000);
	fake2(&ev[3], 42, 11600000, 11600000);
	is_u64(perf_check_dead(sp, ev, n), 1, "a canary ran all window and read 0, none counted: dead");
	ok(ev[0].state == EV_READS_ZERO && ev[2].state == EV_READS_ZERO, "hardware zeros become pmu-reads-zero");
	ok(ev[1].state == EV_MULTIPLEXED_OUT, "an event that never ran stays multiplexed-out");
	ok(ev[3].state == EV_COUNTED && ev[3].raw == 42, "an event that counted is never overridden");
	ok(ev[4].state == EV_COUNTED && ev[4].raw == 3, "software events keep their values");
}

/* Touch one byte in each of pages 4 KiB pages at p. */
static void touch(volatile char *p, unsigned pages)
{
	for (unsigned i = 0; i < pages; i++)
		p[(size_t)i * 4096] = 1;
}

static void test_real(const struct sysinfo *si)
{
	struct perf_spec sp[EV_MAX];
	struct ev_value ev[EV_MAX];
	struct perf_set ps;
	char err[256];
	unsigned n = 0;
	char *warm, *area;
	int pf, mf, tc, cy;

	if (perf_resolve("page-faults,minor-faults,task-clock,cycles", si, sp, &n, err, sizeof(err))) {
		ok(0, "resolve the real events: %s", err);
		return;
	}
	pf = find(sp, n, "page-faults");
	mf = find(sp, n, "minor-faults");
	tc = find(sp, n, "task-clock");
	cy = find(sp, n, "cycles");
	warm = mmap(NULL, PAGES * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	area = mmap(NULL, PAGES * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (warm == MAP_FAILED || area == MAP_FAILED) {
		ok(0, "mmap: %s", strerror(errno));
		return;
	}
	madvise(area, PAGES * 4096, MADV_NOHUGEPAGE);
	perf_open(&ps, sp, n, si->has_core_pmu);
	/* A dry window: maps the code and data the real one uses. */
	perf_enable(&ps);
	touch(warm, PAGES);
	perf_disable(&ps);
	perf_read(&ps, ev);
	perf_enable(&ps);
	touch(area, PAGES);
	perf_disable(&ps);
	perf_read(&ps, ev);
	perf_check_dead(sp, ev, n);
	perf_close(&ps);
	if (ev[pf].state == EV_PERMISSION) {
		skip("page-faults: permission denied (perf_event_paranoid 3?)");
	} else {
		is_u64(ev[pf].state, EV_COUNTED, "page-faults is counted");
		is_u64(ev[pf].raw, PAGES, "page-faults counts exactly the pages first-touched");
		is_u64(ev[mf].raw, PAGES, "and so does minor-faults");
		ok(ev[tc].state == EV_COUNTED && ev[tc].raw > 0 && ev[tc].running > 0, "task-clock ran");
	}
	if (si->has_core_pmu) {
		ok(ev[cy].state == EV_COUNTED || ev[cy].state == EV_READS_ZERO ||
		   ev[cy].state == EV_PERMISSION || ev[cy].state == EV_MULTIPLEXED_OUT,
		   "with a core PMU (%s), cycles opens or says why not (%s)", si->core_pmu,
		   ev_state_name(ev[cy].state) ? ev_state_name(ev[cy].state) : "counted");
		if (ev[cy].state == EV_COUNTED)
			ok(ev[cy].raw > 0, "cycles counted %llu cycles", (unsigned long long)ev[cy].raw);
	} else {
		is_u64(ev[cy].state, EV_NO_PMU, "without a core PMU, cycles is missing as no-pmu");
		ok(ev[cy].value == 0 && strcmp(ev_state_name(ev[cy].state), "no-pmu") == 0,
		   "and carries that reason, not a value");
	}
	munmap(warm, PAGES * 4096);
	munmap(area, PAGES * 4096);
}

/* A real explicit group: read as one, and exact; hardware ones say why not. */
static void test_real_group(const struct sysinfo *si)
{
	struct perf_spec sp[EV_MAX];
	struct ev_value ev[EV_MAX];
	struct perf_set ps;
	char err[256];
	unsigned n = 0;
	char *area;

	if (perf_resolve("{page-faults,minor-faults},{cycles,instructions}", si, sp, &n, err, sizeof(err))) {
		ok(0, "resolve: %s", err);
		return;
	}
	area = mmap(NULL, PAGES * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED) {
		ok(0, "mmap: %s", strerror(errno));
		return;
	}
	madvise(area, PAGES * 4096, MADV_NOHUGEPAGE);
	perf_open(&ps, sp, n, si->has_core_pmu);
	perf_enable(&ps);
	perf_disable(&ps);
	perf_enable(&ps);
	touch(area, PAGES);
	perf_disable(&ps);
	perf_read(&ps, ev);
	perf_check_dead(sp, ev, n);
	perf_close(&ps);
	if (ev[0].state == EV_PERMISSION) {
		skip("explicit software group: permission denied");
	} else {
		ok(ev[0].enabled == ev[1].enabled && ev[0].running == ev[1].running && ev[0].running > 0,
		   "an explicit group is read as one: same enabled and running");
		is_u64(ev[0].raw, PAGES, "and counts exactly: page-faults");
		is_u64(ev[1].raw, PAGES, "and minor-faults");
	}
	if (!si->has_core_pmu)
		ok(ev[2].state == EV_NO_PMU && ev[3].state == EV_NO_PMU,
		   "a hardware group without a PMU: both no-pmu, never 0");
	else
		ok(ev[2].state != EV_NO_PMU, "with a core PMU the group is not no-pmu");
	munmap(area, PAGES * 4096);
}

int main(void)
{
	struct sysinfo si;

	sysinfo_collect(&si);
	test_resolve(&si);
	test_classify();
	test_dead(&si);
	test_groups(&si);
	test_scale();
	test_dead_overcommit(&si);
	test_real(&si);
	test_real_group(&si);
	return done_testing();
}
