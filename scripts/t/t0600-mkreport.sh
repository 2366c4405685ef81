#!/bin/sh
# t0600: report/mkreport on a small synthetic database (scripts/t/fixtures/synthetic.sql,
# schema v2 from bench/store/schema.c) writes index.html, summary.md and
# non-empty SVG and PNG plots, and escapes every string from the database.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"

test_expect_success "html_escape: markup" - <<-\EOT
	test_is "$(html_escape '<script>alert("x")</script>')" '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'
EOT
test_expect_success "html_escape: ampersand first" - <<-\EOT
	test_is "$(html_escape 'a &lt; b & c')" 'a &amp;lt; b &amp; c'
EOT
test_expect_success "html_escape: single quote" - <<-\EOT
	test_is "$(html_escape "it's")" 'it&#39;s'
EOT
test_expect_success "html_escape: filter keeps tabs and lines" - <<-\EOT
	test_is "$(printf 'a\t<b>\nc\n' | html_escape | od -c | head -n 1)" "$(printf 'a\t&lt;b&gt;\nc\n' | od -c | head -n 1)"
EOT
test_expect_success "html_escape: plain text is unchanged" - <<-\EOT
	test_is "$(html_escape 'tasks=8 page=2m align=pud')" 'tasks=8 page=2m align=pud'
EOT
test_expect_success "md_escape: pipes and markup" - <<-\EOT
	test_is "$(md_escape 'a|b <i>_x_</i>')" 'a\|b &lt;i&gt;\_x\_&lt;/i&gt;'
EOT

for tool in sqlite3 gnuplot; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "mkreport: '$tool' not installed"
done
db="$TMPD/syn.db"
db_ensure "$db"
test_expect_success "the schema of bench/store/schema.c" - <<-\EOT
	test_is "$(sqlite3 "$db" 'PRAGMA user_version')" "$("$SGABENCH" db check --db "$db" --json | jq -r .schema_version)"
EOT
sqlite3 "$db" <"$FIXTURES/synthetic.sql"
test_expect_success "synthetic database loaded" - <<-\EOT
	test_is "$(sqlite3 "$db" 'SELECT COUNT(*) FROM run')" 255
EOT
# One more injection, through a run label and a sweep name.
sqlite3 "$db" "UPDATE run SET label = 'x<script>alert(\"label\")</script>' WHERE uuid = 'scal-4k-1-0';
	UPDATE sweep SET name = 'sga-scaling' || '<img src=x onerror=alert(1)>'"
out="$TMPD/out"
rc=0
"$top/report/mkreport" --db "$db" --out "$out" --sweep 'sga-scaling<img src=x onerror=alert(1)>' >"$TMPD/stdout" 2>"$TMPD/stderr" || rc=$?
test_expect_success "mkreport exits 0" 'test_is "$rc" 0'
test_expect_success "mkreport prints the path of the page" 'test_is "$(cat "$TMPD/stdout")" "$out/index.html"'
test_expect_success "index.html written" 'test -s "$out/index.html"'
test_expect_success "summary.md written" 'test -s "$out/summary.md"'
test_expect_success "summary.txt has five lines" 'test_is "$(wc -l <"$out/summary.txt")" 5'
for p in cover scaling-sga-pte-bytes scaling-pagetables-delta-bytes scaling-first-touch-faults scaling-wall-s scaling-pte-bytes \
	history-1-accesses-per-cpu-s-best history-2-first-touch-faults machines; do
	test_expect_success "$p.svg is a non-empty SVG" - <<-\EOT
		sh -c "test -s '$out/$p.svg' && grep -q '<svg' '$out/$p.svg' && grep -q '<path' '$out/$p.svg'"
	EOT
	test_expect_success "$p.png is a non-empty PNG" - <<-\EOT
		sh -c "test \$(wc -c < '$out/$p.png') -gt 5000 && head -c 8 '$out/$p.png' | od -c | grep -q 'P   N   G'"
	EOT
	test_expect_success "index.html shows $p.svg" 'grep -q "<img src=\"$p.svg\"" "$out/index.html"'
	test_expect_success "summary.md shows $p.png" 'grep -q "($p.png)" "$out/summary.md"'
