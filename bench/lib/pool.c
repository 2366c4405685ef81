/* pool.c - independent jobs on several threads (pool.h). */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>
#include "lib/pool.h"

struct pool {
	unsigned n, next;
	int (*fn)(void *arg, unsigned job);
	void *arg;
	int *rc;		/* each job's return value */
	int failed;
	pthread_mutex_t lock;
};

unsigned pool_cpus(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

/* Take jobs until none is left (or one failed). */
static void *worker(void *p)
{
	struct pool *pl = p;

	for (;;) {
		unsigned j;

		pthread_mutex_lock(&pl->lock);
		j = pl->failed ? pl->n : pl->next++;
		pthread_mutex_unlock(&pl->lock);
		if (j >= pl->n)
			return NULL;
		pl->rc[j] = pl->fn(pl->arg, j);
		if (pl->rc[j]) {
			pthread_mutex_lock(&pl->lock);
			pl->failed = 1;
			pthread_mutex_unlock(&pl->lock);
		}
	}
}

int pool_run(unsigned n, unsigned threads, int (*fn)(void *arg, unsigned job), void *arg)
{
	struct pool pl = { .n = n, .fn = fn, .arg = arg };
	pthread_t *tid;
	unsigned started = 0;
	int ret = 0;

	if (threads > n)
		threads = n;
	pl.rc = calloc(n ? n : 1, sizeof(*pl.rc));
	tid = calloc(threads ? threads : 1, sizeof(*tid));
	if (!pl.rc || !tid) {
		free(pl.rc);
		free(tid);
		return -1;
	}
	pthread_mutex_init(&pl.lock, NULL);
	/* a thread that cannot be started leaves its share to the others */
	while (started + 1 < threads && pthread_create(&tid[started], NULL, worker, &pl) == 0)
		started++;
	worker(&pl);
	for (unsigned t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	pthread_mutex_destroy(&pl.lock);
	for (unsigned j = 0; j < n && !ret; j++)
		ret = pl.rc[j];
	free(pl.rc);
	free(tid);
	return ret;
}
