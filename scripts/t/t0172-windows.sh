#!/bin/sh
# t0172: timed and repeated windows. --min-window makes every window last
# at least that long, stores the calibrated rounds and keeps them out of
# the cell; --windows N stores N windows per task with their counters,
# takes the run's window-s and accesses-per-s as medians over windows, and
# leaves first touch (faults) as it was; the test knob SGABENCH_TEST_WORK
# is refused when malformed and marked on the run when used.
# shellcheck source=scripts/t/tap.sh
. "$(dirname "$0")/tap.sh"

db=$TMPD/w.db
q() { sqlite3 "$db" "$1"; }

run_sga run --tasks 2 --sga-size 16m --page-size 4k --rounds 1 --min-window 200ms \
	--events task-clock,page-faults --db "$db" --label mw --json
is "--min-window 200ms: exit 0" "$rc" 0
is "one window per task stored" "$(q "SELECT COUNT(*) FROM run_window WHERE run_id = 1")" 2
is "every task's window lasted at least 200 ms" \
	"$(q "SELECT COUNT(*) FROM run_window WHERE run_id = 1 AND window_ns < 200000000")" 0
ok "the calibrated rounds are stored and more than the 1 asked for" \
	test "$(q "SELECT value > 1 FROM metric WHERE run_id = 1 AND name = 'window-rounds'")" = 1
is "the window's accesses are whole round sequences of 4096 pages" \
	"$(q "SELECT COUNT(*) FROM run_window WHERE run_id = 1 AND accesses % 4096 != 0")" 0
is "the cell names min_window and the asked rounds, not the calibrated ones" \
	"$(q "SELECT cell LIKE '% rounds=1 %' AND cell LIKE '% min_window=200ms' FROM run WHERE id = 1")" 1
is "window-s is the longest task's window" "$(json '$.metrics."window-s"')" \
	"$(q "SELECT MAX(window_ns) / 1e9 FROM run_window WHERE run_id = 1")"
run_sga run --tasks 2 --sga-size 16m --page-size 4k --rounds 1 --min-window 0.2s --db "$db" --quiet
is "a second run calibrated to the same time (0.2s) shares the cell" \
	"$(q "SELECT COUNT(DISTINCT cell) FROM run")" 1

run_sga run --tasks 2 --sga-size 16m --page-size 4k --rounds 3 --windows 4 \
	--events task-clock,page-faults --db "$db" --json
is "--windows 4: exit 0" "$rc" 0
id=$(json '$.run_id')
is "4 windows x 2 tasks stored" "$(q "SELECT COUNT(*) FROM run_window WHERE run_id = $id")" 8
is "4 windows x 2 tasks x 2 events of counters" "$(q "SELECT COUNT(*) FROM window_value WHERE run_id = $id")" 16
is "each window did the asked 3 rounds of 4096 pages" \
	"$(q "SELECT COUNT(*) FROM run_window WHERE run_id = $id AND accesses != 3 * 4096")" 0
is "no page fault in any window: first touch happened once, before them" \
	"$(q "SELECT CAST(SUM(value) AS INTEGER) FROM window_value WHERE run_id = $id AND event = 'page-faults'")" 0
is "first-touch-faults: one per page per task, as without windows" "$(json '$.metrics."first-touch-faults"')" 8192
is "the task's task-clock is the sum over its windows" \
	"$(q "SELECT COUNT(*) FROM (SELECT task, SUM(value) AS s FROM window_value WHERE run_id = $id
		AND event = 'task-clock' GROUP BY task) w JOIN value v ON v.run_id = $id AND v.task = w.task
		AND v.event = 'task-clock' WHERE abs(v.value - w.s) > 0.5")" 0
# The median over windows of (accesses of both tasks / the longest window).
med=$(q "SELECT printf('%.6g', AVG(r)) FROM (SELECT r FROM (SELECT SUM(accesses) * 1e9 / MAX(window_ns) AS r
	FROM run_window WHERE run_id = $id GROUP BY win) ORDER BY r LIMIT 2 OFFSET 1)")
is "accesses-per-s is the median over windows" "$(printf '%.6g' "$(json '$.metrics."accesses-per-s"')")" "$med"
is "windows=4 is part of the cell" "$(q "SELECT cell LIKE '% windows=4' FROM run WHERE id = $id")" 1
# Each task's CPU time is at most its window, so the 2 tasks' task-clock is
# at most twice the longest window.
ok "accesses-per-cpu-s is there and at least accesses-per-s / 2 tasks" \
	test "$(sqlite3 :memory: "SELECT json_extract(readfile('$TMPD/out'), '\$.metrics.\"accesses-per-cpu-s\"') * 2
		>= json_extract(readfile('$TMPD/out'), '\$.metrics.\"accesses-per-s\"')")" = 1

run_sga run --min-window 5x --no-store
is "--min-window 5x: usage error" "$rc" 2
run_sga run --min-window 0ms --no-store
is "--min-window 0ms: usage error" "$rc" 2
run_sga run --windows 0 --no-store
is "--windows 0: usage error" "$rc" 2
run_sga run --windows 2 --measure first-touch --no-store
is "--windows with --measure first-touch: usage error" "$rc" 2
run_sga run --windows 2 --pattern random --sga-size 1g --page-size 4k --rounds 100 --no-store
is "--windows over an order too long to pre-generate: usage error" "$rc" 2
ok "and it says why" grep -q "too many to pre-generate" "$TMPD/err"

SGABENCH_TEST_WORK=abc run_sga run --tasks 1 --sga-size 16m --page-size 4k --no-store
is "SGABENCH_TEST_WORK=abc: usage error" "$rc" 2
SGABENCH_TEST_WORK=4 run_sga run --tasks 1 --sga-size 16m --page-size 4k --access write --no-store
is "the knob with --access write: usage error" "$rc" 2
SGABENCH_TEST_WORK=4 run_sga run --tasks 1 --sga-size 16m --page-size 4k --rounds 2 --db "$db" --json
is "the knob: exit 0" "$rc" 0
is "a knob run says so in its metrics" "$(json '$.metrics."test-work"')" 4
done_testing
