#!/bin/sh
# t0400: compare, history and db on a throwaway database of real runs
# (small 4k cells, interleaved A/B): quiet on A/A, exit 1 once a 10 %
# regression is injected into the candidate's stored values, valid JSON,
# verdicts stored, merge without duplicates, and the usage/resource errors.
# shellcheck source=scripts/t/tap.sh
. "$(dirname "$0")/tap.sh"

if ! "$SGABENCH" compare --help >/dev/null 2>&1 || ! command -v sqlite3 >/dev/null 2>&1; then
	skip "compare" "'sgabench compare' or sqlite3 is not available"
	done_testing
	exit
fi

db=$TMPD/a.db
cell="--page-size 4k --sga-size 8m --tasks 2"
for l in base cand base cand base cand base cand base cand base cand; do
	# shellcheck disable=SC2086 # $cell is a list of options
	"$SGABENCH" run $cell --db "$db" --label "$l" >/dev/null 2>"$TMPD/run.err" || {
		skip "compare" "'sgabench run' fails here: $(head -1 "$TMPD/run.err")"
		done_testing
		exit
	}
done
is "twelve runs stored" "$(sqlite3 "$db" "SELECT COUNT(*) FROM run WHERE status = 'ok'")" 12

run_sga compare --db "$db" --baseline label:base --candidate label:cand --metric first-touch-faults
is "A/A: exit 0" "$rc" 0
ok "A/A: the verdict table says no-change" grep -q 'first-touch-faults .* no-change' "$TMPD/out"
ok "A/A: summary line" grep -q '^summary: 0 regressions, 0 improvements, 1 no change' "$TMPD/out"

sqlite3 "$db" "UPDATE metric SET value = value * 1.10 WHERE name = 'first-touch-faults'
	AND run_id IN (SELECT id FROM run WHERE label = 'cand')"
run_sga compare --db "$db" --baseline label:base --candidate label:cand --metric first-touch-faults
is "10 % more first-touch faults: exit 1" "$rc" 1
ok "the row says regression" grep -q 'first-touch-faults .* 1.[01][0-9]* .* regression' "$TMPD/out"
run_sga compare --db "$db" --baseline label:base --candidate label:cand \
	--metric first-touch-faults --higher-better first-touch-faults
is "the same with --higher-better: exit 0" "$rc" 0
ok "and it is an improvement" grep -q 'improvement' "$TMPD/out"

run_sga compare --db "$db" --baseline label:base --candidate label:cand --json --store-verdicts
is "--json --store-verdicts over every metric: exit 1" "$rc" 1
is "the JSON is valid" "$(json '$.command')" compare
is "it carries the tool version" "$(json '$.version')" "$("$SGABENCH" --version | cut -d' ' -f2)"
is "and the method" "$(json '$.method.alpha')/$(json '$.method.resamples')" "0.01/10000"
is "a verdict row per JSON row" "$(sqlite3 "$db" 'SELECT COUNT(*) FROM verdict')" "$(json '$.summary.rows')"
# Only first-touch-faults is asserted: the timing metrics of these real runs
# (wall, start-up, accesses per second) may, rarely, differ for real
# between the interleaved arms, and then they are rightly flagged too.
is "the stored regression" "$(sqlite3 "$db" "SELECT verdict FROM verdict WHERE metric = 'first-touch-faults'")" regression
is "the exact window faults (0 in every run) are no-change" \
	"$(sqlite3 "$db" "SELECT group_concat(metric || '=' || verdict) FROM (SELECT metric, verdict FROM verdict
		WHERE metric IN ('page-faults', 'minor-faults') ORDER BY metric)")" "minor-faults=no-change,page-faults=no-change"

run_sga history --db "$db" --metric first-touch-faults --json
is "history: exit 0" "$rc" 0
is "history: one series of 12 runs" "$(json '$.series[0].unit')/$(sqlite3 :memory: "SELECT json_array_length(readfile('$TMPD/out'), '\$.series[0].points')")" run/12

# Fleet: a second database, merged twice.
# shellcheck disable=SC2086
"$SGABENCH" run $cell --db "$TMPD/b.db" --label other >/dev/null 2>&1
run_sga db merge "$db" "$TMPD/b.db" -o "$TMPD/all.db"
is "merge: exit 0" "$rc" 0
ok "merge reports what it added" grep -q "merged 2 databases into '$TMPD/all.db': 13 runs added, 0 skipped" "$TMPD/out"
run_sga db merge "$TMPD/b.db" "$db" -o "$TMPD/all.db"
ok "merging again adds nothing" grep -q ': 0 runs added, 13 skipped' "$TMPD/out"
is "13 runs, 1 machine" "$(sqlite3 "$TMPD/all.db" 'SELECT COUNT(*) FROM run; SELECT COUNT(*) FROM machine' | tr '\n' ' ')" "13 1 "
run_sga db check --db "$TMPD/all.db"
is "db check: exit 0" "$rc" 0
ok "db check: integrity ok" grep -q '^integrity      ok' "$TMPD/out"
sqlite3 "$TMPD/future.db" "CREATE TABLE t (x); PRAGMA user_version = 7"
run_sga db merge "$TMPD/future.db" -o "$TMPD/all.db"
is "merge refuses an unknown schema: exit 3" "$rc" 3

# Errors.
run_sga compare --db "$db" --baseline yesterday --candidate label:cand
is "unknown selector: exit 2" "$rc" 2
run_sga compare --db "$TMPD/none.db" --baseline last-7-nights --candidate tonight
is "no database: exit 3" "$rc" 3
ok "no database: says where to look" grep -q "no database at '$TMPD/none.db'" "$TMPD/err"
run_sga compare --db "$db" --baseline last-7-nights --candidate tonight
is "no nightly runs: exit 3" "$rc" 3
run_sga db merge "$db"
is "merge without -o: exit 2" "$rc" 2
run_sga db frobnicate
is "unknown db subcommand: exit 2" "$rc" 2
done_testing
