#!/bin/sh
# t0565: progress of a long `sgabench sim`: --progress prints accesses
# done, rate and ETA on stderr; on a terminal the lines come by themselves
# after 2 s, but not with --quiet, which prints nothing but errors. The
# terminal is script(1)'s; the runs take a few seconds each.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

command -v script >/dev/null 2>&1 || skip_all "sim progress: script(1) not installed (util-linux)"
# about 5 * 10^8 accesses: several seconds on any machine this runs on (the
# model does about 1.4e8 accesses per second on this stream here)
long="--machine intel-skylake --tasks 64 --pattern random --sga-size 16g --working-set 16g --page-size 2m --rounds 1000 --no-store"

# shellcheck disable=SC2086 # $long is a list of arguments
"$SGABENCH" sim $long --json --progress >"$TMPD/out" 2>"$TMPD/err"
test_expect_success "--progress: accesses done, rate and ETA on stderr" - <<-\EOT
	grep -q "^sim: [0-9]* of 524288000 accesses (.*%), .* accesses/s, ETA " "$TMPD/err"
EOT
test_expect_success "--progress: stdout is still the JSON alone" 'jq -e .metrics "$TMPD/out" >/dev/null'

script -qec "$SGABENCH sim $long" /dev/null >"$TMPD/tty" 2>&1
test_expect_success "on a terminal: progress without asking" 'grep -q "sim: [0-9]* of 524288000 accesses" "$TMPD/tty"'

script -qec "$SGABENCH sim $long --quiet" /dev/null >"$TMPD/tty-quiet" 2>&1
test_expect_success "on a terminal with --quiet: nothing at all" - <<-\EOT
	test_is "$(wc -c <"$TMPD/tty-quiet" | tr -d ' ')" 0
EOT

test_done
