/* perf.c - open, enable, read, scale and classify per-task events; names in perf_resolve.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include "lib/log.h"
#include "machine/perf.h"

int perf_classify_errno(int err, int is_hw, int has_core_pmu)
{
	if (err == EACCES || err == EPERM)
		return EV_PERMISSION;
	if (is_hw && !has_core_pmu)
		return EV_NO_PMU;
	return EV_UNSUPPORTED;
}

const char *perf_state_text(int state)
{
	switch (state) {
	case EV_UNSUPPORTED: return "not counted: this CPU or kernel does not support it";
	case EV_PERMISSION: return "not counted: permission denied (perf_event_paranoid or capabilities)";
	case EV_NO_PMU: return "not counted: this machine has no hardware PMU";
	case EV_MULTIPLEXED_OUT: return "not counted: never scheduled on the PMU (multiplexed out)";
	case EV_NOT_MODELLED: return "not counted: the model does not simulate it";
	case EV_READS_ZERO: return "not counted: the PMU opened but counts nothing (cycles or instructions read 0)";
	case EV_NO_DRIVER: return "not counted: a custom TLB has no CPU, so no Linux driver defines it";
	default: return "counted";
	}
}

static int sys_perf_event_open(struct perf_event_attr *a, int group_fd)
{
	return (int)syscall(SYS_perf_event_open, a, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
}

/* Open spec i with leader fd lead (-1: as a group leader, disabled). */
static int open_one(const struct perf_spec *sp, int lead)
{
	struct perf_event_attr a = sp->attr;

	a.size = sizeof(a);
	a.disabled = lead < 0;
	a.exclude_kernel = !sp->needs_kernel;
	a.exclude_hv = 1;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	return sys_perf_event_open(&a, lead);
}

/* Add spec i as a group of its own to ps; the fd is already open. */
static void add_solo(struct perf_set *ps, unsigned i)
{
	unsigned g = ps->g.n++;

	ps->g.nmemb[g] = 1;
	ps->g.memb[g][0] = i;
}

/*
 * Enable group g alone for a short spin and report whether it was ever
 * scheduled. Every other group of ours is disabled at this point, so a
 * group that does not run now cannot be held by the PMU at all.
 */
