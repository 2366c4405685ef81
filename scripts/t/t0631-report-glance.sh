#!/bin/sh
# t0631: the report's "latest comparison at a glance" table, from the
# synthetic database plus one newer comparison with floors and MDEs: only
# that comparison's rows, only the settings that vary, verdict, ratio with
# its CI (and its quantile when not the median: --one-sided-noise), floor
# and MDE; escaped in the HTML page.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"

for tool in sqlite3 gnuplot; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "'$tool' not installed"
done
db="$TMPD/syn.db"
db_ensure "$db"
sqlite3 "$db" <"$top/scripts/t/fixtures/synthetic.sql"
sqlite3 "$db" "INSERT INTO verdict (created_at, baseline, candidate, cell, metric, machine_id, n_base, n_cand,
	ratio, ci_lo, ci_hi, p_value, q_value, verdict, method, reason, noise_floor, mde) VALUES
	('2026-11-20T03:00:00Z', 'label:a', 'label:b<i>', 'backend=native tasks=1 page=4k', 'accesses-per-s', 1, 8, 8,
	 0.9, 0.85, 0.95, 0.001, 0.004, 'regression', '{}', 'x', 0.031, 0.062),
	('2026-11-20T03:00:00Z', 'label:a', 'label:b<i>', 'backend=native tasks=4 page=4k', 'accesses-per-s', 1, 3, 3,
	 1.01, 0.9, 1.1, 0.7, 0.7, 'insufficient', '{}', 'x', NULL, NULL),
	('2026-11-20T03:00:00Z', 'label:a', 'label:b<i>', 'backend=native tasks=1 page=4k', 'accesses-per-cpu-s-best', 1, 8, 8,
	 0.89, 0.88, 0.9, 0.0002, 0.001, 'regression', '{\"quantile\":0.9}', 'x', 0.004, 0.05)"
rc=0
"$top/report/mkreport" --db "$db" --out "$TMPD/out" >"$TMPD/stdout" 2>"$TMPD/stderr" || rc=$?
test_expect_success "mkreport: exit 0" - <<-\EOT
	test_is "$rc" 0
EOT
g=$TMPD/out/data/glance.tsv
test_expect_success "only the newest comparison's rows" - <<-\EOT
	test_is "$(wc -l <"$g" | tr -d ' ')" 3
EOT
test_expect_success "the regression: varying settings, verdict, ratio and CI, floor, MDE, runs" - <<-\EOT
	test_is "$(sed -n 2p "$g")" \
		"host-a<script>alert(\"h\")</script> 01234567	tasks=1	accesses-per-s	REGRESSION	0.900 [0.850, 0.950]	3.1 %	6.2 %	8 / 8"
EOT
test_expect_success "a ratio of 90th percentiles says so" - <<-\EOT
	test_is "$(sed -n 1p "$g" | cut -f3,5)" "accesses-per-cpu-s-best	0.890 [0.880, 0.900] of q90"
EOT
test_expect_success "a row without floor or MDE says so" - <<-\EOT
	test_is "$(sed -n 3p "$g" | cut -f2,4,6,7)" "tasks=4	insufficient	-	none"
EOT
test_expect_success "the settings every row shares" - <<-\EOT
	test_is "$(cat "$TMPD/out/data/glance-common.txt")" "backend=native page=4k"
EOT
test_expect_success "the HTML page shows the table" - <<-\EOT
	grep -q '<h3>The latest comparison at a glance</h3>' "$TMPD/out/index.html"
EOT
test_expect_success "the candidate's name is escaped" - <<-\EOT
	grep -q 'candidate label:b&lt;i&gt;' "$TMPD/out/index.html"
EOT
test_expect_success "the Markdown summary shows it too" - <<-\EOT
	grep -q '| tasks=1 | accesses-per-s | REGRESSION |' "$TMPD/out/summary.md"
EOT
test_expect_success "every row names its machine, escaped in the page" - <<-\EOT
	test_is "$(cut -f1 "$g" | sort -u)" 'host-a<script>alert("h")</script> 01234567' &&
	grep -q '<tr><td class="w">host-a&lt;script&gt;alert(&quot;h&quot;)&lt;/script&gt; 01234567</td><td>tasks=1</td><td>accesses-per-s</td><td>REGRESSION</td>' "$TMPD/out/index.html"
EOT
# Every recent verdict: one table per comparison, newest first, the method
# said once above it (what every row shares, then per metric), no JSON in
# a cell, every row with its machine.
v=$TMPD/out/data
test_expect_success "every recent verdict: one table per comparison, newest first" - <<-\EOT
	test_is "$(cat "$v/verdicts-list" | tr '\n' ' ')" "1 2 " &&
	test_is "$(cat "$v/verdicts-1.title")" "2026-11-20T03:00:00Z: baseline label:a, candidate label:b<i>" &&
	test_is "$(wc -l <"$v/verdicts-2.tsv" | tr -d ' ')" 2
EOT
test_expect_success "the method of a comparison is said once, split by metric" - <<-\EOT
	test_is "$(cat "$v/verdicts-2.method")" "$(printf 'all\talpha\t0.01\nall\ttest\tmann-whitney')" &&
	test_is "$(cat "$v/verdicts-1.method")" "accesses-per-cpu-s-best	quantile	0.9" &&
	test_is "$(grep -c '<summary>Method of this comparison' "$TMPD/out/index.html")" 2 &&
	! grep -q '<td>{' "$TMPD/out/index.html"
EOT
test_expect_success "a verdict row: machine, varying cell, metric, verdict, ratio, CI, p, q, runs" - <<-\EOT
	test_is "$(sed -n 1p "$v/verdicts-2.tsv" | cut -f1-9)" \
		"host-a<script>alert(\"h\")</script> 01234567	tasks=8	accesses-per-s	REGRESSION	0.9000	0.8800-0.9200	0.0001	0.0002	35 / 5" &&
	grep -q '<p>Every row has: <code>backend=native pattern=rounds page=2m align=pud</code>.</p>' "$TMPD/out/index.html"
EOT
test_done
