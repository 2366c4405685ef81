/*
 * runcfg.h - the configuration of one native run, filled by the option
 * rows of native/backend.c, which also say how it names the run (the
 * cell key and the stored JSON, by opt_render()).
 */
#ifndef SGA_RUNCFG_H
#define SGA_RUNCFG_H

#include <stddef.h>
#include <stdint.h>
#include "lib/opt.h"
#include "workloads/workload.h"

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
	uint64_t working_set;	/* working set per task; 0 = the whole SGA */
	uint64_t stride;	/* bytes between touched words; 0 = the page size */
	uint64_t seed;
	struct wl_args wl;	/* the workloads' own parameters (workload_option_rows) */
	struct opt_cpus cpus;		/* --cpus; .text NULL when not given */
	struct opt_choice_n place;	/* --place, in enum place_mode's order */
	int measure;		/* enum measure */
	int access;		/* enum access */
	int first_touch;	/* enum first_touch */
	const char *events;
	struct opt_list require;	/* events that must be counted */
	uint64_t timeout;	/* seconds, 0 = none */
	const char *min_window;	/* --min-window as given, or NULL */
	uint64_t min_window_ns;	/* parsed from min_window; 0 = no calibration */
	uint64_t windows;	/* --windows; 0 = one plain window, not stored per window */
	/* Derived when the run is named, for its rows: */
	const char *backend;	/* "native" */
	uint64_t windows_cell;	/* windows when more than 1, else 0 (the cell leaves 1 out) */
};

#endif
