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
		"tasks=1	accesses-per-s	REGRESSION	0.900 [0.850, 0.950]	3.1 %	6.2 %	8 / 8"
EOT
test_expect_success "a ratio of 90th percentiles says so" - <<-\EOT
	test_is "$(sed -n 1p "$g" | cut -f2,4)" "accesses-per-cpu-s-best	0.890 [0.880, 0.900] of q90"
EOT
test_expect_success "a row without floor or MDE says so" - <<-\EOT
	test_is "$(sed -n 3p "$g" | cut -f1,3,5,6)" "tasks=4	insufficient	-	none"
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
test_done
