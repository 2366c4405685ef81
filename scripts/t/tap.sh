# tap.sh - the old name of test-lib.sh, kept so a test written against it
# still runs: its ok/is/skip/done_testing are in test-lib.sh. New tests
# source test-lib.sh and use test_expect_success.
# shellcheck shell=sh
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
