#!/bin/sh
# t0172: timed and repeated windows. --min-window makes every window last
# at least that long, stores the calibrated rounds and keeps them out of
# the cell; --windows N stores N windows per task with their counters,
# takes the run's window-s and accesses-per-s as medians over windows, and
# leaves first touch (faults) as it was; the test knob SGABENCH_TEST_WORK
# is refused when malformed and marked on the run when used.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

db=$TMPD/w.db
q() { sqlite3 "$db" "$1"; }

run_sga run --tasks 2 --sga-size 16m --page-size 4k --rounds 1 --min-window 200ms \
	--events task-clock,page-faults --db "$db" --label mw --json
test_expect_success "--min-window 200ms: exit 0" - <<-\EOT
	test_is "$rc" 0
EOT
test_expect_success "one window per task stored" - <<-\EOT
	test_is "$(q "SELECT COUNT(*) FROM run_window WHERE run_id = 1")" 2
EOT
test_expect_success "every task's window lasted at least 200 ms" - <<-\EOT
	test_is "$(q "SELECT COUNT(*) FROM run_window WHERE run_id = 1 AND window_ns < 200000000")" 0
EOT
test_expect_success "the calibrated rounds are stored and more than the 1 asked for" - <<-\EOT
	test "$(q "SELECT value > 1 FROM metric WHERE run_id = 1 AND name = 'window-rounds'")" = 1
EOT
test_expect_success "the window's accesses are whole round sequences of 4096 pages" - <<-\EOT
	test_is "$(q "SELECT COUNT(*) FROM run_window WHERE run_id = 1 AND accesses % 4096 != 0")" 0
EOT
test_expect_success "the cell names min_window and the asked rounds, not the calibrated ones" - <<-\EOT
	test_is "$(q "SELECT cell LIKE '% rounds=1 %' AND cell LIKE '% min_window=200ms' FROM run WHERE id = 1")" 1
EOT
test_expect_success "window-s is the longest task's window" - <<-\EOT
	test_is "$(json '$.metrics."window-s"')" \
		"$(q "SELECT MAX(window_ns) / 1e9 FROM run_window WHERE run_id = 1")"
EOT
run_sga run --tasks 2 --sga-size 16m --page-size 4k --rounds 1 --min-window 0.2s --db "$db" --quiet
test_expect_success "a second run calibrated to the same time (0.2s) shares the cell" - <<-\EOT
	test_is "$(q "SELECT COUNT(DISTINCT cell) FROM run")" 1
EOT

run_sga run --tasks 2 --sga-size 16m --page-size 4k --rounds 3 --windows 4 \
	--events task-clock,page-faults --db "$db" --json
test_expect_success "--windows 4: exit 0" - <<-\EOT
	test_is "$rc" 0
EOT
id=$(json '$.run_id')
test_expect_success "4 windows x 2 tasks stored" - <<-\EOT
	test_is "$(q "SELECT COUNT(*) FROM run_window WHERE run_id = $id")" 8
EOT
test_expect_success "4 windows x 2 tasks x 2 events of counters" - <<-\EOT
	test_is "$(q "SELECT COUNT(*) FROM window_value WHERE run_id = $id")" 16
EOT
test_expect_success "each window did the asked 3 rounds of 4096 pages" - <<-\EOT
	test_is "$(q "SELECT COUNT(*) FROM run_window WHERE run_id = $id AND accesses != 3 * 4096")" 0
EOT
test_expect_success "no page fault in any window: first touch happened once, before them" - <<-\EOT
	test_is "$(q "SELECT CAST(SUM(value) AS INTEGER) FROM window_value WHERE run_id = $id AND event = 'page-faults'")" 0
EOT
test_expect_success "first-touch-faults: one per page per task, as without windows" - <<-\EOT
	test_is "$(json '$.metrics."first-touch-faults"')" 8192
EOT
test_expect_success "the task's task-clock is the sum over its windows" - <<-\EOT
	test_is "$(q "SELECT COUNT(*) FROM (SELECT task, SUM(value) AS s FROM window_value WHERE run_id = $id
		AND event = 'task-clock' GROUP BY task) w JOIN value v ON v.run_id = $id AND v.task = w.task
		AND v.event = 'task-clock' WHERE abs(v.value - w.s) > 0.5")" 0
EOT
# The median over windows of (accesses of both tasks / the longest window).
med=$(q "SELECT printf('%.6g', AVG(r)) FROM (SELECT r FROM (SELECT SUM(accesses) * 1e9 / MAX(window_ns) AS r
	FROM run_window WHERE run_id = $id GROUP BY win) ORDER BY r LIMIT 2 OFFSET 1)")
