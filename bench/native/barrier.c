/* barrier.c - futex-based abortable barrier (process-shared). */
#include <errno.h>
#include <limits.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include "native/barrier.h"
#include "lib/clock.h"

static void futex_wait(uint32_t *addr, uint32_t val, long ns)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ns };

	syscall(SYS_futex, addr, FUTEX_WAIT, val, &ts, NULL, 0);
}

static void futex_wake_all(uint32_t *addr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

void barrier_init(struct barrier *b, uint32_t parties)
{
	b->count = 0;
	b->gen = 0;
	b->parties = parties;
	b->abort = 0;
}

void barrier_abort(struct barrier *b)
{
	b->abort = 1;
	__atomic_fetch_add(&b->gen, 1, __ATOMIC_SEQ_CST);
	futex_wake_all(&b->gen);
}

int barrier_wait(struct barrier *b, int (*poll)(void *arg), void *arg)
{
	uint32_t g = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE);

	if (b->abort)
		return -1;
	if (__atomic_add_fetch(&b->count, 1, __ATOMIC_ACQ_REL) == b->parties) {
		/* Last to arrive: reset for the next use, then release. */
		b->released_ns = clock_now_ns();
		__atomic_store_n(&b->count, 0, __ATOMIC_RELEASE);
		__atomic_fetch_add(&b->gen, 1, __ATOMIC_ACQ_REL);
		futex_wake_all(&b->gen);
		return b->abort ? -1 : 0;
	}
	while (__atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) == g) {
		if (b->abort)
			return -1;
		if (poll && poll(arg)) {
			barrier_abort(b);
			return -1;
		}
		futex_wait(&b->gen, g, 50 * 1000 * 1000);
	}
	return b->abort ? -1 : 0;
}

int turn_wait(uint32_t *turn, uint32_t mine, struct barrier *b, int (*poll)(void *arg), void *arg)
{
	uint32_t cur;

	while ((cur = __atomic_load_n(turn, __ATOMIC_ACQUIRE)) != mine) {
		if (b->abort)
			return -1;
		if (poll && poll(arg)) {
			barrier_abort(b);
			return -1;
		}
		futex_wait(turn, cur, 50 * 1000 * 1000);
	}
	return 0;
}

void turn_next(uint32_t *turn)
{
	__atomic_fetch_add(turn, 1, __ATOMIC_ACQ_REL);
	futex_wake_all(turn);
}
