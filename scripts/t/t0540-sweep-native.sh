#!/bin/sh
# t0540: scripts/sweep with the real 'sgabench run' on the smoke config
# (4 KiB pages, no hugepages): the hyperfine times are tied to the runs the
# real binary stored, its physics shows through (one first-touch fault per
# 4 KiB page per task), and mkreport draws the result.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

if ! "$SGABENCH" run --help >/dev/null 2>&1; then
	skip_all "sweep with sgabench run: 'sgabench run --help' does not work yet"
fi
for tool in hyperfine sqlite3 flock gnuplot; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "sweep: '$tool' not installed"
done
db="$TMPD/n.db"
rc=0
"$top/scripts/sweep" --db "$db" --seed 11 --label smoke configs/smoke >"$TMPD/out" 2>"$TMPD/err" || rc=$?
test_expect_success "sweep configs/smoke exits 0" 'test_is "$rc" 0'
q() { sqlite3 "$db" "$1"; }
test_expect_success "2 cells x 2 passes x 2 runs = 8 runs" - <<-\EOT
	test_is "$(q "SELECT COUNT(*) FROM run WHERE label = 'smoke' AND status = 'ok'")" 8
EOT
test_expect_success "2 warm-up runs relabelled" - <<-\EOT
	test_is "$(q "SELECT COUNT(*) FROM run WHERE label = 'warmup:smoke'")" 2
EOT
test_expect_success "every timing row is tied to a stored run" - <<-\EOT
	test_is "$(q "SELECT COUNT(*) FROM timing t JOIN run r ON r.uuid = t.run_uuid AND r.label = 'smoke'")" 8
EOT
test_expect_success "timing cells are the runs' canonical cells" 'test_is "$(q "SELECT COUNT(*) FROM timing t JOIN run r ON r.uuid = t.run_uuid WHERE t.cell = r.cell")" 8'
# 8 MiB of 4 KiB pages: 2048 write faults per task in first touch.
test_expect_success "first-touch faults: 2048 per task" - <<-\EOT
	test_is "$(q "SELECT group_concat(x) FROM (SELECT DISTINCT r.tasks || ':' || CAST(m.value AS INTEGER) AS x FROM run r
	JOIN run_metric m ON m.run_id = r.id AND m.name = 'first-touch-faults' WHERE r.label = 'smoke' ORDER BY r.tasks, x)")" "1:2048,2:4096"
EOT
test_expect_success "hyperfine's time covers sgabench's own wall time" 'test "$(q "SELECT COUNT(*) FROM timing t JOIN run r ON r.uuid = t.run_uuid WHERE t.wall_s >= r.wall_s * 0.9")" -eq 8'
test_expect_success "the stored order names the real cells" 'test_is "$(q "SELECT cell_order FROM sweep" | grep -c "page=4k")" 4'
test_expect_success "noise floors stored for the configured metrics" - <<-\EOT
	test "$(q "SELECT COUNT(*) FROM noise WHERE metric IN ('first-touch-faults', 'sga-pte-bytes', 'wall-s')")" -ge 4
EOT
test_expect_success "the summary shows the medians" 'grep -q "page=4k .*tasks=2 .* 4096 (n= 4)" "$TMPD/out"'
rc=0
"$top/report/mkreport" --db "$db" --out "$TMPD/rep" --sweep smoke >/dev/null 2>&1 || rc=$?
test_expect_success "mkreport on it exits 0" 'test_is "$rc" 0'
test_expect_success "the scaling plot of first-touch faults is drawn" 'test -s "$TMPD/rep/scaling-first-touch-faults.svg"'
test_expect_success "the page lists the cells" 'grep -q "<td>4k</td><td>2</td><td>4096</td>" "$TMPD/rep/index.html"'
test_done
