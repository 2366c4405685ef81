/*
 * window.h - timed and repeated measured windows (run --min-window,
 * --windows): the calibration rule, per-task totals over the windows, and
 * the run metrics taken as medians over windows.
 */
#ifndef SGA_WINDOW_H
#define SGA_WINDOW_H

#include <stddef.h>
#include <stdint.h>
#include "lib/result.h"

#define WINDOW_MAX 1000		/* --windows upper bound */
#define WINDOW_MARGIN 1.1	/* calibrated windows aim this much above --min-window */

/*
 * Parse a duration: a decimal number with the unit ns, us, ms or s
 * ("200ms", "0.5s", "1500us"). Returns 0 with *ns set, or -EINVAL.
 */
int window_parse_time(const char *s, uint64_t *ns);

/* Render ns canonically ("200ms", "1s", "1500us", "7ns") into buf; returns buf. */
char *window_fmt_time(uint64_t ns, char *buf, size_t len);

/*
 * One step of the calibration. Every task just ran reps repetitions of
 * the round sequence; max_ns is the longest of their times. While max_ns
 * is below half of target_ns the next step grows reps (by 2 to 100 times,
 * toward half the target) and *done stays 0; once it is not, *done is set
 * and the result is the reps whose window should last target_ns *
 * WINDOW_MARGIN at the speed measured. Never above cap, never below 1.
 * Every task computes the same answer from the same max_ns.
 */
uint64_t window_next_reps(uint64_t reps, uint64_t max_ns, uint64_t target_ns, uint64_t cap,
			  int *done);

/*
 * Fill task t's accesses, window_ns and event values in tr with its sums
 * over the nwin windows of win ([w * ntasks + t]). An event missing in
 * any window is missing in the total, with that window's reason.
 */
void window_task_total(const struct window_result *win, unsigned nwin, unsigned ntasks,
		       unsigned t, unsigned nev, struct task_result *tr);

/*
 * Set r's run metrics from its windows: window-s is the median over
 * windows of the longest task's window, accesses-per-s the median over
 * windows of (accesses of all tasks / the longest window), and
 * window-s-spread / accesses-per-s-spread their (max - min) / median;
 * accesses-per-cpu-s the median over windows of (accesses of all tasks /
 * their task-clock), when task-clock was counted in every task and window:
 * a rate that time spent descheduled does not dilute, and its spread
 * accesses-per-cpu-s-spread; and accesses-per-cpu-s-best, the fastest
 * task window (one task's accesses / its own task-clock, the largest over
 * every task and window): the noise of a shared VM (the host preempting a
 * vCPU, which the guest's task-clock still counts, or a busy sibling
 * thread) only ever slows a window, so the fastest one is the estimate of
 * the loop's own speed that such noise moves least, the minimum time of
 * BenchmarkTools (Chen and Revels, 2016). Also windows. Needs
 * r->nwindows >= 1.
 */
void window_metrics(struct run_result *r);

#endif
