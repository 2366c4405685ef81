#!/bin/sh
# t0456: the C test of the store's readers (bench/tests/t_store_engines.c)
# against a real PostgreSQL server it starts (pg-lib.sh), beside SQLite:
# the same runs stored on both, every reader checked against hand-computed
# answers, and both engines' answers equal. make check runs the same
# program alone for SQLite.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=scripts/t/pg-lib.sh
. "$(dirname "$0")/pg-lib.sh"

prog=$top/build/tests/t_store_engines
[ -x "$prog" ] || skip_all "build/tests/t_store_engines is not built (make)"
pg_start || skip_all "$pg_why"

test_expect_success 'the store answers the same on SQLite and on the server' '
	"$prog" "$PG_URI" >"$TMPD/tap" 2>"$TMPD/err"; rc=$?
	{ sed "s/^/# /" "$TMPD/tap" | grep -v "^# ok" || true; } &&
	test_is "$rc" 0 &&
	test_is "$(grep -c "^not ok" "$TMPD/tap")" 0 &&
	pg_oks=$(grep -c "^ok .*PostgreSQL:" "$TMPD/tap") &&
	test_is "$pg_oks" "$(grep -c "^ok .*SQLite:" "$TMPD/tap")" && test "$pg_oks" -ge 15 &&
	grep -q "^ok .* both engines answered the same" "$TMPD/tap"
'

test_expect_success 'the server stops with nothing left running' '
	dir=$PG_DIR && pg_stop &&
	test ! -d "$dir" &&
	test_is "$(ps -eo args | grep -F "$dir" | grep -vc grep)" 0
'
test_done
