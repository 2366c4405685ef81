/*
 * perf.h - one wrapper for perf_event_open: resolve event names, open a
 * group per kind in each task after fork and pinning (pid=0, cpu=-1,
 * user space only, disabled), enable only for the measured window, read
 * with TOTAL_TIME_ENABLED/RUNNING, scale, and classify what is missing.
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
 * Which group an event joins: hardware, user-only software (faults),
 * scheduler software, and the task clock on its own: as a member of a
 * group led by page-faults it reads 0 for unprivileged users (seen on
 * 6.18 with perf_event_paranoid 2), so it leads its own group.
 */
enum perf_group { PG_HW, PG_SW, PG_SCHED, PG_CLOCK, PG_NGROUPS };

struct perf_spec {
	char name[64];			/* as the user wrote it */
	struct perf_event_attr attr;	/* type/config filled; exclude bits set by perf_open */
	int group;			/* enum perf_group */
	int needs_kernel;		/* must count kernel-side (context switches, migrations) */
	char source[32];		/* "generic", "libpfm4", "raw", "alias:<cpu>" */
};

struct sysinfo;

/*
 * Resolve a comma-separated list of event names (perf's generic names,
 * "rHEX" raw codes, libpfm4 names such as DTLB_LOAD_MISSES:WALK_COMPLETED,
 * and the alias "dtlb-walks", chosen per CPU from si) into specs.
 * Returns 0, EX_USAGE (syntax, too many) or EX_RESOURCE (a name neither
 * perf nor libpfm4 knows on this machine) with the reason in err.
 */
int perf_resolve(const char *list, const struct sysinfo *si, struct perf_spec *specs,
		 unsigned *n, char *err, size_t errlen);

struct perf_set {
	unsigned n;
	int fd[EV_MAX];			/* -1 when not opened */
	int state[EV_MAX];		/* EV_COUNTED if opened, else why not */
	int leader[PG_NGROUPS];		/* index of each group's leader, -1 none */
	unsigned order[PG_NGROUPS][EV_MAX];	/* member indices in group read order */
	unsigned nmemb[PG_NGROUPS];
	int solo[EV_MAX];		/* opened as its own group (could not join) */
};

/*
 * Open every spec for the calling thread, disabled. Never fails: an
 * event that cannot be opened gets its state (no-pmu when the machine has
 * no core PMU, permission, unsupported). has_core_pmu comes from sysinfo.
 */
void perf_open(struct perf_set *ps, const struct perf_spec *specs, unsigned n, int has_core_pmu);

/* Reset and enable all groups; disable them. Cheap: one ioctl per group. */
void perf_enable(struct perf_set *ps);
void perf_disable(struct perf_set *ps);

/* Read every event into out[0..n-1]: raw, enabled, running, scaled value, state. */
void perf_read(struct perf_set *ps, struct ev_value *out);

/*
 * After a window in which the task ran user code: when cycles,
 * instructions or ref-cycles was counted (running > 0) yet read 0, the
 * PMU is a stub (seen on VMs that expose a virtual PMU but never program
 * it). Then every counted hardware-group event of ev[0..n-1] is marked
 * EV_READS_ZERO, so a dead counter is never stored as a real 0. Returns
 * 1 when it marked them, 0 otherwise. Without a canary event it cannot
 * tell, and changes nothing.
 */
int perf_check_dead(const struct perf_spec *specs, struct ev_value *ev, unsigned n);

/* Close all descriptors. */
void perf_close(struct perf_set *ps);

/* Classify an open(2) errno for an event into an enum ev_state. */
int perf_classify_errno(int err, int is_hw, int has_core_pmu);

/* One line for humans: "not counted: this machine has no hardware PMU". */
const char *perf_state_text(int state);

#endif
