/*
 * barrier.h - a barrier in shared memory for processes or threads that
 * can be abandoned: waiters wake every 50 ms to run a poll callback (has
 * the parent died? has a task crashed? was Ctrl-C pressed?) and give up
 * when it says so or when the abort flag is set.
 */
#ifndef SGA_BARRIER_H
#define SGA_BARRIER_H

#include <stdint.h>

struct barrier {
	uint32_t count;		/* arrivals in the current generation */
	uint32_t gen;		/* bumped when the last party arrives (futex word) */
	uint32_t parties;
	volatile int abort;	/* set by anyone to release everyone with failure */
	uint64_t released_ns;	/* clock_now_ns() of the last arrival, before the release */
};

/* Prepare b for parties waiters (in shared memory, before fork). */
void barrier_init(struct barrier *b, uint32_t parties);

/*
 * Wait until all parties arrive. poll(arg) runs every 50 ms while waiting;
 * a non-zero return aborts. Returns 0 when released normally, -1 when
 * aborted (the abort flag is then set for everyone). The last party to
 * arrive stores its clock in b->released_ns before it releases the rest, so
 * a waiter can time the arrivals without its own wake-up latency.
 */
int barrier_wait(struct barrier *b, int (*poll)(void *arg), void *arg);

/* Set the abort flag and wake every waiter. */
void barrier_abort(struct barrier *b);

/*
 * Wait until *turn == mine (tasks taking turns in index order), polling
 * like barrier_wait and giving up when b is aborted. Returns 0 or -1.
 */
int turn_wait(uint32_t *turn, uint32_t mine, struct barrier *b, int (*poll)(void *arg), void *arg);

/* Pass the turn to the next task. */
void turn_next(uint32_t *turn);

#endif