done
test_expect_success "the only <script> element is the page's own" - <<-\EOT
	test_is "$(grep -c '<script>' "$out/index.html")" 1
EOT
test_expect_success "the injected label is escaped" - <<-\EOT
	grep -q 'x&lt;script&gt;alert(&quot;label&quot;)&lt;/script&gt;' "$out/index.html"
EOT
test_expect_success "the injected hostname is escaped" - <<-\EOT
	grep -q 'host-a&lt;script&gt;' "$out/index.html"
EOT
test_expect_success "the injected sweep name is escaped" - <<-\EOT
	grep -q 'sga-scaling&lt;img src=x onerror=alert(1)&gt;' "$out/index.html"
EOT
test_expect_success "no raw injected element in the page" - <<-\EOT
	sh -c "! grep -q -e '<img src=x' -e 'alert(\"label\")</script>' '$out/index.html'"
EOT
test_expect_success "no raw injected element in summary.md" - <<-\EOT
	sh -c "! grep -q -e '<script>' -e '<img src=x' '$out/summary.md'"
EOT
test_expect_success "the published points are in the cover table" - <<-\EOT
	grep -q '<td>1000000</td><td>97941327</td><td>4148</td>' "$out/index.html"
EOT
test_expect_success "missing native dTLB counts are reported as missing, not 0" - <<-\EOT
	grep -q '<td>native</td><td>no-pmu</td><td>4</td>' "$out/index.html"
EOT
test_expect_success "warm-up runs are left out of the history" - <<-\EOT
	sh -c "! grep -q 'warmup' '$out/data/history.tsv'"
EOT
test_expect_success "the scaling table has 3 layouts x 4 task counts" 'test_is "$(wc -l <"$out/data/scaling-table.tsv")" 12'
test_expect_success "4k at 8 tasks: 262144 faults (synthetic truth)" - <<-\EOT
	grep -q '^4k	8	262144	' "$out/data/scaling-table.tsv"
EOT
# The effect of shared PMD page tables is in the first-touch faults (the
# fixture's truth: P + (N - 1) = 64 + 7 against N x P = 8 x 64); the
# system-wide PageTables delta comes after, labelled so, with its spread.
test_expect_success "summary line 3 leads with first-touch faults, 2m-pud against 2m-pmd at 8 tasks" - <<-\EOT
	test_is "$(sed -n 3p "$out/summary.txt")" \
		"first-touch minor faults at 8 tasks: 2m-pud (shared PMD page tables) 71 vs 2m-pmd (unshared) 512, 0.14 times as many; 4k 262144"
EOT
test_expect_success "summary line 4: the PageTables delta, system-wide, with its spread over runs and cells" - <<-\EOT
	sed -n 4p "$out/summary.txt" | grep -qF "system-wide PageTables delta (every process moves it: the runs of one cell differ by up to 0 KiB, 2m-pmd, 1 tasks; cell medians range from 12 to 2112 KiB) at 8 tasks: 2m-pmd 96 KiB, 2m-pud 68 KiB, 4k 2112 KiB" &&
	! grep -q '^page tables' "$out/summary.txt"
EOT
test_expect_success "the spread is the data's: one run 1 MiB off widens it to 1024 KiB" - <<-\EOT
	cp "$db" "$TMPD/spread.db" &&
	sqlite3 "$TMPD/spread.db" "UPDATE metric SET value = value + 1048576 WHERE name = 'pagetables-delta-bytes'
		AND run_id = (SELECT id FROM run WHERE uuid = 'scal-2m-pud-4-1')" &&
	"$top/report/mkreport" --db "$TMPD/spread.db" --out "$TMPD/spread" >/dev/null 2>&1 &&
	sed -n 4p "$TMPD/spread/summary.txt" | grep -qF "differ by up to 1024 KiB, 2m-pud, 4 tasks;"
EOT
# The fixture's step is exactly 10 % (0.9 times); history measures it on
# the runs of the nights before and after it.
test_expect_success "the change point of the synthetic step (night 7, 2026-11-17) is marked, on its machine" - <<-\EOT
	awk -F'	' '$2 == "accesses-per-cpu-s-best" && $3 == "t=8 2m-pud r=20" && $4 == "20261117" &&
		$5 == "-10.0 %" && $1 ~ /^host-a.* 01234567$/ { f = 1 } END { exit !f }' "$out/data/history-cp.tsv"
