/*
 * pool.h - run independent jobs on several threads. Jobs are numbered
 * 0..n-1 and taken in that order; each job writes only its own results,
 * so a caller that reads them back by job number gets the same answer, in
 * the same order, whatever the number of threads.
 */
#ifndef SGA_POOL_H
#define SGA_POOL_H

/* The number of CPUs this process may run on (at least 1). */
unsigned pool_cpus(void);

/*
 * Run fn(arg, j) for every j in 0..n-1 on up to `threads` threads (the
 * calling thread is one of them). Returns 0 when every job returned 0,
 * else the return value of the lowest-numbered failing job; jobs not yet
 * started when one fails are skipped.
 */
int pool_run(unsigned n, unsigned threads, int (*fn)(void *arg, unsigned job), void *arg);

#endif
