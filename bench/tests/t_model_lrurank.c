/* t_model_lrurank.c - the rank tables of narrow LRU orders (model/lrurank.h)
 * against level.h's nibble words: every order of 2 to 5 ways, its rank
 * and back, and every move to the front, least and most recent way. */
#include <stdio.h>
#include "model/level.h"
#include "model/lrurank.h"
#include "tap.h"

int main(void)
{
	lrurank_init();
	for (unsigned n = 2; n <= LRURANK_WAYS; n++) {
		const struct lrurank_tab *t = &lrurank_tabs[n];
		const uint64_t low = (1ull << (4 * n)) - 1;
		unsigned states = 1, back = 0, moves = 0, ends = 0, seen[LRURANK_STATES] = { 0 };

		for (unsigned k = 2; k <= n; k++)
			states *= k;
		for (unsigned r = 0; r < states; r++) {
			/* as level.h keeps it: the nibbles beyond the ways hold 0xf */
			uint64_t word = ~low | t->order[r];

			back += lrurank_of(word, n) == r && lrurank_order((uint8_t)r, n, ~0ull) == word;
			ends += t->lru[r] == ((word >> (4 * (n - 1))) & 0xf) && t->mru[r] == (word & 0xf);
			for (unsigned w = 0; w < n; w++)
				moves += lrurank_order(t->next[r * n + w], n, ~0ull) == level_nibble_front(word, w);
		}
		for (unsigned r = 0; r < states; r++)
			seen[lrurank_of(~low | t->order[r], n)]++;
		for (unsigned r = 0; r < states; r++)
			if (seen[r] != 1)
				back = 0;
		ok(back == states, "%u ways: %u orders, each its own rank and back", n, states);
		ok(ends == states, "%u ways: least and most recent way of every rank", n);
		ok(moves == states * n, "%u ways: %u moves to the front equal level_nibble_front()",
		   n, states * n);
	}
	return done_testing();
}