EOT
test_expect_success "and only that one" 'test_is "$(wc -l <"$out/data/history-cp.tsv")" 1'
test_expect_success "the page lists it" - <<-\EOT
	grep -q '01234567</td><td>accesses-per-cpu-s-best</td><td>t=8 2m-pud r=20</td><td>20261117</td><td>-10.0 %</td>' "$out/index.html"
EOT
# History: one plot per machine and metric, the latest nightly machine
# (host-a, an hour after host-b each night) first, the verdict metrics
# before the others; the load-noise accesses-per-s is named, not plotted.
test_expect_success "history: per machine, latest first, verdict metrics first" - <<-\EOT
	test_is "$(cut -f1-3 "$out/data/history-plots" | tr '\t\n' ' |')" \
		"1 accesses-per-cpu-s-best verdict|1 first-touch-faults verdict|2 accesses-per-cpu-s-best verdict|2 first-touch-faults verdict|"
EOT
test_expect_success "history: each plot's title names its machine and what the metric is" - <<-\EOT
	grep -q 'host-b fedcba98: accesses-per-cpu-s-best (verdict metric)' "$out/history-2-accesses-per-cpu-s-best.svg" &&
	grep -q 'host-ascriptalert(h)/script 01234567: first-touch-faults' "$out/history-1-first-touch-faults.svg" &&
	grep -q '<h3>Machine host-b fedcba98</h3>' "$out/index.html"
EOT
test_expect_success "history: load noise is named, not plotted" - <<-\EOT
	! ls "$out"/history-*accesses-per-s.svg 2>/dev/null &&
	grep -q 'Not plotted, because they move with the load of the machine rather than with sgabench (README): accesses-per-s on host-a.* 01234567; accesses-per-s on host-b fedcba98.' "$out/index.html"
EOT
test_expect_success "history: ten nights give 3 to 8 x tics, all within the nights" - <<-\EOT
	grep -o '>[0-9][0-9]-[0-9][0-9]<' "$out/history-1-first-touch-faults.svg" | tr -d '<>' >"$TMPD/tics" &&
	n=$(wc -l <"$TMPD/tics") && test "$n" -ge 3 && test "$n" -le 8 &&
	awk '$0 < "11-10" || $0 > "11-19" { exit 1 }' "$TMPD/tics"
EOT
# One night alone: the x axis spans a day either side (not gnuplot's guess
# for an empty range, whose daily tics smeared into a black bar).
db1="$TMPD/one.db"
cp "$db" "$db1"
sqlite3 "$db1" "DELETE FROM metric WHERE run_id IN (SELECT id FROM run WHERE label GLOB 'nightly-*' AND label <> 'nightly-20261119');
	DELETE FROM run WHERE label GLOB 'nightly-*' AND label <> 'nightly-20261119'"
test_expect_success "history of one night: a tic or three, the night's among them" - <<-\EOT
	"$top/report/mkreport" --db "$db1" --out "$TMPD/one" >/dev/null &&
	grep -o '>[0-9][0-9]-[0-9][0-9]<' "$TMPD/one/history-1-first-touch-faults.svg" | tr -d '<>' >"$TMPD/tics1" &&
	n=$(wc -l <"$TMPD/tics1") && test "$n" -ge 1 && test "$n" -le 3 &&
	grep -qx '11-19' "$TMPD/tics1" &&
	grep -q '1 night(s)' "$TMPD/one/history-1-first-touch-faults.svg"
EOT
# SGA scaling: sga-pte-bytes shows the saving; each plot says n when small.
test_expect_success "scaling: sga-pte-bytes in the table (4k, 8 tasks: 2048 KiB; 2m: 32 KiB)" - <<-\EOT
	grep -q '^4k	8	262144	2048.0	' "$out/data/scaling-table.tsv" &&
	grep -q '^2m-pud	8	71	32.0	' "$out/data/scaling-table.tsv"