static int group_runs(struct perf_set *ps, unsigned g)
{
	uint64_t buf[3 + EV_MAX];
	int fd = ps->fd[ps->g.memb[g][0]];
	volatile unsigned spin = 0;

	ioctl(fd, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	for (unsigned k = 0; k < 200000; k++)
		spin = spin + 1;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	if (read(fd, buf, sizeof(buf)) < (ssize_t)(3 * sizeof(uint64_t)))
		return 1;	/* cannot tell: keep it */
	return !(buf[1] > 0 && buf[2] == 0);
}

/* Does group g of ps hold more than one event, one of them hardware? */
static int hw_multi(const struct perf_set *ps, const struct perf_spec *specs, unsigned g)
{
	if (ps->g.nmemb[g] < 2)
		return 0;
	for (unsigned m = 0; m < ps->g.nmemb[g]; m++)
		if (specs[ps->g.memb[g][m]].group == PG_HW)
			return 1;
	return 0;
}

/* Reopen every member of group g alone (the PMU cannot hold it whole). */
static void split_group(struct perf_set *ps, const struct perf_spec *specs, unsigned g,
			int has_core_pmu)
{
	unsigned memb[EV_MAX], nm = ps->g.nmemb[g];

	memcpy(memb, ps->g.memb[g], nm * sizeof(memb[0]));
	for (unsigned m = nm; m-- > 0;)
		close(ps->fd[memb[m]]);
	/* the first member takes over slot g, the others are appended */
	ps->g.nmemb[g] = 0;
	for (unsigned m = 0; m < nm; m++) {
		unsigned i = memb[m];
		int fd = open_one(&specs[i], -1);

		ps->fd[i] = fd;
		ps->split[i] = 1;
		if (fd < 0) {
			ps->state[i] = perf_classify_errno(errno, specs[i].group == PG_HW, has_core_pmu);
			continue;
		}
		if (!ps->g.nmemb[g]) {
			ps->g.nmemb[g] = 1;
			ps->g.memb[g][0] = i;
		} else {
			add_solo(ps, i);
		}
	}
}

void perf_open(struct perf_set *ps, const struct perf_spec *specs, unsigned n, int has_core_pmu)
{
	struct perf_groups plan;

	memset(ps, 0, sizeof(*ps));
	ps->n = n;
	for (unsigned i = 0; i < EV_MAX; i++)
		ps->fd[i] = -1;
	perf_layout(specs, n, &plan);
	for (unsigned pg = 0; pg < plan.n; pg++) {
		unsigned g = ps->g.n, lead = 0;
		int have_lead = 0;

		for (unsigned m = 0; m < plan.nmemb[pg]; m++) {
			unsigned i = plan.memb[pg][m];
			int fd = open_one(&specs[i], have_lead ? ps->fd[lead] : -1);

			if (fd < 0 && have_lead && (errno == EINVAL || errno == ENOSPC)) {
				/* The kernel will not take it into this group: count it alone. */
				fd = open_one(&specs[i], -1);
				ps->split[i] = fd >= 0;
				ps->split[lead] |= fd >= 0;
				ps->fd[i] = fd;
				if (fd >= 0) {
					ps->state[i] = EV_COUNTED;
					add_solo(ps, i);
					continue;
				}
			}
			ps->fd[i] = fd;
			if (fd < 0) {
				ps->state[i] = perf_classify_errno(errno, specs[i].group == PG_HW, has_core_pmu);
				continue;
			}
			ps->state[i] = EV_COUNTED;
			if (!have_lead) {
				have_lead = 1;
				lead = i;
				g = ps->g.n++;
			}
			ps->g.memb[g][ps->g.nmemb[g]++] = i;
		}
	}
	for (unsigned g = 0, ng = ps->g.n; g < ng; g++)
		if (hw_multi(ps, specs, g) && !group_runs(ps, g))
			split_group(ps, specs, g, has_core_pmu);
}

/* Apply ioctl op to every group leader. */
static void each_leader(struct perf_set *ps, unsigned long op)
{
	for (unsigned g = 0; g < ps->g.n; g++)
		ioctl(ps->fd[ps->g.memb[g][0]], op, PERF_IOC_FLAG_GROUP);
}

void perf_enable(struct perf_set *ps)
{
	each_leader(ps, PERF_EVENT_IOC_RESET);
	each_leader(ps, PERF_EVENT_IOC_ENABLE);
}

void perf_disable(struct perf_set *ps)
{
	each_leader(ps, PERF_EVENT_IOC_DISABLE);
}

void perf_scale(struct ev_value *out, uint64_t raw, uint64_t en, uint64_t run)
{
	out->raw = raw;
	out->enabled = en;
	out->running = run;
	if (run == 0) {
		out->state = EV_MULTIPLEXED_OUT;
		out->value = 0;
		return;
	}
	out->state = EV_COUNTED;
	out->value = run >= en ? (double)raw : (double)raw * (double)en / (double)run;
}

void perf_read(struct perf_set *ps, struct ev_value *out)
{
	uint64_t buf[3 + EV_MAX];

	for (unsigned i = 0; i < ps->n; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].state = ps->state[i];
	}
	for (unsigned g = 0; g < ps->g.n; g++) {
		unsigned nm = ps->g.nmemb[g];
		ssize_t want = (ssize_t)((3 + nm) * sizeof(uint64_t));

		if (read(ps->fd[ps->g.memb[g][0]], buf, sizeof(buf)) < want || buf[0] != nm) {
			for (unsigned m = 0; m < nm; m++)
				out[ps->g.memb[g][m]].state = EV_UNSUPPORTED;
			continue;
		}
		for (unsigned m = 0; m < nm; m++)
			perf_scale(&out[ps->g.memb[g][m]], buf[3 + m], buf[1], buf[2]);
	}
}

/* Can this event not read 0 over a window in which the task ran user code? */
static int is_canary(const struct perf_spec *sp)
{
	if (sp->attr.type != PERF_TYPE_HARDWARE)
		return 0;
	return sp->attr.config == PERF_COUNT_HW_CPU_CYCLES ||
	       sp->attr.config == PERF_COUNT_HW_INSTRUCTIONS ||
	       sp->attr.config == PERF_COUNT_HW_REF_CPU_CYCLES;
}

int perf_check_dead(const struct perf_spec *specs, struct ev_value *ev, unsigned n)
{
	int zero_whole = 0, counted = 0;

	for (unsigned i = 0; i < n; i++) {
		if (!is_canary(&specs[i]) || ev[i].state != EV_COUNTED)
			continue;
		if (ev[i].raw > 0)
			counted = 1;
		else if (ev[i].running > 0 && ev[i].running >= ev[i].enabled)
			zero_whole = 1;
	}
	if (counted || !zero_whole)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		if (specs[i].group != PG_HW || ev[i].state != EV_COUNTED || ev[i].raw != 0)
			continue;
		ev[i].state = EV_READS_ZERO;
		ev[i].value = 0;
	}
	return 1;
}

void perf_close(struct perf_set *ps)
{
	for (unsigned i = 0; i < ps->n; i++) {
		if (ps->fd[i] >= 0)
			close(ps->fd[i]);
		ps->fd[i] = -1;
	}
}
