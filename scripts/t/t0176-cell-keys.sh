#!/bin/sh
# t0176: `run --cell-keys` and `sim --cell-keys` list, from the option rows,
# the word each option writes in the cell; a real run's cell has exactly
# those words (windows, min_window, and sim's words and heap words only
# when given), and scripts/sweep
# names its axes by them.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# cell_words: the keys of the cell in $TMPD/out (a --json run), one a line, sorted.
cell_words() {
	json '$.cell' | tr ' ' '\n' | sed 's/=.*//' | sort
}

test_expect_success 'run --cell-keys: OPTION<TAB>WORD, working-set is ws' - <<-\EOT
	run_sga run --cell-keys &&
	test_is "$rc" 0 &&
	grep -q "^working-set	ws$" "$TMPD/out" &&
	grep -q "^sga-size	sga$" "$TMPD/out" &&
	grep -q "^zipf-theta	zipf_theta$" "$TMPD/out" &&
	cut -f2 "$TMPD/out" | sort >"$TMPD/run-words"
EOT
test_expect_success 'a native run cell has those words and no other' - <<-\EOT
	run_sga run --page-size 4k --tasks 1 --sga-size 64k --rounds 1 --events task-clock \
		--windows 2 --min-window 1ms --no-store --json &&
	test_is "$rc" 0 &&
	cell_words >"$TMPD/got" &&
	diff -u "$TMPD/run-words" "$TMPD/got"
EOT
test_expect_success 'without --windows and --min-window their words stay out' - <<-\EOT
	run_sga run --page-size 4k --tasks 1 --sga-size 64k --rounds 1 --events task-clock --no-store --json &&
	cell_words >"$TMPD/got" &&
	grep -v "^windows$\|^min_window$" "$TMPD/run-words" >"$TMPD/want" &&
	diff -u "$TMPD/want" "$TMPD/got"
EOT
test_expect_success 'sim --cell-keys: the machine is the cell word backend' - <<-\EOT
	run_sga sim --cell-keys &&
	grep -q "^machine	backend$" "$TMPD/out" &&
	cut -f2 "$TMPD/out" | sort >"$TMPD/sim-all" &&
	grep -v "^timing$\|^hz$\|^tick-entries$\|^access-cycles$\|^inflight$\|^walk-cycles$\|^ghz$" \
		"$TMPD/sim-all" >"$TMPD/sim-words" &&
	run_sga sim --tasks 2 --rounds 1 --working-set 8m --no-store --json &&
	cell_words >"$TMPD/got" &&
	grep -v "^words$\|^heap" "$TMPD/sim-words" >"$TMPD/want" &&
	diff -u "$TMPD/want" "$TMPD/got"
EOT
test_expect_success 'sim --words 4: its word joins the cell (left out at its default, 1)' - <<-\EOT
	run_sga sim --machine arm-neoverse-n1 --tasks 2 --rounds 1 --working-set 8m --page-size 2m \
		--words 4 --no-store --json &&
	cell_words >"$TMPD/got" &&
	grep -v "^heap" "$TMPD/sim-words" >"$TMPD/want" &&
	diff -u "$TMPD/want" "$TMPD/got" &&
	json '$.cell' | grep -q "tlb=[^ ]* words=4 ws="
EOT
test_expect_success 'sim with a heap: its three words join the cell after page=' - <<-\EOT
	run_sga sim --machine intel-skylake --tasks 2 --rounds 1 --working-set 8m --page-size 2m \
		--heap-size 4m --heap-page-size 2m --heap-share 40 --words 4 --no-store --json &&
	cell_words >"$TMPD/got" &&
	diff -u "$TMPD/sim-words" "$TMPD/got" &&
	json '$.cell' | grep -q " page=2m heap=4194304 heap-page=2m heap-share=40 pattern="
EOT
test_expect_success 'sim --timing: its words join the cell only when given' - <<-\EOT
	run_sga sim --tasks 2 --rounds 1 --working-set 8m --timing --hz 100 --tick-entries 2 \
		--access-cycles 3 --inflight wait --no-store --json &&
	cell_words >"$TMPD/got" &&
	grep -v "^words$\|^heap" "$TMPD/sim-all" >"$TMPD/want" &&
	diff -u "$TMPD/want" "$TMPD/got"
EOT
test_done
