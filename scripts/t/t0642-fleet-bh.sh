#!/bin/sh
# t0642: without --machine, compare judges every machine alone: the
# Benjamini-Hochberg family (and so each q, MDE and verdict) is the rows
# of one machine, never the whole database. fixtures/fleet-bh.sql gives
# machine A one real change among its two rows and machine B six rows of
# nothing: over A's rows q is 2 x 2/252 (a regression), while over all
# eight it would be 8 x 2/252 > 0.05 (none).
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

for tool in jq sqlite3; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "'$tool' not installed"
done
db=$TMPD/bh.db
"$SGABENCH" db init --db "$db" >/dev/null 2>&1 || skip_all "db init failed"
sqlite3 "$db" <"$FIXTURES/fleet-bh.sql" || skip_all "the fixture did not load"

# cmp TAG ARGS...: compare base against cand into $TMPD/TAG.json; status in $rc.
cmp() {
	tag=$1
	shift
	rc=0
	"$SGABENCH" compare --db "$db" --baseline label:base --candidate label:cand --json "$@" \
		>"$TMPD/$tag.json" 2>"$TMPD/$tag.err" || rc=$?
}

# a_rows TAG: machine A's rows of TAG: cell, metric, p, q, MDE and verdict.
a_rows() {
	jq -c '[.rows[] | select(.machine_name == "A") | [.cell, .metric, .p, .q, .mde, .verdict]]' "$TMPD/$1.json"
}

test_expect_success 'A alone: a regression at q = 2 x 2/252, exit 1' - <<-\EOT
	cmp a --machine A && test_is "$rc" 1 &&
	test_is "$(jq -r '[.rows[] | .machine_name] | unique | join(" ")' "$TMPD/a.json")" A &&
	test_is "$(jq -r '.rows[] | select(.metric == "first-touch-faults") |
		"\(.p * 252 | round) \(.q * 126 | round) \(.verdict)"' "$TMPD/a.json")" "2 2 regression"
EOT
test_expect_success 'the whole fleet: A regresses alike (exit 1), B rows are all there' - <<-\EOT
	cmp all && test_is "$rc" 1 &&
	test_is "$(jq '[.rows[] | select(.machine_name == "B")] | length' "$TMPD/all.json")" 6 &&
	test_is "$(jq -r '[.headlines[] | select(startswith("regression"))] | length' "$TMPD/all.json")" 1 &&
	jq -r '.headlines[]' "$TMPD/all.json" | grep -q "^regression: machine A, tasks=1: first-touch-faults"
EOT
test_expect_success "A's p, q, MDE and verdicts are the same with and without --machine" - <<-\EOT
	test -n "$(a_rows a)" && test_is "$(a_rows all)" "$(a_rows a)"
EOT
# A threshold below the rows' noise: the MDE is the statistical one, which
# rests on BH's family size (a = min(alpha, fdr / family)).
test_expect_success 'and with a statistical MDE (--threshold 0.0001): still the same' - <<-\EOT
	cmp a0 --machine A --threshold 0.0001 && cmp all0 --threshold 0.0001 &&
	test_is "$(jq '[.rows[] | select(.machine_name == "A") | .mde > 0.0001] | all' "$TMPD/a0.json")" true &&
	test_is "$(a_rows all0)" "$(a_rows a0)"
EOT
test_expect_success "B's q values are B's own: its six rows' BH, not A's" - <<-\EOT
	cmp b --machine B && test_is "$rc" 0 &&
	test_is "$(jq -c '[.rows[] | select(.machine_name == "B") | .q]' "$TMPD/all.json")" \
		"$(jq -c '[.rows[] | .q]' "$TMPD/b.json")"
EOT
test_expect_success 'the stored method names the machine family: 2 rows on A, 6 on B' - <<-\EOT
	cp "$db" "$TMPD/store.db" &&
	rc=0 && "$SGABENCH" compare --db "$TMPD/store.db" --baseline label:base --candidate label:cand \
		--store-verdicts >/dev/null 2>&1 || rc=$? &&
	test_is "$rc" 1 &&
	test_is "$(sqlite3 "$TMPD/store.db" "SELECT machine_name || ':' || json_extract(method, '$.family')
		FROM verdict GROUP BY machine_name ORDER BY machine_name" | tr '\n' ' ')" "A:2 B:6 "
EOT
test_expect_success '--cross-machine: one family over the machines, as the rows pool them' - <<-\EOT
	cmp cross --cross-machine &&
	test_is "$(jq '.method.family' "$TMPD/cross.json")" "$(jq '[.rows[] | select(.p != null)] | length' "$TMPD/cross.json")"
EOT
test_done