test_expect_success "accesses-per-s is the median over windows" - <<-\EOT
	test_is "$(printf '%.6g' "$(json '$.metrics."accesses-per-s"')")" "$med"
EOT
test_expect_success "windows=4 is part of the cell" - <<-\EOT
	test_is "$(q "SELECT cell LIKE '% windows=4' FROM run WHERE id = $id")" 1
EOT
# Each task's CPU time is at most its window, so the 2 tasks' task-clock is
# at most twice the longest window.
test_expect_success "accesses-per-cpu-s is there and at least accesses-per-s / 2 tasks" - <<-\EOT
	test "$(sqlite3 :memory: "SELECT json_extract(readfile('$TMPD/out'), '\$.metrics.\"accesses-per-cpu-s\"') * 2
		>= json_extract(readfile('$TMPD/out'), '\$.metrics.\"accesses-per-s\"')")" = 1
EOT

# run --json prints every window: its timing, accesses and counters, and
# the median and spread the run's metrics hold. jx EXPR: an SQL expression
# over d, the JSON output.
jx() { sqlite3 :memory: "SELECT $1 FROM (SELECT readfile('$TMPD/out') AS d)"; }
wl="json_each(json_extract(d, '\$.windows.list'))"
test_expect_success "json: windows.count is 4" - <<-\EOT
	test_is "$(json '$.windows.count')" 4
EOT
test_expect_success "json: 4 windows listed, each with 2 tasks" - <<-\EOT
	test_is "$(jx "json_array_length(d, '\$.windows.list')") $(jx "(SELECT SUM(json_array_length(value, '\$.tasks')) FROM $wl)")" "4 8"
EOT
test_expect_success "json: each window's window-s is the longest of its tasks' windows, as stored" - <<-\EOT
	test_is "$(jx "(SELECT group_concat(printf('%.9f', json_extract(value, '\$.\"window-s\"')), ' ') FROM $wl)")" \
		"$(q "SELECT group_concat(s, ' ') FROM (SELECT printf('%.9f', MAX(window_ns) / 1e9) AS s FROM run_window
		WHERE run_id = $id GROUP BY win ORDER BY win)")"
EOT
test_expect_success "json: each task's task-clock in each window, as stored in window_value" - <<-\EOT
	test_is "$(jx "(SELECT group_concat(CAST(json_extract(t.value, '\$.events.\"task-clock\".value') AS INTEGER), ' ')
		FROM $wl w, json_each(w.value, '\$.tasks') t)")" \
		"$(q "SELECT group_concat(CAST(value AS INTEGER), ' ') FROM (SELECT value FROM window_value
		WHERE run_id = $id AND event = 'task-clock' ORDER BY win, task)")"
EOT
test_expect_success "json: a window's totals are the sum over its tasks" - <<-\EOT
	test_is "$(jx "(SELECT COUNT(*) FROM $wl w WHERE abs(json_extract(w.value, '\$.totals.\"task-clock\"') -
		(SELECT SUM(json_extract(t.value, '\$.events.\"task-clock\".value')) FROM json_each(w.value, '\$.tasks') t)) > 0.5)")" 0
EOT
for m in window-s accesses-per-s accesses-per-cpu-s; do
	test_expect_success "json: the median of $m over windows is the run's metric" - <<-\EOT
		test_is "$(jx "printf('%.9g', json_extract(d, '\$.windows.median.\"$m\"'))")" \
			"$(jx "printf('%.9g', json_extract(d, '\$.metrics.\"$m\"'))")"
	EOT
	test_expect_success "json: the spread of $m is the run's $m-spread" - <<-\EOT
		test_is "$(jx "printf('%.9g', json_extract(d, '\$.windows.spread.\"$m\"'))")" \
			"$(jx "printf('%.9g', json_extract(d, '\$.metrics.\"$m-spread\"'))")"
	EOT
done
# accesses-per-cpu-s-best, by hand from the listed windows: the largest
# task accesses / (task-clock in s) over every task of every window. It is
# at least the median over windows of the tasks' pooled rate, since a
# pooled rate never exceeds its fastest task.
test_expect_success "json: accesses-per-cpu-s-best is the fastest task window, by hand" - <<-\EOT
	test_is "$(jx "(SELECT printf('%.6g', MAX(json_extract(t.value, '\$.accesses') * 1e9 /
		json_extract(t.value, '\$.events.\"task-clock\".value'))) FROM $wl w, json_each(w.value, '\$.tasks') t)")" \
		"$(jx "printf('%.6g', json_extract(d, '\$.metrics.\"accesses-per-cpu-s-best\"'))")"