EOT
# The table's values are all-tasks medians, also for the metrics plotted
# per task: each header says its basis (fixture: 12288 B per task, 8 tasks).
test_expect_success "scaling table: each column names its basis" - <<-\EOT
	grep -q '<th>pagetables-delta-bytes (KiB, all tasks; plotted per task)</th><th>pte-bytes (KiB, all tasks; plotted per task)</th>' "$out/index.html" &&
	grep -q '<th>first-touch-faults (all tasks)</th><th>sga-pte-bytes (KiB, all tasks)</th>' "$out/index.html" &&
	grep -q '| pagetables-delta-bytes (KiB, all tasks; plotted per task) |' "$out/summary.md" &&
	test_is "$(awk -F'	' '$1 == "2m-pmd" && $2 == 8 { print $5 }' "$out/data/scaling-table.tsv")" 96.0
EOT
test_expect_success "scaling: every plot says how many runs stand behind a point (3)" - <<-\EOT
	for p in sga-pte-bytes pagetables-delta-bytes first-touch-faults pte-bytes wall-s; do
		grep -q 'only 3 run(s) per point' "$out/scaling-$p.svg" || return 1
	done
EOT
test_expect_success "scaling: PageTables per task separates the layouts at 8 tasks" - <<-\EOT
	test_is "$(awk -F'	' '$1 == "8" { print $2 }' "$out/data/scaling-pagetables-delta-bytes.dat" | tr '\n' ' ')" "12288 8704 270336 "
EOT
# wall-s is the run's own (as show prints it), hyperfine's only for a run
# stored without one: one name, one quantity.
test_expect_success "scaling wall-s: the run's own, hyperfine's only where the run has none" - <<-\EOT
	cp "$db" "$TMPD/wall.db" &&
	sw=$(sqlite3 "$TMPD/wall.db" "SELECT sweep_uuid FROM timing LIMIT 1") &&
	n=$("$SGABENCH" db query --db "$TMPD/wall.db" -- scaling-points "$sw" wall-s | wc -l) &&
	sqlite3 "$TMPD/wall.db" "INSERT INTO metric (run_id, name, value) SELECT r.id, 'wall-s', 123.5
		FROM run r JOIN timing t ON t.run_uuid = r.uuid WHERE t.sweep_uuid = '$sw' LIMIT 1" &&
	"$SGABENCH" db query --db "$TMPD/wall.db" -- scaling-points "$sw" wall-s >"$TMPD/wall" &&
	test_is "$(wc -l <"$TMPD/wall")" "$n" && test_is "$(grep -c '123\.5$' "$TMPD/wall")" 1
EOT
# The machines: a metric the load does not move, machines told apart.
test_expect_success "machines: not load noise, each machine named by host and fingerprint" - <<-\EOT
	grep -q 'accesses-per-cpu-s-best: the same cells on 2 of 2 machine' "$out/machines.svg" &&
	grep -q 'host-b fedcba98' "$out/machines.svg" && grep -q '01234567' "$out/machines.svg"
EOT
test_expect_success "the latest verdicts are summarised" - <<-\EOT
	sh -c "sed -n 5p '$out/summary.txt' | grep -q ' on host-a<script>alert(\"h\")</script> 01234567: 1 no-change, 1 regression'"
EOT
# The A/A noise floors: one row per cell, a column per metric, only the
# axes that vary (the fixture's sweep varies tasks and page).
test_expect_success "noise floors: the varying axes, then one column per metric" - <<-\EOT
	grep -q '<h3>A/A noise floors</h3>' "$out/index.html" &&
	grep -q '<thead><tr><th>tasks</th><th>page</th><th>first-touch-faults</th><th>wall-s</th><th>accesses-per-s</th><th>samples</th></tr></thead>' "$out/index.html"
EOT
test_expect_success "noise floors: one row per cell (9 cells)" 'test_is "$(wc -l <"$out/data/noise.tsv")" 9'
test_expect_success "noise floors: a row reads at a glance" - <<-\EOT
	grep -q '<tr><td>16</td><td>4k</td><td>0.00 %</td><td>2.60 %</td><td>-</td><td>6</td></tr>' "$out/index.html"
EOT
test_expect_success "noise floors: the settings every cell shares are named once" - <<-\EOT
	sed -n '/<h3>A\/A noise floors/,/<h2 id="runs">/p' "$out/index.html" >"$TMPD/noise.html" &&
	grep -q 'Every cell has: backend=native pattern=rounds align=pud.' "$TMPD/noise.html" &&
	! grep -q '<td>backend=native' "$TMPD/noise.html"
