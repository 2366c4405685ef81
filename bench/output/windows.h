/* output/windows.h - a run's per-window values (run --windows) for the JSON and CSV writers. */
#ifndef SGA_OUTPUT_WINDOWS_H
#define SGA_OUTPUT_WINDOWS_H

#include <stdio.h>
#include "lib/json.h"
#include "lib/result.h"

/*
 * Write key "windows": null for a run without stored windows, else an
 * object: count; median and spread ((max - min) / median) over windows of
 * window-s, accesses-per-s and accesses-per-cpu-s (the run's metrics hold
 * the same medians); list, one object per window with its rates, its
 * event totals over tasks and each task's accesses, window_ns and events.
 */
void output_windows_json(struct json *j, const struct run_result *r);

/*
 * The per-window CSV rows, in the run's columns: task "wW:T" for task T
 * in window W (events, plus accesses and window_ns as values), and
 * "wW:run" for window W's window-s, accesses-per-s and accesses-per-cpu-s.
 * Nothing for a run without stored windows.
 */
void output_windows_csv(FILE *f, const struct run_result *r);

#endif
