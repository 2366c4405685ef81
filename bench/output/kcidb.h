/*
 * output/kcidb.h - stored runs as a KernelCI KCIDB I/O v5.3 document: one
 * checkout per kernel release, one build per machine fingerprint and
 * kernel, one test per run and metric (a failed run: one ERROR test).
 * No nulls anywhere and no keys outside the schema (schema/kcidb-v5.3.json).
 */
#ifndef SGA_OUTPUT_KCIDB_H
#define SGA_OUTPUT_KCIDB_H

#include <stdint.h>
#include <stdio.h>

struct store;

/* Whether origin is a valid KCIDB origin: ^[a-z0-9_]+$. */
int kcidb_origin_ok(const char *origin);

/*
 * Write the document for the runs of s that want(ctx, run id, label,
 * status) accepts (NULL: every run) to f. Returns 0, or -1 (printed).
 */
int kcidb_write(struct store *s, const char *origin,
		int (*want)(void *ctx, int64_t id, const char *label, const char *status), void *ctx,
		FILE *f);

/*
 * Copy the JSON text to f without its nulls (members and elements).
 * Returns 0, or -1 when text is not JSON (what was copied is incomplete).
 */
int json_copy_without_nulls(const char *text, FILE *f);

struct json;

/*
 * Write "key": the JSON text without its nulls, as a raw member of j (an
 * empty object when text is empty or not JSON).
 */
void json_raw_without_nulls(struct json *j, const char *key, const char *text);

#endif
