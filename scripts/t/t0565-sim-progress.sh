#!/bin/sh
# t0565: progress of `sgabench sim`: --progress prints accesses done, rate
# and ETA on stderr, and a last line when done however short the run; on a
# terminal the lines come by themselves, but not with --quiet, which prints
# nothing but errors. The terminal is script(1)'s. When the first line may
# come (1 s, 2 s) is a matter of this machine's speed, so the terminal
# tests set it to 0 (SGABENCH_TEST_PROGRESS_AFTER). And what
# `sim --verbose` says on stderr before it starts: the machine, its TLB
# levels, the tasks and which simulator.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

command -v script >/dev/null 2>&1 || skip_all "sim progress: script(1) not installed (util-linux)"
# 64 tasks x 8192 pages x 20 rounds = 10485760 accesses: the model calls
# its progress function every 2^20 issue slots, so several times
long="--machine intel-skylake --tasks 64 --pattern random --sga-size 16g --working-set 16g --page-size 2m --rounds 20 --no-store"

# shellcheck disable=SC2086 # $long is a list of arguments
"$SGABENCH" sim $long --json --progress >"$TMPD/out" 2>"$TMPD/err"
test_expect_success "--progress: accesses done, rate and ETA on stderr" - <<-\EOT
	grep -q "^sim: 10485760 of 10485760 accesses (100.0%), .* accesses/s, ETA 0 s$" "$TMPD/err"
EOT
test_expect_success "--progress: stdout is still the JSON alone" 'jq -e .metrics "$TMPD/out" >/dev/null'
# shellcheck disable=SC2086 # $long is a list of arguments
"$SGABENCH" sim $long --json --progress --jobs 2 >"$TMPD/out2" 2>"$TMPD/err2"
test_expect_success "--progress --jobs 2: the cores' sum, done at the end; the same counts" - <<-\EOT
	grep -q "^sim: 10485760 of 10485760 accesses (100.0%), .* accesses/s, ETA 0 s$" "$TMPD/err2" &&
	test_is "$(jq -cS .totals "$TMPD/out2")" "$(jq -cS .totals "$TMPD/out")"
EOT

SGABENCH_TEST_PROGRESS_AFTER=0 script -qec "$SGABENCH sim $long" /dev/null >"$TMPD/tty" 2>&1
test_expect_success "on a terminal: progress without asking" 'grep -q "sim: [0-9]* of 10485760 accesses" "$TMPD/tty"'

SGABENCH_TEST_PROGRESS_AFTER=0 script -qec "$SGABENCH sim $long --quiet" /dev/null >"$TMPD/tty-quiet" 2>&1
test_expect_success "on a terminal with --quiet: nothing at all" - <<-\EOT
	test_is "$(wc -c <"$TMPD/tty-quiet" | tr -d ' ')" 0
EOT

short="--machine arm-neoverse-n1 --tasks 3 --rounds 2 --no-store"
# shellcheck disable=SC2086 # $short is a list of arguments
"$SGABENCH" sim $short --json >"$TMPD/plain" 2>"$TMPD/plain.err"
# shellcheck disable=SC2086
"$SGABENCH" sim $short --json --verbose >"$TMPD/verbose" 2>"$TMPD/verbose.err"
# shellcheck disable=SC2086
"$SGABENCH" sim $short --verbose --reference >/dev/null 2>"$TMPD/ref.err"
test_expect_success "--verbose: the machine and its TLB levels, as the preset gives them" - <<-\EOT
	grep -q "sim: machine arm-neoverse-n1: Arm Neoverse N1" "$TMPD/verbose.err" &&
	grep -q "sim: TLB levels l1d:48,full,lru,.*;l2:1280,5way,lru,.*; tags asid; 64 cores x 1 strands" "$TMPD/verbose.err"
EOT
test_expect_success "--verbose: the tasks and the simulator" - <<-\EOT
	grep -q "sim: 3 tasks (processes), placed smt; .* of 2m per task, 2 rounds" "$TMPD/verbose.err" &&
	grep -q "sim: simulator: the fast one" "$TMPD/verbose.err" &&
	grep -q "sim: simulator: the brute-force reference" "$TMPD/ref.err"
EOT
test_expect_success "without --verbose: nothing on stderr; the counts are the same either way" - <<-\EOT
	test_is "$(wc -c <"$TMPD/plain.err" | tr -d ' ')" 0 &&
	test_is "$(jq -cS .totals "$TMPD/plain")" "$(jq -cS .totals "$TMPD/verbose")" &&
	jq -e '.totals | length > 0' "$TMPD/plain" >/dev/null
EOT
rc=0
# shellcheck disable=SC2086
"$SGABENCH" sim $short --verbose --quiet >/dev/null 2>"$TMPD/vq.err" || rc=$?
test_expect_success "--verbose with --quiet: exit 2, saying why" - <<-\EOT
	test_is "$rc" 2 && grep -q "quiet and --verbose exclude each other" "$TMPD/vq.err"
EOT

test_done
