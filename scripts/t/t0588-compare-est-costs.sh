#!/bin/sh
# t0588: compare on est-* rows whose sides assumed other costs. The est-*
# metrics price a model run's walks at the walk cost and clock it assumed
# (sim --walk-cycles, --ghz; stored with its machine), which are in no
# untimed cell, so runs at two clocks pair. One design (T2, 4 tasks over
# 16 pages each: 64 cold walks) at 2 and at 4 GHz is "2.00 times lower" in
# est-translation-s by the clock alone: the headline, the notes (with and
# without --verbose), the JSON row and a stored verdict must say that the
# sides assume 2 GHz and 4 GHz. est-translation-cycles does not depend on
# the clock, only on the walk cost; the counts on neither.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

command -v sqlite3 >/dev/null 2>&1 || skip_all "compare: sqlite3 not installed"
db="$TMPD/c.db"
t2="--machine ultrasparc-t2 --tasks 4 --working-set 64m --rounds 2"
# sim LABEL ARGS...: one stored T2 run labelled LABEL
sim() {
	l=$1
	shift
	# shellcheck disable=SC2086 # $t2 is a list of arguments
	"$SGABENCH" sim $t2 "$@" --label "$l" --db "$db" >/dev/null
}
# cmp BASE CAND METRICS ARGS...: compare label:BASE with label:CAND; output
# in $TMPD/out and $TMPD/err, status in $rc
cmp() {
	b=$1 c=$2 m=$3
	shift 3
	run_sga compare --db "$db" --baseline "label:$b" --candidate "label:$c" --metric "$m" "$@"
}
said="(the sides assume 2 GHz and 4 GHz: an assumption, not a design change)"

test_expect_success "one design stored at 2 and 4 GHz, and at 200-cycle walks" - <<-\EOT
	sim g2 --walk-cycles 100 --ghz 2 &&
	sim g4 --walk-cycles 100 --ghz 4 &&
	sim g2again --walk-cycles 100 --ghz 2 &&
	sim w200 --walk-cycles 200 --ghz 2 &&
	sim g2p --walk-cycles 100 --ghz 2.02
EOT

test_expect_success "the clock alone: 2.00 times lower, and the headline says why" - <<-\EOT
	cmp g2 g4 est-translation-s &&
	test_is "$rc" 0 &&
	test_is "$(head -n 1 "$TMPD/out")" "improvement: machine $(uname -n): est-translation-s 2.00 times lower (exact) $said"
EOT
test_expect_success "a note says it without --verbose, and names the counts to compare" - <<-\EOT
	grep "^note: 'est-translation-s' in cell '" "$TMPD/out" |
		grep -qF "': the sides assume 2 GHz and 4 GHz: an assumption, not a design change (est-* price" &&
	grep -q "compare the counts, such as dtlb-walks, for the design" "$TMPD/out"
EOT
test_expect_success "--verbose: the headline and the note" - <<-\EOT
	cmp g2 g4 est-translation-s --verbose &&
	test_is "$(grep -cF "$said" "$TMPD/out")" 1 &&
	grep "^note: 'est-translation-s' in cell '" "$TMPD/out" | grep -qF "': the sides assume 2 GHz and 4 GHz"
EOT
test_expect_success "--json: the row's assumed costs, each side's, and the words" - <<-\EOT
	cmp g2 g4 est-translation-s,est-translation-cycles,dtlb-walks --json &&
	test_is "$(jq -c '.rows[] | select(.metric == "est-translation-s") | .assumed_costs' "$TMPD/out")" \
		'{"baseline":{"runs":1,"unknown_runs":0,"walk_cycles":[100],"ghz":[2]},"candidate":{"runs":1,"unknown_runs":0,"walk_cycles":[100],"ghz":[4]},"differ":true,"words":"the sides assume 2 GHz and 4 GHz: an assumption, not a design change"}' &&
	test_is "$(jq -r '.headlines[0]' "$TMPD/out")" "improvement: machine $(uname -n): est-translation-s 2.00 times lower (exact) $said" &&
	test_is "$(jq '[.notes[] | select(contains("the sides assume"))] | length' "$TMPD/out")" 1
EOT
test_expect_success "est-translation-cycles does not depend on the clock: equal, no claim" - <<-\EOT
	test_is "$(jq -c '.rows[] | select(.metric == "est-translation-cycles") | [.verdict, .assumed_costs.differ, .assumed_costs.words]' "$TMPD/out")" \
		'["no-change",false,null]'
EOT
test_expect_success "a count (dtlb-walks) has no assumed costs" - <<-\EOT
	test_is "$(jq -c '.rows[] | select(.metric == "dtlb-walks") | [.verdict, has("assumed_costs")]' "$TMPD/out")" \
		'["no-change",false]'
EOT

test_expect_success "the walk cost: est-translation-cycles 2.00 times higher, said" - <<-\EOT
	cmp g2 w200 est-translation-cycles &&
	test_is "$rc" 1 &&
	test_is "$(head -n 1 "$TMPD/out")" "regression: machine $(uname -n): est-translation-cycles 2.00 times higher (exact) $(
		)(the sides assume 100-cycle walks and 200-cycle walks: an assumption, not a design change)"
EOT
test_expect_success "both differ on est-translation-s: each side's walks at its clock" - <<-\EOT
	cmp g4 w200 est-translation-s &&
	grep -qF "(the sides assume 100-cycle walks at 4 GHz and 200-cycle walks at 2 GHz: an assumption, not a design change)" "$TMPD/out"
EOT
test_expect_success "the same costs on both sides: nothing said" - <<-\EOT
	cmp g2 g2again est-translation-s,est-translation-cycles --json &&
	test_is "$rc" 0 &&
	test_is "$(jq -c '[.rows[].assumed_costs.differ]' "$TMPD/out")" '[false,false]' &&
	test_is "$(jq '[.notes[] | select(contains("assume"))] | length' "$TMPD/out")" 0
EOT
test_expect_success "a change within the threshold still says it, in a note" - <<-\EOT
	cmp g2 g2p est-translation-s &&
	test_is "$rc" 0 &&
	grep -q "^no regression on " "$TMPD/out" &&
	grep "^note: 'est-translation-s' in cell '" "$TMPD/out" | grep -qF "': the sides assume 2 GHz and 2.02 GHz"
EOT
test_expect_success "a stored verdict keeps the assumed costs in its method" - <<-\EOT
	cmp g2 g4 est-translation-s --store-verdicts &&
	test_is "$rc" 0 &&
	test_is "$(sqlite3 "$db" "SELECT json_extract(method, '\$.assumed_costs.candidate.ghz[0]') || ' ' ||
		json_extract(method, '\$.assumed_costs.differ') FROM verdict WHERE metric = 'est-translation-s'")" "4 1"
EOT
test_done
