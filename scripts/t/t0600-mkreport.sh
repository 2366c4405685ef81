#!/bin/sh
# t0600: report/mkreport on a small synthetic database (report/synthetic.sql,
# schema v1 from bench/store/schema.c) writes index.html, summary.md and
# non-empty SVG and PNG plots, and escapes every string from the database.
# shellcheck source=scripts/t/tap.sh
. "$(dirname "$0")/tap.sh"
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"

is "html_escape: markup" "$(html_escape '<script>alert("x")</script>')" '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'
is "html_escape: ampersand first" "$(html_escape 'a &lt; b & c')" 'a &amp;lt; b &amp; c'
is "html_escape: single quote" "$(html_escape "it's")" 'it&#39;s'
is "html_escape: filter keeps tabs and lines" "$(printf 'a\t<b>\nc\n' | html_escape | od -c | head -n 1)" "$(printf 'a\t&lt;b&gt;\nc\n' | od -c | head -n 1)"
is "html_escape: plain text is unchanged" "$(html_escape 'tasks=8 page=2m align=pud')" 'tasks=8 page=2m align=pud'
is "md_escape: pipes and markup" "$(md_escape 'a|b <i>_x_</i>')" 'a\|b &lt;i&gt;\_x\_&lt;/i&gt;'

for tool in sqlite3 gnuplot; do
	command -v "$tool" >/dev/null 2>&1 || { skip "mkreport" "'$tool' not installed"; done_testing; exit; }
done
db="$TMPD/syn.db"
db_ensure "$db"
is "schema v2 from bench/store/schema.c" "$(sqlite3 "$db" 'PRAGMA user_version')" 2
sqlite3 "$db" <"$top/report/synthetic.sql"
is "synthetic database loaded" "$(sqlite3 "$db" 'SELECT COUNT(*) FROM run')" 255
# One more injection, through a run label and a sweep name.
sqlite3 "$db" "UPDATE run SET label = 'x<script>alert(\"label\")</script>' WHERE uuid = 'scal-4k-1-0';
	UPDATE sweep SET name = 'sga-scaling' || '<img src=x onerror=alert(1)>'"
out="$TMPD/out"
rc=0
"$top/report/mkreport" --db "$db" --out "$out" --sweep 'sga-scaling<img src=x onerror=alert(1)>' >"$TMPD/stdout" 2>"$TMPD/stderr" || rc=$?
is "mkreport exits 0" "$rc" 0
is "mkreport prints the path of the page" "$(cat "$TMPD/stdout")" "$out/index.html"
ok "index.html written" test -s "$out/index.html"
ok "summary.md written" test -s "$out/summary.md"
is "summary.txt has five lines" "$(wc -l <"$out/summary.txt")" 5
for p in cover scaling-pagetables scaling-faults scaling-time scaling-vmpte history-accesses-per-s machines; do
	ok "$p.svg is a non-empty SVG" sh -c "test -s '$out/$p.svg' && grep -q '<svg' '$out/$p.svg' && grep -q '<path' '$out/$p.svg'"
	ok "$p.png is a non-empty PNG" sh -c "test \$(wc -c < '$out/$p.png') -gt 5000 && head -c 8 '$out/$p.png' | od -c | grep -q 'P   N   G'"
	ok "index.html shows $p.svg" grep -q "<img src=\"$p.svg\"" "$out/index.html"
	ok "summary.md shows $p.png" grep -q "($p.png)" "$out/summary.md"
done
is "the only <script> element is the page's own" "$(grep -c '<script>' "$out/index.html")" 1
ok "the injected label is escaped" grep -q 'x&lt;script&gt;alert(&quot;label&quot;)&lt;/script&gt;' "$out/index.html"
ok "the injected hostname is escaped" grep -q 'host-a&lt;script&gt;' "$out/index.html"
ok "the injected sweep name is escaped" grep -q 'sga-scaling&lt;img src=x onerror=alert(1)&gt;' "$out/index.html"
ok "no raw injected element in the page" sh -c "! grep -q -e '<img src=x' -e 'alert(\"label\")</script>' '$out/index.html'"
ok "no raw injected element in summary.md" sh -c "! grep -q -e '<script>' -e '<img src=x' '$out/summary.md'"
ok "the published points are in the cover table" grep -q '<td>1000000</td><td>97941327</td><td>4148</td>' "$out/index.html"
ok "missing native dTLB counts are reported as missing, not 0" grep -q '<td>native</td><td>no-pmu</td><td>4</td>' "$out/index.html"
ok "warm-up runs are left out of the history" sh -c "! grep -q 'warmup' '$out/data/history.tsv'"
is "the scaling table has 3 layouts x 4 task counts" "$(wc -l <"$out/data/scaling-table.tsv")" 12
ok "4k at 8 tasks: 262144 faults (synthetic truth)" grep -q '^4k	8	262144	' "$out/data/scaling-table.tsv"
ok "summary line 3 names the page-table memory at 8 tasks" sh -c "sed -n 3p '$out/summary.txt' | grep -q 'at 8 tasks: 2m-pmd 96 KiB, 2m-pud 68 KiB, 4k 2112 KiB'"
if "$SGABENCH" history --help >/dev/null 2>&1; then
	ok "the change point of the synthetic step (night 7, 2026-11-17) is marked" grep -q '^accesses-per-s	t=8 2m-pud r=20	20261117	-10.1 %' "$out/data/history-cp.tsv"
	is "and only that one" "$(wc -l <"$out/data/history-cp.tsv")" 1
	ok "the page lists it" grep -q '<td>20261117</td><td>-10.1 %</td>' "$out/index.html"
else
	skip "change points" "sgabench history does not work yet"
fi
ok "the latest verdicts are summarised" sh -c "sed -n 5p '$out/summary.txt' | grep -q '1 no-change, 1 regression'"

rc=0
"$top/report/mkreport" --db "$TMPD/none.db" --out "$out" >/dev/null 2>&1 || rc=$?
is "a missing database is a missing resource (3)" "$rc" 3
rc=0
"$top/report/mkreport" --bogus >/dev/null 2>&1 || rc=$?
is "an unknown option is a usage error (2)" "$rc" 2
# An empty but valid database still gives a page (no plots, honest notes).
db_ensure "$TMPD/empty.db"
rc=0
"$top/report/mkreport" --db "$TMPD/empty.db" --out "$TMPD/empty" >/dev/null 2>&1 || rc=$?
is "an empty database gives a page" "$rc" 0
ok "it says there is no sweep" grep -q 'No sweep in this database' "$TMPD/empty/index.html"
ok "the published cover-letter points are still plotted" test -s "$TMPD/empty/cover.svg"
done_testing
