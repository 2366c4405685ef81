#!/bin/sh
# t0437: a --metric that is no metric is a usage error (exit 2), for
# compare (given, or from a --config's SWEEP_METRICS) and history: neither
# a row of the registry (sgabench metrics) nor a name a selected run
# stores. The message lists the stored names the registry lacks (a model
# run's events) and hints at a misspelling's nearest name. A registry
# metric the runs lack, or an event only the runs name, is no error.
# Model runs: deterministic, no hugepages.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

db=$TMPD/sim.db
for l in a b; do
	"$SGABENCH" sim --tasks 2 --rounds 2 --working-set 8m --db "$db" --label "$l" >/dev/null 2>&1 ||
		skip_all "sim --db failed"
done
sides="--db $db --baseline label:a --candidate label:b"

# shellcheck disable=SC2086 # $sides is a list of options
test_expect_success 'compare --metric nosuch: exit 2, no such metric, the runs own names listed' '
	refuse 2 "^sgabench: error: compare: --metric .nosuch.: no such metric (sgabench metrics lists them; the selected runs also have: .*l1-dtlb-misses" \
		compare $sides --metric nosuch &&
	grep -q "^hint: .sgabench metrics --names. lists the registry" "$TMPD/r.err" &&
	test ! -s "$TMPD/r.out"
'
# shellcheck disable=SC2086
test_expect_success 'compare: a misspelt metric among good ones: exit 2, the nearest name hinted' '
	refuse 2 "compare: --metric .first-touch-fault.: no such metric" \
		compare $sides --metric dtlb-walks,first-touch-fault &&
	grep -q "^hint: did you mean .first-touch-faults.?$" "$TMPD/r.err" &&
	test ! -s "$TMPD/r.out"
'
# shellcheck disable=SC2086
test_expect_success 'compare: an event only the runs name (l1-dtlb-misses) is judged: exit 0' '
	run_sga compare $sides --metric l1-dtlb-misses --json && test_is "$rc" 0 &&
	test_is "$(jq -r "[.rows[].metric] | unique | join(\" \")" "$TMPD/out")" l1-dtlb-misses
'
# shellcheck disable=SC2086
test_expect_success 'compare: a registry metric these runs lack stays "no cell has runs" (exit 3)' '
	refuse 3 "compare: no cell has runs on both sides" compare $sides --metric first-touch-faults
'
cat >"$TMPD/cfg" <<'EOC'
SWEEP_METRICS="first-touch-fault dtlb-walks"
EOC
# shellcheck disable=SC2086
test_expect_success 'compare --config: a misspelt SWEEP_METRICS name is refused, the config named' '
	refuse 2 "compare: --metric .first-touch-fault.: no such metric" compare $sides --config "$TMPD/cfg" &&
	grep -q "^hint: --config .*/cfg: its SWEEP_METRICS are --metric names too$" "$TMPD/r.err"
'
test_expect_success 'history --metric first-touch-fault: exit 2, the hint, nothing on stdout' '
	refuse 2 "^sgabench: error: history: --metric .first-touch-fault.: no such metric (sgabench metrics lists them; the selected runs also have: .*model-dtlb-misses" \
		history --db "$db" --metric first-touch-fault &&
	grep -q "^hint: did you mean .first-touch-faults.?$" "$TMPD/r.err" &&
	test ! -s "$TMPD/r.out" &&
	refuse 2 "history: --metric .nosuch.: no such metric" history --db "$db" --metric nosuch --json &&
	test ! -s "$TMPD/r.out"
'
test_expect_success 'history: an event the runs store, and a registry metric they lack: exit 0' '
	run_sga history --db "$db" --metric l1-dtlb-misses && test_is "$rc" 0 &&
	grep -q "^metric  l1-dtlb-misses, 2 runs" "$TMPD/out" &&
	run_sga history --db "$db" --metric first-touch-faults && test_is "$rc" 0
'
test_expect_success 'history: no run in the cells asked about is still exit 3, before any name' '
	refuse 3 "history: no successful runs of a cell matching" \
		history --db "$db" --metric nosuch --cell "*tasks=99*"
'
test_done
