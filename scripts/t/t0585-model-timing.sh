#!/bin/sh
# t0585: `sim --timing` through the command line (build/tests/t_model_timed
# checks the engine against the reference and counts made by hand): one
# strand takes accesses + walks x W cycles and walks as the untimed model;
# two lockstep strands on one shared page both walk, or the second waits;
# ticks happen floor(cycles x hz / cpu_hz) times; the cell names the timing
# only when it is on; bad combinations exit 2.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

sim() { "$SGABENCH" sim --no-store --json "$@"; }
# field NAME FILE: the number after "NAME " in the timing line of FILE
field() { sed -n "s/.*[ (]$1 \([0-9][0-9]*\).*/\1/p" "$2"; }

one="--tasks 1 --pattern random --working-set 800m --rounds 30"
# shellcheck disable=SC2086 # $one is a list of arguments
sim $one >"$TMPD/plain.json"
# shellcheck disable=SC2086
sim $one --timing --walk-cycles 25 >"$TMPD/timed.json" 2>"$TMPD/timed.err"
test_expect_success "one strand: the untimed walks, and cycles = accesses + walks x W" - <<-\EOT
	walks=$(jq '.totals["dtlb-walks"]' "$TMPD/timed.json") &&
	test "$walks" -gt 200 &&
	test_is "$walks" "$(jq '.totals["dtlb-walks"]' "$TMPD/plain.json")" &&
	test_is "$(sed -n 's/.*timing: \([0-9]*\) cycles.*/\1/p' "$TMPD/timed.err")" $((6000 + walks * 25))
EOT

test_expect_success "the cell names the timing only when it is on" - <<-\EOT
	! jq -r .cell "$TMPD/plain.json" | grep -q -e timing -e walk-cycles &&
	jq -r .cell "$TMPD/timed.json" | grep -q ' timing=1 walk-cycles=25' &&
	test_is "$(jq .config.timing "$TMPD/timed.json")" true &&
	test_is "$(jq .config.timing "$TMPD/plain.json")" null
EOT

# two strands in lockstep sweep the same 69 shared pages: the second
# strand's lookup comes while the first one's walk is in flight
pair="--tasks 2 --sharedctx --rounds 20 --timing"
# shellcheck disable=SC2086
sim $pair >"$TMPD/walk.json" 2>"$TMPD/walk.err"
# shellcheck disable=SC2086
sim $pair --inflight wait >"$TMPD/wait.json" 2>"$TMPD/wait.err"
test_expect_success "in flight: both strands walk, or the second waits (one walk a page)" - <<-\EOT
	test_is "$(jq '.totals["dtlb-walks"]' "$TMPD/walk.json")" 138 &&
	test_is "$(jq '.totals["dtlb-walks"]' "$TMPD/wait.json")" 69 &&
	test_is "$(sed -n 's/.*merged walks \([0-9]*\).*/\1/p' "$TMPD/wait.err")" 69 &&
	jq -r .cell "$TMPD/wait.json" | grep -q 'inflight=wait'
EOT

# 1.4 GHz: a tick every 1.4e9 / hz cycles
# shellcheck disable=SC2086
sim $one --rounds 20000 --timing --hz 1000 --tick-entries 4 >"$TMPD/tick.json" 2>"$TMPD/tick.err"
test_expect_success "ticks = floor(cycles x hz / cpu_hz), K kernel accesses each" - <<-\EOT
	cycles=$(sed -n 's/.*timing: \([0-9]*\) cycles.*/\1/p' "$TMPD/tick.err") &&
	ticks=$(field ticks "$TMPD/tick.err") &&
	test "$ticks" -gt 2 &&
	test_is "$ticks" $((cycles * 1000 / 1400000000)) &&
	test_is "$(sed -n 's/.*: \([0-9]*\) kernel accesses.*/\1/p' "$TMPD/tick.err")" $((ticks * 4))
EOT

test_expect_success "refused with exit 2: timing options alone, jitter, heap, tag none, reference" - <<-\EOT
	refuse 2 "need --timing" sim --no-store --hz 250 &&
	refuse 2 "need --timing" sim --no-store --inflight wait &&
	refuse 2 "needs --hz" sim --no-store --timing --tick-entries 3 &&
	refuse 2 "jitter must be 0" sim --no-store --timing --jitter 16 &&
	refuse 2 "does not model a heap" sim --no-store --timing --machine intel-skylake --heap-size 1m &&
	refuse 2 "tag none" sim --no-store --timing --tag none &&
	refuse 2 "not with --reference" sim --no-store --timing --reference &&
	refuse 2 "not with --jobs" sim --no-store --timing --jobs 2
EOT

test_done
