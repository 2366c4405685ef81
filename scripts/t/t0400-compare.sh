#!/bin/sh
# t0400: compare, history and db on a throwaway database of real runs
# (small 4k cells, interleaved A/B): quiet on A/A, exit 1 once a 10 %
# regression is injected into the candidate's stored values, valid JSON,
# verdicts stored, merge without duplicates, and the usage/resource errors.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

if ! "$SGABENCH" compare --help >/dev/null 2>&1 || ! command -v sqlite3 >/dev/null 2>&1; then
	skip_all "compare: 'sgabench compare' or sqlite3 is not available"
fi

db=$TMPD/a.db
cell="--page-size 4k --sga-size 8m --tasks 2"
for l in base cand base cand base cand base cand base cand base cand; do
	# shellcheck disable=SC2086 # $cell is a list of options
	"$SGABENCH" run $cell --db "$db" --label "$l" >/dev/null 2>"$TMPD/run.err" || {
		skip_all "compare: 'sgabench run' fails here: $(head -1 "$TMPD/run.err")"
	}
done
test_expect_success "twelve runs stored" - <<-\EOT
	test_is "$(sqlite3 "$db" "SELECT COUNT(*) FROM run WHERE status = 'ok'")" 12
EOT

run_sga compare --db "$db" --baseline label:base --candidate label:cand --metric first-touch-faults
test_expect_success "A/A: exit 0" 'test_is "$rc" 0'
test_expect_success "A/A: the verdict table says no-change" 'grep -q "first-touch-faults .* no-change" "$TMPD/out"'
test_expect_success "A/A: summary line" 'grep -q "^summary: 0 regressions, 0 improvements, 1 no change" "$TMPD/out"'

sqlite3 "$db" "UPDATE metric SET value = value * 1.10 WHERE name = 'first-touch-faults'
	AND run_id IN (SELECT id FROM run WHERE label = 'cand')"
run_sga compare --db "$db" --baseline label:base --candidate label:cand --metric first-touch-faults
test_expect_success "10 % more first-touch faults: exit 1" 'test_is "$rc" 1'
test_expect_success "the row says regression" 'grep -q "first-touch-faults .* 1.[01][0-9]* .* regression" "$TMPD/out"'
run_sga compare --db "$db" --baseline label:base --candidate label:cand \
	--metric first-touch-faults --higher-better first-touch-faults
test_expect_success "the same with --higher-better: exit 0" 'test_is "$rc" 0'
test_expect_success "and it is an improvement" 'grep -q "improvement" "$TMPD/out"'

# --metric-threshold: one metric's own smallest reported change. 20 % for
# first-touch-faults hides the 10 % step; 20 % for another metric leaves
# it at --threshold's 2 %, so the step is still a regression.
run_sga compare --db "$db" --baseline label:base --candidate label:cand --metric first-touch-faults \
	--metric-threshold first-touch-faults=0.2 --json
test_expect_success "--metric-threshold first-touch-faults=0.2: exit 0" 'test_is "$rc" 0'
test_expect_success "the row is no-change, and says its threshold and bound" - <<-\EOT
	test_is "$(json '$.rows[0].verdict') $(json '$.rows[0].threshold') $(json '$.rows[0].bound')" "no-change 0.2 0.2"
EOT
test_expect_success "the method lists it" 'test_is "$(json "$.method.metric_thresholds.\"first-touch-faults\"")" 0.2'
run_sga compare --db "$db" --baseline label:base --candidate label:cand --metric first-touch-faults \
	--metric-threshold wall-s=0.2 --metric-threshold first-touch-faults=0.5 --metric-threshold first-touch-faults=0.05
test_expect_success "another metric's threshold, and the last of two for it (5 %): still a regression" 'test_is "$rc" 1'
test_expect_success "the summary names the metrics' own thresholds" - <<-\EOT
	grep -q "threshold 2% (wall-s 20%, first-touch-faults 5%)" "$TMPD/out"
EOT
for bad in first-touch-faults =0.1 first-touch-faults= first-touch-faults=x first-touch-faults=-1 first-touch-faults=11; do
	run_sga compare --db "$db" --baseline label:base --candidate label:cand --metric-threshold "$bad"
	test_expect_success "--metric-threshold '$bad': usage error (2), and why" - <<-\EOT
		test_is "$rc" 2 && grep -q "metric-threshold '$bad'" "$TMPD/err"
	EOT
done

run_sga compare --db "$db" --baseline label:base --candidate label:cand --json --store-verdicts
test_expect_success "--json --store-verdicts over every metric: exit 1" 'test_is "$rc" 1'
test_expect_success "the JSON is valid" 'test_is "$(json "$.command")" compare'
test_expect_success "it carries the tool version" 'test_is "$(json "$.version")" "$("$SGABENCH" --version | cut -d" " -f2)"'
test_expect_success "and the method" 'test_is "$(json "$.method.alpha")/$(json "$.method.resamples")" "0.01/10000"'
test_expect_success "a verdict row per JSON row" 'test_is "$(sqlite3 "$db" "SELECT COUNT(*) FROM verdict")" "$(json "$.summary.rows")"'
# Only first-touch-faults is asserted: the timing metrics of these real runs
# (wall, start-up, accesses per second) may, rarely, differ for real
# between the interleaved arms, and then they are rightly flagged too.
test_expect_success "the stored regression" - <<-\EOT
	test_is "$(sqlite3 "$db" "SELECT verdict FROM verdict WHERE metric = 'first-touch-faults'")" regression
