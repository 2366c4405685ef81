/*
 * runcfg.h - the configuration of one native run, filled by the option
 * table in builtin/run.c, and its two canonical renderings: the full JSON
 * stored with the run, and the cell key that groups comparable runs.
 */
#ifndef SGA_RUNCFG_H
#define SGA_RUNCFG_H

#include <stddef.h>
#include <stdint.h>
#include "lib/opt.h"

enum measure { MEASURE_WINDOW, MEASURE_FIRST_TOUCH };
enum access { ACCESS_READ, ACCESS_WRITE };
#define MEASURE_CHOICES "window|first-touch"
#define ACCESS_CHOICES "read|write"
enum first_touch { FIRST_TOUCH_SERIAL, FIRST_TOUCH_PARALLEL };
#define FIRST_TOUCH_CHOICES "serial|parallel"

struct run_cfg {
	uint64_t tasks;
	int threads;		/* tasks are threads of one process */
	uint64_t sga_size;
	int page;		/* enum sga_page */
	int backing;		/* enum sga_backing */
	int align;		/* enum sga_align */
	uint64_t address;	/* 0: choose */
	const char *hugetlbfs;	/* mount for --backing file */
	int sharedctx;
	int mem_node;		/* NUMA node, or -1 */
	const char *pattern;
	uint64_t rounds;
	uint64_t ws_size;	/* working set per task; 0 = the whole SGA */
	uint64_t stride;	/* bytes between touched words; 0 = the page size */
	uint64_t seed;
	double zipf_theta;
	const char *cpus;
	const char *place;
	int measure;		/* enum measure */
	int access;		/* enum access */
	int first_touch;	/* enum first_touch */
	const char *events;
	struct opt_list require;	/* events that must be counted */
	uint64_t timeout;	/* seconds, 0 = none */
	const char *min_window;	/* --min-window as given, or NULL */
	uint64_t min_window_ns;	/* parsed from min_window; 0 = no calibration */
	uint64_t windows;	/* --windows; 0 = one plain window, not stored per window */
};

/* Write the full configuration as a JSON object into buf. Returns buf. */
char *runcfg_json(const struct run_cfg *c, char *buf, size_t len);

/* Write the cell key (every setting that changes the result; not the seed,
 * label, output or database options) into buf, "k=v k=v ...". Returns buf.
 * min_window=TIME and windows=N are appended only when given (windows only
 * when more than 1), so older cells keep their keys; the calibrated rounds
 * are never part of the cell. */
char *runcfg_cell(const struct run_cfg *c, char *buf, size_t len);

#endif
