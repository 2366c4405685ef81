#!/bin/sh
# t0621: scripts/nightly as a user who is not root, with too few hugepages:
# a harness error (2), with the exact fix. Run as user 65534 from copies
# that user can reach (the checkout may be in a directory only root can
# enter), with the test double of 'sgabench run' (fixtures/).
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# As user 65534, from copies that user can reach (the checkout may be in a
# directory only root can enter).
test_expect_success UNPRIVILEGED_REACH "no hugepages (not root): exit 3, a missing resource" - <<-\EOT
	reach_copy scripts bench/sgabench scripts/t/fixtures/sgabench-run-double &&
	mkdir -p "$REACH/nobody" &&
	chmod 777 "$REACH/nobody" &&
	printf 'SWEEP_AXES="tasks"\nSWEEP_TASKS="1"\nSWEEP_HUGEPAGES=999999\n' >"$REACH/nobody/cfg" &&
	rc=0 &&
	{ as_nobody env HOME="$REACH/nobody" SGABENCH_BIN="$REACH/scripts/t/fixtures/sgabench-run-double" \
		REAL_SGABENCH="$REACH/bench/sgabench" \
		"$REACH/scripts/nightly" --db "$REACH/nobody/x.db" "$REACH/nobody/cfg" >/dev/null 2>"$TMPD/err" || rc=$?; } &&
	test_is "$rc" 3
EOT
test_expect_success UNPRIVILEGED_REACH "with the fix" 'grep -q "scripts/hugepages reserve 999999" "$TMPD/err"'

test_done