EOT
test_expect_success "the exact window faults (0 in every run) are no-change" - <<-\EOT
	test_is \
	"$(sqlite3 "$db" "SELECT group_concat(metric || '=' || verdict) FROM (SELECT metric, verdict FROM verdict
	WHERE metric IN ('page-faults', 'minor-faults') ORDER BY metric)")" "minor-faults=no-change,page-faults=no-change"
EOT

run_sga history --db "$db" --metric first-touch-faults --json
test_expect_success "history: exit 0" 'test_is "$rc" 0'
test_expect_success "history: one series of 12 runs" - <<-\EOT
	test_is "$(json '$.series[0].unit')/$(sqlite3 :memory: "SELECT json_array_length(readfile('$TMPD/out'), '\$.series[0].points')")" run/12
EOT

# Fleet: a second database, merged twice. One verdict gets a noise floor
# (these runs have none measured) so that merge must carry a value.
sqlite3 "$db" "UPDATE verdict SET noise_floor = 0.0375 WHERE metric = 'first-touch-faults'"
# shellcheck disable=SC2086
"$SGABENCH" run $cell --db "$TMPD/b.db" --label other >/dev/null 2>&1
run_sga db merge "$db" "$TMPD/b.db" -o "$TMPD/all.db"
test_expect_success "merge: exit 0" 'test_is "$rc" 0'
test_expect_success "merge reports what it added" - <<-\EOT
	grep -q "merged 2 databases into '$TMPD/all.db': 13 runs added, 0 skipped" "$TMPD/out"
EOT
# verdict_rows DB: every stored verdict with its floor and MDE (schema 2), in one order.
verdict_rows() {
	sqlite3 "$1" "SELECT baseline, candidate, cell, metric, verdict, printf('%.6g', ratio),
		COALESCE(printf('%.6g', noise_floor), 'NULL'), COALESCE(printf('%.6g', mde), 'NULL')
		FROM verdict ORDER BY cell, metric"
}
test_expect_success "merge copies the verdicts with their noise floor and MDE" - <<-\EOT
	test_is "$(verdict_rows "$TMPD/all.db")" "$(verdict_rows "$db")" &&
	test_is "$(sqlite3 "$TMPD/all.db" "SELECT COUNT(*) FROM verdict WHERE noise_floor = 0.0375")" 1 &&
	test "$(sqlite3 "$TMPD/all.db" "SELECT COUNT(*) FROM verdict WHERE mde > 0")" -gt 0
EOT
run_sga db merge "$TMPD/b.db" "$db" -o "$TMPD/all.db"
test_expect_success "merging again adds nothing" 'grep -q ": 0 runs added, 13 skipped" "$TMPD/out"'
test_expect_success "not a verdict twice either" 'test_is "$(verdict_rows "$TMPD/all.db")" "$(verdict_rows "$db")"'
test_expect_success "13 runs, 1 machine" - <<-\EOT
	test_is "$(sqlite3 "$TMPD/all.db" 'SELECT COUNT(*) FROM run; SELECT COUNT(*) FROM machine' | tr '\n' ' ')" "13 1 "
EOT
run_sga db check --db "$TMPD/all.db"
test_expect_success "db check: exit 0" 'test_is "$rc" 0'
test_expect_success "db check: integrity ok" 'grep -q "^integrity      ok" "$TMPD/out"'
test_expect_success "db check: a file sorts text byte by byte, no warning" - <<-\EOT
	grep -q "^text order     byte by byte, as SQLite (collation binary)$" "$TMPD/out" &&
	test_is "$(cat "$TMPD/err")" ""
EOT
sqlite3 "$TMPD/future.db" "CREATE TABLE t (x); PRAGMA user_version = 999"
run_sga db merge "$TMPD/future.db" -o "$TMPD/all.db"
test_expect_success "merge refuses an unknown schema: exit 3" 'test_is "$rc" 3'

# Errors.
run_sga compare --db "$db" --baseline yesterday --candidate label:cand
test_expect_success "unknown selector: exit 2" 'test_is "$rc" 2'
run_sga compare --db "$TMPD/none.db" --baseline last-7-nights --candidate tonight
test_expect_success "no database: exit 3" 'test_is "$rc" 3'
test_expect_success "no database: says where to look" - <<-\EOT
	grep -q "no database at '$TMPD/none.db'" "$TMPD/err"
EOT
run_sga compare --db "$db" --baseline last-7-nights --candidate tonight
test_expect_success "no nightly runs: exit 3" 'test_is "$rc" 3'
run_sga db merge "$db"
test_expect_success "merge without -o: exit 2" 'test_is "$rc" 2'
run_sga db frobnicate
test_expect_success "unknown db subcommand: exit 2" 'test_is "$rc" 2'
test_done
