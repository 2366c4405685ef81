#!/bin/sh
# t0001: the test library and the runner themselves: results, prerequisites
# with their reasons, cleanup that runs even when a test fails, plans, and a
# runner that fails a file whose plan is missing or wrong.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# A throwaway tree with the library, the runner and the given test files.
fake="$TMPD/fake"
mkdir -p "$fake/scripts/t"
cp "$top/scripts/t/test-lib.sh" "$top/scripts/t/run-tests" "$fake/scripts/t/"
# sub NAME: a test file NAME in the fake tree, its body from stdin.
sub() {
	{ printf '#!/bin/sh\n. "$(dirname "$0")/test-lib.sh"\n'; cat; } >"$fake/scripts/t/$1"
}

sub t9001-mixed.sh <<'EOF2'
test_expect_success 'passes' 'true'
test_expect_success 'fails' 'echo why it failed; false'
test_lazy_prereq NEVER 'false' 'never here, on purpose'
test_expect_success NEVER 'needs NEVER' 'false'
test_expect_success 'cleanup runs after a failure' 'test_when_finished "touch \"\$MARK\"" && false'
test_expect_success 'a body from a here-document' - <<-\EOT
	test_is "$(echo "it's")" "it's"
EOT
x=1
test_expect_success 'a body sees and sets variables' 'test_is "$x" 1 && y=2'
test_is "$y" 2 && test_expect_success 'the variable stayed set' true
test_done
EOF2
rc=0
MARK="$TMPD/cleaned" sh "$fake/scripts/t/t9001-mixed.sh" >"$TMPD/out" 2>&1 || rc=$?
test_expect_success 'a file with a failing test exits 1' 'test_is "$rc" 1'
test_expect_success 'a passing test is ok' 'grep -qx "ok 1 - passes" "$TMPD/out"'
test_expect_success 'a failing test is not ok, with its output' - <<-\EOT
	grep -qx "not ok 2 - fails" "$TMPD/out" &&
	grep -qx "#   why it failed" "$TMPD/out"
EOT
test_expect_success 'a missing prerequisite skips, with its reason' 'grep -qx "ok 3 # SKIP needs NEVER (missing NEVER: never here, on purpose)" "$TMPD/out"'
test_expect_success 'test_when_finished ran although the test failed' - <<-\EOT
	grep -qx "not ok 4 - cleanup runs after a failure" "$TMPD/out" &&
	test -e "$TMPD/cleaned"
EOT
test_expect_success 'a here-document body keeps its quotes' 'grep -qx "ok 5 - a body from a here-document" "$TMPD/out"'
test_expect_success 'variables cross from one test to the next' 'grep -qx "ok 7 - the variable stayed set" "$TMPD/out"'
test_expect_success 'the plan comes last and counts every test' 'test_is "$(tail -n 1 "$TMPD/out")" 1..7'

sub t9002-skipped.sh <<'EOF2'
skip_all 'nothing to do here'
EOF2
test_expect_success 'skip_all before any test: a plan of 0 with the reason' 'test_is "$(sh "$fake/scripts/t/t9002-skipped.sh")" "1..0 # SKIP nothing to do here"'

# The runner: a file that stops early, one whose plan is wrong, and a good one.
rm "$fake/scripts/t/t9001-mixed.sh"
sub t9003-early.sh <<'EOF2'
test_expect_success 'one' true
exit 0
EOF2
sub t9004-badplan.sh <<'EOF2'
echo "ok 1 - one"
echo "1..2"
EOF2
sub t9005-good.sh <<'EOF2'
test_expect_success 'one' true
test_done
EOF2
rc=0
sh "$fake/scripts/t/run-tests" >"$TMPD/runner" 2>&1 || rc=$?
test_expect_success 'the runner fails when a file fails' 'test_is "$rc" 1'
test_expect_success 'a file that prints no plan fails' 'grep -q "t9003-early.sh printed no plan" "$TMPD/runner"'
test_expect_success 'a file whose plan does not match fails' 'grep -q "t9004-badplan.sh planned 2 tests but ran 1" "$TMPD/runner"'
test_expect_success 'a skipped file counts as one skip' 'grep -q "^ok   scripts/t/t9002-skipped.sh .* 0 passed, 1 skipped" "$TMPD/runner"'
test_expect_success 'the runner ends with the totals' 'test_is "$(tail -n 1 "$TMPD/runner")" "3 passed, 2 failed, 1 skipped"'
test_done
