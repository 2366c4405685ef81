#!/bin/sh
# t0631: the report's "latest comparison at a glance" table, from the
# synthetic database plus one newer comparison with floors and MDEs: only
# that comparison's rows, only the settings that vary, verdict, ratio with
# its CI, floor and MDE; escaped in the HTML page.
# shellcheck source=scripts/t/tap.sh
. "$(dirname "$0")/tap.sh"
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"

for tool in sqlite3 gnuplot; do
	command -v "$tool" >/dev/null 2>&1 || { skip "glance" "'$tool' not installed"; done_testing; exit; }
done
db="$TMPD/syn.db"
db_ensure "$db"
sqlite3 "$db" <"$top/report/synthetic.sql"
sqlite3 "$db" "INSERT INTO verdict (created_at, baseline, candidate, cell, metric, machine_id, n_base, n_cand,
	ratio, ci_lo, ci_hi, p_value, q_value, verdict, method, reason, noise_floor, mde) VALUES
	('2026-11-20T03:00:00Z', 'label:a', 'label:b<i>', 'backend=native tasks=1 page=4k', 'accesses-per-s', 1, 8, 8,
	 0.9, 0.85, 0.95, 0.001, 0.004, 'regression', '{}', 'x', 0.031, 0.062),
	('2026-11-20T03:00:00Z', 'label:a', 'label:b<i>', 'backend=native tasks=4 page=4k', 'accesses-per-s', 1, 3, 3,
	 1.01, 0.9, 1.1, 0.7, 0.7, 'insufficient', '{}', 'x', NULL, NULL)"
rc=0
"$top/report/mkreport" --db "$db" --out "$TMPD/out" >"$TMPD/stdout" 2>"$TMPD/stderr" || rc=$?
is "mkreport: exit 0" "$rc" 0
g=$TMPD/out/data/glance.tsv
is "only the newest comparison's rows" "$(wc -l <"$g" | tr -d ' ')" 2
is "the regression: varying settings, verdict, ratio and CI, floor, MDE, runs" "$(sed -n 1p "$g")" \
	"tasks=1	accesses-per-s	REGRESSION	0.900 [0.850, 0.950]	3.1 %	6.2 %	8 / 8"
is "a row without floor or MDE says so" "$(sed -n 2p "$g" | cut -f1,3,5,6)" "tasks=4	insufficient	-	none"
is "the settings every row shares" "$(cat "$TMPD/out/data/glance-common.txt")" "backend=native page=4k"
ok "the HTML page shows the table" grep -q '<h3>The latest comparison at a glance</h3>' "$TMPD/out/index.html"
ok "the candidate's name is escaped" grep -q 'candidate label:b&lt;i&gt;' "$TMPD/out/index.html"
ok "the Markdown summary shows it too" grep -q '| tasks=1 | accesses-per-s | REGRESSION |' "$TMPD/out/summary.md"
done_testing
