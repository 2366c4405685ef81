#!/bin/sh
# t0540: scripts/sweep with the real 'sgabench run' on the smoke config
# (4 KiB pages, no hugepages): the hyperfine times are tied to the runs the
# real binary stored, its physics shows through (one first-touch fault per
# 4 KiB page per task), and mkreport draws the result.
# shellcheck source=scripts/t/tap.sh
. "$(dirname "$0")/tap.sh"

if ! "$SGABENCH" run --help >/dev/null 2>&1; then
	skip "sweep with sgabench run" "'sgabench run --help' does not work yet"
	done_testing
	exit
fi
for tool in hyperfine sqlite3 flock gnuplot; do
	command -v "$tool" >/dev/null 2>&1 || { skip "sweep" "'$tool' not installed"; done_testing; exit; }
done
db="$TMPD/n.db"
rc=0
"$top/scripts/sweep" --db "$db" --seed 11 --label smoke configs/smoke >"$TMPD/out" 2>"$TMPD/err" || rc=$?
is "sweep configs/smoke exits 0" "$rc" 0
q() { sqlite3 "$db" "$1"; }
is "2 cells x 2 passes x 2 runs = 8 runs" "$(q "SELECT COUNT(*) FROM run WHERE label = 'smoke' AND status = 'ok'")" 8
is "2 warm-up runs relabelled" "$(q "SELECT COUNT(*) FROM run WHERE label = 'warmup:smoke'")" 2
is "every timing row is tied to a stored run" "$(q "SELECT COUNT(*) FROM timing t JOIN run r ON r.uuid = t.run_uuid AND r.label = 'smoke'")" 8
is "timing cells are the runs' canonical cells" "$(q "SELECT COUNT(*) FROM timing t JOIN run r ON r.uuid = t.run_uuid WHERE t.cell = r.cell")" 8
# 8 MiB of 4 KiB pages: 2048 write faults per task in first touch.
is "first-touch faults: 2048 per task" "$(q "SELECT group_concat(x) FROM (SELECT DISTINCT r.tasks || ':' || CAST(m.value AS INTEGER) AS x FROM run r
	JOIN run_metric m ON m.run_id = r.id AND m.name = 'first-touch-faults' WHERE r.label = 'smoke' ORDER BY r.tasks, x)")" "1:2048,2:4096"
ok "hyperfine's time covers sgabench's own wall time" test "$(q "SELECT COUNT(*) FROM timing t JOIN run r ON r.uuid = t.run_uuid WHERE t.wall_s >= r.wall_s * 0.9")" -eq 8
is "the stored order names the real cells" "$(q "SELECT cell_order FROM sweep" | grep -c 'page=4k')" 4
ok "noise floors stored for the configured metrics" test "$(q "SELECT COUNT(*) FROM noise WHERE metric IN ('first-touch-faults', 'pte-bytes', 'wall-s')")" -ge 4
ok "the summary shows the medians" grep -q 'page=4k .*tasks=2 .* 4096 (n= 4)' "$TMPD/out"
rc=0
"$top/report/mkreport" --db "$db" --out "$TMPD/rep" --sweep smoke >/dev/null 2>&1 || rc=$?
is "mkreport on it exits 0" "$rc" 0
ok "the scaling plot is drawn" test -s "$TMPD/rep/scaling-faults.svg"
ok "the page lists the cells" grep -q '<td>4k</td><td>2</td><td>4096</td>' "$TMPD/rep/index.html"
done_testing
