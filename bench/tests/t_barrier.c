/*
 * t_barrier.c - the barrier's release time: the last party to arrive
 * stores its clock before it releases the rest, so for every party its
 * arrival comes no later than released_ns and its return no earlier.
 * Causal order, not timing: it holds however the processes are scheduled.
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lib/clock.h"
#include "native/barrier.h"
#include "tap.h"

#define PARTIES 8
#define ROUNDS 3

struct shared {
	struct barrier bar;
	uint64_t arrive[ROUNDS][PARTIES], leave[ROUNDS][PARTIES], released[ROUNDS];
};

static void party(struct shared *sh, unsigned p)
{
	for (unsigned r = 0; r < ROUNDS; r++) {
		sh->arrive[r][p] = clock_now_ns();
		if (barrier_wait(&sh->bar, NULL, NULL))
			_exit(1);
		sh->leave[r][p] = clock_now_ns();
		if (p == 0)
			sh->released[r] = sh->bar.released_ns;
		/* Every party has read this round's release before the next. */
		if (barrier_wait(&sh->bar, NULL, NULL))
			_exit(1);
	}
}

int main(void)
{
	struct shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int status, all_ok = 1;

	if (sh == MAP_FAILED)
		return 1;
	barrier_init(&sh->bar, PARTIES);
	for (unsigned p = 1; p < PARTIES; p++)
		if (fork() == 0) {
			party(sh, p);
			_exit(0);
		}
	party(sh, 0);
	for (unsigned p = 1; p < PARTIES; p++) {
		wait(&status);
		all_ok &= WIFEXITED(status) && WEXITSTATUS(status) == 0;
	}
	ok(all_ok, "%d processes pass %d barriers", PARTIES, 2 * ROUNDS);
	for (unsigned r = 0; r < ROUNDS; r++) {
		uint64_t last_in = 0, first_out = UINT64_MAX;

		for (unsigned p = 0; p < PARTIES; p++) {
			if (sh->arrive[r][p] > last_in)
				last_in = sh->arrive[r][p];
			if (sh->leave[r][p] < first_out)
				first_out = sh->leave[r][p];
		}
		ok(sh->released[r] >= last_in, "round %u: released after the last arrival", r);
		ok(sh->released[r] <= first_out, "round %u: released before any party returned", r);
	}
	return done_testing();
}
