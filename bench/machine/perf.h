/*
 * perf.h - one wrapper for perf_event_open: resolve event names, open the
 * events in each task after fork and pinning (pid=0, cpu=-1, user space
 * only, disabled), enable only for the measured window, read with
 * TOTAL_TIME_ENABLED/RUNNING, scale each group by its own times as
 * `perf stat` does, and classify what is missing.
 *
 * Grouping: every hardware event is its own group unless the user groups
 * it explicitly with perf's syntax ("{dTLB-loads,dTLB-load-misses},cycles"),
 * so no implicit group can be larger than the PMU; an explicit group the
 * PMU cannot hold whole (the open is refused, or a probe with nothing else
 * of ours enabled finds it never scheduled) is split into single events.
 * Software events keep one group per kind: they are never multiplexed.
 */
#ifndef SGA_PERF_H
#define SGA_PERF_H

/* libpfm4 ships its own copy of the perf_event ABI; use only that one. */
#include <perfmon/pfmlib_perf_event.h>
#include <stddef.h>
#include "lib/result.h"

#define PERF_DEFAULT_EVENTS "dTLB-load-misses,dTLB-loads,iTLB-load-misses,cycles,instructions," \
	"page-faults,minor-faults,context-switches,cpu-migrations,task-clock"

/*
 * The kind of an event, which decides its implicit group: hardware (each
 * alone), user-only software (faults, one group), scheduler software (one
 * group), and the task clock on its own: as a member of a group led by
 * page-faults it reads 0 for unprivileged users (seen on 6.18 with
 * perf_event_paranoid 2), so it leads its own group.
 */
enum perf_group { PG_HW, PG_SW, PG_SCHED, PG_CLOCK, PG_NGROUPS };

/* At most this many groups (explicit, implicit and split ones). */
#define PERF_MAX_GROUPS EV_MAX

struct perf_spec {
	char name[64];			/* as the user wrote it */
	struct perf_event_attr attr;	/* type/config filled; exclude bits set by perf_open */
	int group;			/* enum perf_group: the kind */
	int ugroup;			/* 0, or k for the user's k-th explicit {...} group */
	int needs_kernel;		/* must count kernel-side (context switches, migrations) */
	char source[32];		/* "generic", "libpfm4", "raw", "alias:<cpu>" */
};

struct sysinfo;

/*
 * Resolve a comma-separated list of event names (perf's generic names,
 * "rHEX" raw codes, libpfm4 names such as DTLB_LOAD_MISSES:WALK_COMPLETED,
 * and the alias "dtlb-walks", chosen per CPU from si) into specs. Braces
 * group events explicitly, as perf's -e does: "{a,b},c" (not nested, no
 * modifiers). Returns 0, -EINVAL (syntax, too many) or -ENOENT (a
 * name neither perf nor libpfm4 knows on this machine) with the reason
 * in err.
 */
int perf_resolve(const char *list, const struct sysinfo *si, struct perf_spec *specs,
		 unsigned *n, char *err, size_t errlen);

/*
 * The i-th of perf's generic event names perf_resolve knows (cycles,
 * dTLB-load-misses, page-faults, ...), NULL past the last: the names a
 * run stores its counts under when its --events asks for them.
 */
const char *perf_generic_name(unsigned i);

/* Groups as planned (perf_layout) or as opened (perf_set). */
struct perf_groups {
	unsigned n;				/* number of groups */
	unsigned nmemb[PERF_MAX_GROUPS];	/* members of group g */
	unsigned memb[PERF_MAX_GROUPS][EV_MAX];	/* spec indices, leader first, in read order */
};

/*
 * Plan the groups of specs[0..n-1]: each explicit group whole, in the
 * order given; every other hardware event alone; one group per software
 * kind. Pure: no system call.
 */
void perf_layout(const struct perf_spec *specs, unsigned n, struct perf_groups *out);

/*
 * "{a,b} {c,d}": the explicit groups of an --events list, or "" when it
 * has none. Returns out.
 */
const char *perf_group_text(const char *list, char *out, size_t len);

struct perf_set {
	unsigned n;
	int fd[EV_MAX];			/* -1 when not opened */
	int state[EV_MAX];		/* EV_COUNTED if opened, else why not */
	struct perf_groups g;		/* the groups actually opened */
	int split[EV_MAX];		/* its explicit group could not be held whole */
};

/*
 * Open every spec for the calling thread, disabled, as perf_layout plans.
 * A member the kernel refuses in its group (EINVAL, ENOSPC) is opened
 * alone; an explicit hardware group that opens but is never scheduled
 * while it is the only one of ours enabled (the PMU cannot hold it: e.g.
 * the NMI watchdog keeps a counter) is split into single events. Both are
 * marked in split[]. Never fails: an event that cannot be opened gets its
 * state (no-pmu when the machine has no core PMU, permission,
 * unsupported). has_core_pmu comes from sysinfo.
 */
void perf_open(struct perf_set *ps, const struct perf_spec *specs, unsigned n, int has_core_pmu);

/* Reset and enable all groups; disable them. Cheap: one ioctl per group. */
void perf_enable(struct perf_set *ps);
void perf_disable(struct perf_set *ps);

/*
 * Read every event into out[0..n-1]: raw, enabled, running, state, and
 * the value scaled by its own group's times (raw * enabled / running).
 * An event whose group never ran in the window (running 0) is
 * multiplexed-out; one that ran part of it is counted and scaled.
 */
void perf_read(struct perf_set *ps, struct ev_value *out);

/* Scale: fill out from raw, enabled and running (pure; exposed for tests). */
void perf_scale(struct ev_value *out, uint64_t raw, uint64_t enabled, uint64_t running);

/*
 * After a window in which the task ran user code: the PMU is dead (a VM
 * that exposes a virtual PMU but never programs it) only on evidence: a
 * canary (cycles, instructions or ref-cycles) that was scheduled for the
 * whole window (running == enabled > 0) and read 0, and no canary that
 * read more than 0. Then every counted hardware event of ev[0..n-1] that
 * read 0 is marked EV_READS_ZERO, so a dead counter is never stored as a
 * real 0; an event that counted keeps its value. Returns 1 when it found
 * the PMU dead, 0 otherwise. Without a canary it cannot tell, and changes
 * nothing.
 */
int perf_check_dead(const struct perf_spec *specs, struct ev_value *ev, unsigned n);

/* Close all descriptors. */
void perf_close(struct perf_set *ps);

/* Classify an open(2) errno for an event into an enum ev_state. */
int perf_classify_errno(int err, int is_hw, int has_core_pmu);

/* One line for humans: "not counted: this machine has no hardware PMU". */
const char *perf_state_text(int state);

#endif
