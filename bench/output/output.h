/* output.h - one run as human text, JSON or CSV (run, show, sim share these). */
#ifndef SGA_OUTPUT_H
#define SGA_OUTPUT_H

#include <stdint.h>
#include <stdio.h>
#include "lib/result.h"

struct sysinfo;

/* Everything the writers print besides the result itself. */
struct run_view {
	const struct run_meta *meta;
	const struct run_result *res;
	const struct sysinfo *si;	/* the machine printing this (the envelope) */
	const char *command;		/* the subcommand printing it: "run", "sim", "show" */
	const char *fingerprint;	/* the fingerprint of the machine the run ran on */
	const char *machine_name;	/* its name (SGABENCH_MACHINE), or NULL */
	const char *kernel_variant;	/* the kernel it ran on (lib/kver.h), or NULL unknown */
	const char *machine_json;	/* the machine record as JSON, or NULL */
	const char *describe;		/* one line: what ran where, or NULL */
	int64_t run_id;			/* 0 when not stored */
	const char *db;			/* where it was stored, or NULL */
	const char *groups;		/* the explicit event groups, "{a,b} {c,d}", or NULL */
};

/* Human-readable: header, one line per event (total, per-task min/median/max),
 * one line per missing counter with its reason, then the run metrics. */
void output_human(FILE *f, const struct run_view *v);

/* One JSON object: tool and schema versions, machine fingerprint, run id,
 * config, totals (null when missing, reason alongside), metrics, tasks,
 * and windows (output/windows.h; null without --windows/--min-window). */
void output_json(FILE *f, const struct run_view *v);

/* Write the JSON object key of one task's value of one event: value and
 * raw (null when missing), enabled_ns, running_ns and the missing reason. */
struct json;
struct ev_value;
void output_ev_json(struct json *j, const char *key, const struct ev_value *v);

/* An object "multiplexing" for event e of r, for a KCIDB test's misc: its
 * least trusted task reading's trust, running ratio, and rotations or why
 * they are unknown (rotations_missing), plus the threshold; no nulls. */
void json_mux_event(struct json *j, const struct run_result *r, unsigned e);

/* Write s as a CSV field (quoted when it holds a comma, quote or newline). */
void output_csv_field(FILE *f, const char *s);

/* CSV: '#' header lines with versions/fingerprint/run id, then
 * task,event,value,raw,enabled,running,missing rows (task "total" sums,
 * "run" the run metrics, "wW:T" and "wW:run" each window's values). */
void output_csv(FILE *f, const struct run_view *v);

#endif
