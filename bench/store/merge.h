/*
 * store/merge.h - copy the rows of one database into another without
 * duplicates, table by table as columns.h describes them: machines by
 * fingerprint, runs by uuid (a run already there is skipped with its
 * tasks, values and metrics), sweeps by uuid, timings and verdicts unless
 * an equal row is there, noise floors keeping the newest measurement.
 * An input from an older schema is copied with the columns it has.
 */
#ifndef SGA_STORE_MERGE_H
#define SGA_STORE_MERGE_H

struct store;

struct store_merge_count {
	long runs_added, runs_skipped, machines_added, sweeps, timings, noise, verdicts;
};

/*
 * Copy in into out, adding to *c. The caller holds a transaction on out
 * (store_begin) and rolls it back on failure. Returns 0 or -EIO (printed).
 */
int store_merge(struct store *out, struct store *in, struct store_merge_count *c);

/* A write transaction on s: begin, commit, roll back. 0 or -EIO (printed). */
int store_begin(struct store *s);
int store_commit(struct store *s);
void store_rollback(struct store *s);

#endif
