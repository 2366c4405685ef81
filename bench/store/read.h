/* store_read.h - read a stored run back (for show, reports and tests). */
#ifndef SGA_STORE_READ_H
#define SGA_STORE_READ_H

#include "lib/result.h"
#include "store/store.h"

struct stored_run {
	int64_t run_id;
	struct run_meta meta;		/* points into the strings below */
	struct run_result res;		/* res.task is allocated */
	char fingerprint[17];
	char machine_name[64];		/* SGABENCH_MACHINE when it ran */
	char kernel_variant[128];	/* the kernel it ran on (lib/kver.h), '' unknown */
	char version[64];
	char *workload, *page_size, *align, *backing, *cell, *label, *config_json, *machine_json;
};

/*
 * Load run `key` (a run id, or a uuid or unique uuid prefix; an all-digit
 * key is a run id when that run exists, else a prefix) with its
 * tasks, values and metrics. Returns 0; -ENOENT not found; -ENOTUNIQ an ambiguous
 * prefix; -EIO a database error. Free with store_free_run().
 */
int store_load_run(struct store *s, const char *key, struct stored_run *out);

void store_free_run(struct stored_run *s);

#endif
