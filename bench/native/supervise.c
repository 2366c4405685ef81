/* native/supervise.c - the parent watching its tasks at the barriers: reap, notice a dead task, a signal or the deadline, kill and reap (internal.h). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "native/internal.h"

/* Describe how task i ended, into w->why. */
static void describe_exit(struct watch *w, unsigned i, int st)
{
	if (WIFSIGNALED(st))
		snprintf(w->why, sizeof(w->why), "task %u (pid %d) was killed by signal %d (%s)",
			 i, (int)w->pids[i], WTERMSIG(st), strsignal(WTERMSIG(st)));
	else
		snprintf(w->why, sizeof(w->why), "task %u (pid %d) exited with status %d%s%s",
			 i, (int)w->pids[i], WEXITSTATUS(st), w->pl->ctl->err[0] ? ": " : "",
			 w->pl->ctl->err);
}

/* Reap any finished task without blocking; 1 if one ended badly. */
static int reap_some(struct watch *w)
{
	int st;
	pid_t pid;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		for (unsigned i = 0; i < w->n; i++) {
			if (w->pids[i] != pid)
				continue;
			w->reaped[i] = 1;
			if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
				if (!w->status) {
					w->status = WIFEXITED(st) && WEXITSTATUS(st) == EX_RESOURCE ?
						    EX_RESOURCE : EX_FAIL;
					describe_exit(w, i, st);
				}
				return 1;
			}
		}
	}
	return 0;
}

/* Barrier poll for the parent: a task died, a signal came, or time is up. */
int parent_poll(void *arg)
{
	struct watch *w = arg;

	if (got_signal) {
		w->status = EX_FAIL;
		snprintf(w->why, sizeof(w->why), "interrupted by %s", strsignal(got_signal));
		return 1;
	}
	if (w->deadline && clock_now_ns() > w->deadline) {
		w->status = EX_FAIL;
		snprintf(w->why, sizeof(w->why), "timed out after %llu s (--timeout)",
			 (unsigned long long)w->pl->cfg->timeout);
		return 1;
	}
	return reap_some(w);
}

/* Kill every task not yet reaped and wait for all of them. */
void kill_and_reap(struct watch *w)
{
	for (unsigned i = 0; i < w->n; i++)
		if (!w->reaped[i] && w->pids[i] > 0)
			kill(w->pids[i], SIGKILL);
	for (unsigned i = 0; i < w->n; i++) {
		if (!w->reaped[i] && w->pids[i] > 0) {
			int st;

			while (waitpid(w->pids[i], &st, 0) < 0 && errno == EINTR)
				;
			w->reaped[i] = 1;
		}
	}
}

/* Wait for every task to exit after release; any bad exit fails the run. */
void reap_all(struct watch *w)
{
	for (unsigned i = 0; i < w->n; i++) {
		int st;

		if (w->reaped[i] || w->pids[i] <= 0)
			continue;
		while (waitpid(w->pids[i], &st, 0) < 0 && errno == EINTR)
			;
		w->reaped[i] = 1;
		if ((!WIFEXITED(st) || WEXITSTATUS(st) != 0) && !w->status) {
			w->status = EX_FAIL;
			describe_exit(w, i, st);
		}
	}
}