EOT
test_expect_success "json: accesses-per-cpu-s-best >= accesses-per-cpu-s" - <<-\EOT
	test_is "$(jx "json_extract(d, '\$.metrics.\"accesses-per-cpu-s-best\"') >=
		json_extract(d, '\$.metrics.\"accesses-per-cpu-s\"')")" 1
EOT
test_expect_success "json: the spread by hand: (max - min) / median of the windows' accesses-per-s" - <<-\EOT
	test_is "$(jx "(SELECT printf('%.6g', (MAX(x) - MIN(x)) / json_extract(d, '\$.windows.median.\"accesses-per-s\"'))
		FROM (SELECT json_extract(value, '\$.\"accesses-per-s\"') AS x FROM $wl))")" \
		"$(jx "printf('%.6g', json_extract(d, '\$.windows.spread.\"accesses-per-s\"'))")"
EOT
run_sga run --tasks 2 --sga-size 16m --page-size 4k --rounds 3 --windows 2 --events task-clock,page-faults --no-store --csv
test_expect_success "csv --windows 2: exit 0" - <<-\EOT
	test_is "$rc" 0
EOT
test_expect_success "csv: per window and task, accesses, window_ns and 2 events: 2 x 2 x 4 rows" - <<-\EOT
	test_is "$(grep -c '^w[01]:[01],' "$TMPD/out")" 16
EOT
test_expect_success "csv: each window did 3 rounds of 4096 pages per task" - <<-\EOT
	test_is "$(grep -c '^w[01]:[01],accesses,12288,' "$TMPD/out")" 4
EOT
test_expect_success "csv: each window's rates" - <<-\EOT
	test_is "$(grep -c '^w[01]:run,\(window-s\|accesses-per-s\|accesses-per-cpu-s\),' "$TMPD/out")" 6
EOT
run_sga run --tasks 1 --sga-size 16m --page-size 4k --rounds 1 --no-store --json
test_expect_success "json: a run without --windows has the key windows, null" - <<-\EOT
	test_is "$(jx "json_type(d, '\$.windows')")" null
EOT

run_sga run --min-window 5x --no-store
test_expect_success "--min-window 5x: usage error" - <<-\EOT
	test_is "$rc" 2
EOT
run_sga run --min-window 0ms --no-store
test_expect_success "--min-window 0ms: usage error" - <<-\EOT
	test_is "$rc" 2
EOT
run_sga run --windows 0 --no-store
test_expect_success "--windows 0: usage error" - <<-\EOT
	test_is "$rc" 2
EOT
run_sga run --windows 2 --measure first-touch --no-store
test_expect_success "--windows with --measure first-touch: usage error" - <<-\EOT
	test_is "$rc" 2
EOT
run_sga run --windows 2 --pattern random --sga-size 1g --page-size 4k --rounds 100 --no-store
test_expect_success "--windows over an order too long to pre-generate: usage error" - <<-\EOT
	test_is "$rc" 2
EOT
test_expect_success "and it says why" - <<-\EOT
	grep -q "too many to pre-generate" "$TMPD/err"
EOT

SGABENCH_TEST_WORK=abc run_sga run --tasks 1 --sga-size 16m --page-size 4k --no-store
test_expect_success "SGABENCH_TEST_WORK=abc: usage error" - <<-\EOT
	test_is "$rc" 2
EOT
SGABENCH_TEST_WORK=4 run_sga run --tasks 1 --sga-size 16m --page-size 4k --access write --no-store
test_expect_success "the knob with --access write: usage error" - <<-\EOT
	test_is "$rc" 2
EOT
SGABENCH_TEST_WORK=4 run_sga run --tasks 1 --sga-size 16m --page-size 4k --rounds 2 --db "$db" --json
test_expect_success "the knob: exit 0" - <<-\EOT
	test_is "$rc" 0
EOT
test_expect_success "a knob run says so in its metrics" - <<-\EOT
	test_is "$(json '$.metrics."test-work"')" 4
EOT
SGABENCH_TEST_WORK=0 run_sga run --tasks 1 --sga-size 16m --page-size 4k --rounds 2 --no-store --json
test_expect_success "the knob at 0 (its loop, no work, for a comparison's plain arm) says so too" - <<-\EOT
	test_is "$rc $(json '$.metrics."test-work"')" "0 0"
EOT
run_sga run --tasks 1 --sga-size 16m --page-size 4k --rounds 2 --no-store --json
test_expect_success "without the variable there is no test-work metric" - <<-\EOT
	test_is "$rc $(json '$.metrics."test-work"')" "0 "
EOT
test_done