EOT
test_expect_success "noise floors: a floor of 50 % or more is marked noisy" 'grep -q "<td>62.00 % (noisy)</td>" "$out/index.html"'
test_expect_success "noise floors: the system-wide PageTables delta is left out, saying why" - <<-\EOT
	! grep -q '<th>pagetables-delta-bytes</th>' "$out/index.html" &&
	grep -q 'pagetables-delta-bytes is left out: it is the change of the system-wide PageTables, which every other process on the machine moves too, so its floor (here 200 % to 1200 %) says nothing about the cell.' "$out/index.html" &&
	grep -q '^| tasks | page | first-touch-faults | wall-s | accesses-per-s | samples |$' "$out/summary.md"
EOT

rc=0
"$top/report/mkreport" --db "$TMPD/none.db" --out "$out" >/dev/null 2>&1 || rc=$?
test_expect_success "a missing database is a missing resource (3)" 'test_is "$rc" 3'
rc=0
"$top/report/mkreport" --bogus >/dev/null 2>&1 || rc=$?
test_expect_success "an unknown option is a usage error (2)" 'test_is "$rc" 2'
# An empty but valid database still gives a page (no plots, honest notes).
db_ensure "$TMPD/empty.db"
rc=0
"$top/report/mkreport" --db "$TMPD/empty.db" --out "$TMPD/empty" >/dev/null 2>&1 || rc=$?
test_expect_success "an empty database gives a page" 'test_is "$rc" 0'
test_expect_success "it says there is no native scaling sweep" - <<-\EOT
	grep -q 'No native scaling sweep in this database' "$TMPD/empty/index.html"
EOT
test_expect_success "its cover table says no cover-table runs are stored, and how to make them" - <<-\EOT
	grep -q '<p class="empty">No cover-table runs are stored in this database .*sgabench table runs and stores them.*make run runs it\.</p>' "$TMPD/empty/index.html" &&
	grep -q '^_No cover-table runs are stored in this database' "$TMPD/empty/summary.md" &&
	sed -n 2p "$TMPD/empty/summary.txt" | grep -q '; no cover-table runs stored (sgabench table, or make run)$'
EOT
test_expect_success "the synthetic database has them: no such note" - <<-\EOT
	! grep -q 'No cover-table runs' "$out/index.html" && ! grep -q 'no cover-table runs' "$out/summary.txt"
EOT
test_expect_success "the published cover-letter points are still plotted" 'test -s "$TMPD/empty/cover.svg"'
test_expect_success "no empty sentence where there is no comparison" - <<-\EOT
	grep -q 'No comparison stored yet' "$TMPD/empty/index.html" &&
	! grep -q -e '<p>\. ' -e 'Settings common to every row: <code></code>' -e 'compared \.' "$TMPD/empty/index.html"
EOT
# The system-wide PageTables delta can shrink while the tasks run: negative
# medians are drawn, on a linear axis, not left out of a log one.
dbn="$TMPD/neg.db"
cp "$db" "$dbn"
sqlite3 "$dbn" "UPDATE metric SET value = -value WHERE name = 'pagetables-delta-bytes'
	AND run_id IN (SELECT id FROM run WHERE uuid GLOB 'scal-2m-pud-*')"
test_expect_success "negative PageTables medians are drawn, below a zero line" - <<-\EOT
	"$top/report/mkreport" --db "$dbn" --out "$TMPD/neg" >/dev/null &&
	awk -F'	' '/^"2m-pud"/ { b = 1; next } /^"/ { b = 0 } b && $1 == 8 { print $2 }' "$TMPD/neg/data/scaling-pagetables-delta-bytes.dat" >"$TMPD/negv" &&
	test_is "$(cat "$TMPD/negv")" -8704 &&
	grep -q '>-[0-9][0-9]*<' "$TMPD/neg/scaling-pagetables-delta-bytes.svg" &&
	grep -q '<td>2m-pud</td><td>8</td><td>71</td><td>32.0</td><td>-68.0</td>' "$TMPD/neg/index.html"
EOT
test_done
