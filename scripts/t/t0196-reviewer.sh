#!/bin/sh
# t0196: the kernel reviewer's first runs (issue 25). 'run' says plainly
# when its measured window is too short to time, and gives every figure a
# unit; a user short of hugepages and of the hugetlb group is told both
# fixes at once; 'table' prints the statistic of its seeds that the
# report shows (the median). No hugepages are reserved: the SGA asked for
# (1 TiB) is larger than any pool here.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# window_ms: the window-s line of $TMPD/out, in milliseconds.
window_ms() {
	awk '$1 == "window-s" { v = $2; u = $3; if (u == "us") v /= 1000; else if (u == "s") v *= 1000; print v }' "$TMPD/out"
}

test_expect_success 'a run of one round over 8 pages: window and note agree' - <<-\EOT
	run_sga run --tasks 1 --page-size 4k --sga-size 32k --rounds 1 --no-store &&
	test_is "$rc" 0 &&
	w=$(window_ms) && test -n "$w" &&
	if awk -v w="$w" 'BEGIN { exit !(w < 10) }'; then
		grep -q "^  the measured window lasted .*, too short to time (under 10 ms):" "$TMPD/out" &&
		grep -q "give --min-window 100ms (as the nightly does) or more --rounds" "$TMPD/out" &&
		grep -q "^  accesses-per-s .*a window too short to time: not a speed" "$TMPD/out"
	else
		! grep -q "too short to time" "$TMPD/out"
	fi
EOT
test_expect_success 'with --min-window 20ms the window is timed, and no note' - <<-\EOT
	run_sga run --tasks 1 --page-size 4k --sga-size 32k --rounds 1 --min-window 20ms --no-store &&
	test_is "$rc" 0 &&
	awk -v w="$(window_ms)" 'BEGIN { exit !(w >= 20) }' &&
	! grep -q "too short to time" "$TMPD/out"
EOT
test_expect_success 'every event has a unit; task-clock is in ns' - <<-\EOT
	run_sga run --tasks 2 --page-size 4k --sga-size 64k --rounds 2 --no-store --events task-clock,page-faults,context-switches &&
	grep -q "^  event (window) *unit *total" "$TMPD/out" &&
	grep -q "^  task-clock *ns  *[0-9]" "$TMPD/out" &&
	grep -q "^  page-faults *faults  *[0-9]" "$TMPD/out" &&
	grep -q "^  context-switches *switches  *[0-9]" "$TMPD/out"
EOT
test_expect_success 'every run metric has a unit beside its value' - <<-\EOT
	sed -n '/^  run metric/,/^$/p' "$TMPD/out" | sed '1d;/^$/d' >"$TMPD/metrics" &&
	test "$(wc -l <"$TMPD/metrics")" -ge 6 &&
	# "  %-31s %20s   %s": the value, right-aligned, in columns 35-54; a
	# metric the run could not give has "-" there and says why
	while IFS= read -r l; do
		v=$(printf '%s\n' "$l" | cut -c35-54)
		if [ "$(echo $v)" = - ]; then
			printf '%s\n' "$l" | grep -q -- " -   not measured: " || { echo "# no reason: $l"; return 1; }
			continue
		fi
		printf '%s\n' "$v" | grep -q '[0-9] *[A-Za-z/]' || { echo "# no unit: $l"; return 1; }
	done <"$TMPD/metrics"
EOT

test_expect_success ROOT 'as root, short of hugepages: the pool fix alone (root may use SysV hugetlb)' - <<-\EOT
	run_sga run --page-size 2m --sga-size 1t --no-store &&
	test_is "$rc" 3 &&
	grep -q "as root: sysctl vm.nr_hugepages=" "$TMPD/err" &&
	! grep -q "hugetlb_shm_group" "$TMPD/err"
EOT
if test_have_prereq UNPRIVILEGED_REACH && [ "$(cat /proc/sys/vm/hugetlb_shm_group)" != 65534 ]; then
	test_set_prereq OUTSIDER
fi
test_expect_success OUTSIDER 'a user short of hugepages and of the group: both fixes, at once' - <<-\EOT
	reach_copy bench/sgabench &&
	rc=0 &&
	{ as_nobody "$REACH/bench/sgabench" run --page-size 2m --sga-size 1t --no-store 2>"$TMPD/err" || rc=$?; } &&
	test_is "$rc" 3 &&
	grep -q "as root: sysctl vm.nr_hugepages=[0-9]*; a user needs the group of vm.hugetlb_shm_group: as root: sysctl -w vm.hugetlb_shm_group=65534, or use --backing memfd" "$TMPD/err"
EOT
test_expect_success OUTSIDER 'with --backing memfd the group is no business of theirs' - <<-\EOT
	rc=0 &&
	{ as_nobody "$REACH/bench/sgabench" run --page-size 2m --sga-size 1t --backing memfd --no-store 2>"$TMPD/err" || rc=$?; } &&
	test_is "$rc" 3 &&
	grep -q "as root: sysctl vm.nr_hugepages=" "$TMPD/err" &&
	! grep -q "hugetlb_shm_group" "$TMPD/err"
EOT

# table: 4 seeds, so the median (the mean of the middle two) is not the
# mean; the model is deterministic, so the stored runs are the truth.
test_expect_success SQLITE3 'table prints the median of its seeds, as stored' - <<-\EOT
	run_sga table --backend model --seeds 4 --db "$TMPD/t.db" &&
	# 0 reproduced, 1 not (the shared column stays flat): either way a table
	{ test_is "$rc" 0 || { test_is "$rc" 1 && grep -q "^verdict: NOT reproduced" "$TMPD/out"; }; } &&
	grep -q "(each cell the median of 4 seeds)" "$TMPD/out" &&
	sqlite3 "$TMPD/t.db" "SELECT m.value FROM run r JOIN run_metric m ON m.run_id = r.id
		AND m.name = 'dTLB-load-misses' WHERE r.rounds = 1000000 AND r.sharedctx = 0
		ORDER BY m.value" >"$TMPD/v" &&
	test_is "$(wc -l <"$TMPD/v")" 4 &&
	med=$(awk '{ v[NR] = $1 } END { printf "%.0f", (v[2] + v[3]) / 2 }' "$TMPD/v") &&
	mean=$(awk '{ s += $1 } END { printf "%.0f", s / NR }' "$TMPD/v") &&
	echo "# median $med, mean $mean" &&
	test_is "$(awk '$1 == "1000000" { print $3 }' "$TMPD/out")" "$med"
EOT
test_expect_success SQLITE3,GNUPLOT 'the report and its summary show the same number' - <<-\EOT
	"$top/report/mkreport" --db "$TMPD/t.db" --out "$TMPD/rep" >/dev/null &&
	test_is "$(awk -F'	' '$1 == "1000000" { print $4 }' "$TMPD/rep/data/cover-table.tsv")" "$med" &&
	grep -q "model (median over its seeds) normal $med vs" "$TMPD/rep/summary.txt"
EOT
test_done
