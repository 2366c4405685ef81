#!/bin/sh
# t0575: `sgabench sim --sweep-entries A..B`, the single-pass design curve
# (bench/model/curve.h): every row equals a separate `sim` run with the
# first level at that size, for 30 sizes on random and zipf streams, through
# the command line (build/tests/t_model_curve checks the same task by task
# on more configurations); the table, JSON and CSV say the same; and what a
# single pass cannot do is refused with exit 2.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# a custom two-level machine: the L1 is swept, the L2 stays
l2="l2:512,4way,lru"
run="--machine custom --tag asid --cores 2 --tasks 4 --working-set 400k --page-size 4k --rounds 40 --no-store"

for pat in random zipf; do
	# shellcheck disable=SC2086 # $run is a list of arguments
	"$SGABENCH" sim $run --pattern $pat --tlb "l1d:64,full,lru;$l2" --sweep-entries 41..70 --json \
		>"$TMPD/curve-$pat.json"
	: >"$TMPD/runs-$pat"
	e=41
	while [ "$e" -le 70 ]; do
		# shellcheck disable=SC2086
		"$SGABENCH" sim $run --pattern $pat --tlb "l1d:$e,full,lru;$l2" --json |
			jq -r --arg e "$e" '"\($e) \(.totals["l1-dtlb-misses"])"' >>"$TMPD/runs-$pat"
		e=$((e + 1))
	done
	jq -r '.points[] | "\(.entries) \(.["l1-dtlb-misses"])"' "$TMPD/curve-$pat.json" >"$TMPD/points-$pat"
	test_expect_success "$pat: 30 sizes from one pass equal 30 separate runs" "
		test_is \"\$(wc -l <\"$TMPD/points-$pat\" | tr -d ' ')\" 30 &&
		diff -u \"$TMPD/runs-$pat\" \"$TMPD/points-$pat\"
	"
done

test_expect_success "the curve falls with the size and is not flat" - <<-\EOT
	jq -e '[.points[]["l1-dtlb-misses"]] | (. == (sort | reverse)) and (first > last)' "$TMPD/curve-zipf.json" >/dev/null
EOT

# shellcheck disable=SC2086
"$SGABENCH" sim $run --pattern zipf --tlb "l1d:64,full,lru;$l2" --sweep-entries 41..70 --csv >"$TMPD/curve.csv"
# shellcheck disable=SC2086
"$SGABENCH" sim $run --pattern zipf --tlb "l1d:64,full,lru;$l2" --sweep-entries 41..70 >"$TMPD/curve.txt"
test_expect_success "CSV and the table give the JSON's figures" - <<-\EOT
	jq -r '.points[] | "\(.entries),\(.ways),\(.["l1-dtlb-misses"])"' "$TMPD/curve-zipf.json" >"$TMPD/want" &&
	grep -v '^#' "$TMPD/curve.csv" | sed 1d | cut -d, -f1,2,4 >"$TMPD/got-csv" &&
	diff -u "$TMPD/want" "$TMPD/got-csv" &&
	awk '$1 ~ /^[0-9]+$/ { print $1 "," $2 "," $3 }' "$TMPD/curve.txt" >"$TMPD/got-txt" &&
	diff -u "$TMPD/want" "$TMPD/got-txt"
EOT

# a set-associative L1 keeps its sets: Skylake's 2M L1 has 8
"$SGABENCH" sim --machine intel-skylake --tasks 3 --pattern zipf --working-set 256m --rounds 30 \
	--sweep-entries 8..40 --json >"$TMPD/sets.json"
"$SGABENCH" sim --machine intel-skylake --tasks 3 --pattern zipf --working-set 256m --rounds 30 \
	--tlb 'l1d-2m:24,3way,lru,ps=2m+4m;stlb:1536,12way,lru,ps=4k+2m' --no-store --json >"$TMPD/sets-24.json"
test_expect_success "set-associative: multiples of the 8 sets only, and 24 entries (3 ways) as a run" - <<-\EOT
	test_is "$(jq -c '[.points[].entries]' "$TMPD/sets.json")" "[8,16,24,32,40]" &&
	test_is "$(jq '.points[] | select(.entries == 24) | .["l1-dtlb-misses"]' "$TMPD/sets.json")" \
		"$(jq '.totals["l1-dtlb-misses"]' "$TMPD/sets-24.json")"
EOT

ps=ps=4k+8k+16k+64k+512k+2m+4m+32m+256m+512m+1g+2g+16g
test_expect_success "the curve's JSON and CSV start with the envelope and name the design" - <<-\EOT
	test_is "$(jq -r '[.tool, .command, (.schema_version | type), .tlb] | join(" ")' "$TMPD/curve-zipf.json")" \
		"sgabench sim number l1d:64,full,lru,$ps;$l2,$ps" &&
	head -n 1 "$TMPD/curve.csv" | grep -q "^# tool=sgabench version=.* schema_version=[0-9]* command=sim$" &&
	sed -n 3p "$TMPD/curve.csv" | grep -q "^# backend=model:custom tlb=l1d:64,full,lru"
EOT
test_expect_success "refused with exit 2: NRU, tag none, a bad range, with --reference" - <<-\EOT
	refuse 2 "not LRU" sim --machine ultrasparc-t2 --sweep-entries 8..16 &&
	refuse 2 "tag none flushes" sim --machine custom --tlb 'l1d:64,full,lru' --tag none --sweep-entries 8..16 &&
	refuse 2 "give A..B" sim --machine amd-zen2 --sweep-entries 16 &&
	refuse 2 "need 1 <= A <= B" sim --machine amd-zen2 --sweep-entries 16..8 &&
	refuse 2 "exclude each other" sim --machine amd-zen2 --sweep-entries 8..16 --reference
EOT

test_expect_success "refused with exit 2, each named: the timed engine's options and a stored run's" - <<-\EOT
	refuse 2 "does not take --timing: a sweep is one pass of the untimed model" \
		sim --machine amd-zen2 --sweep-entries 8..16 --timing &&
	refuse 2 "does not take --timing, --hz and --inflight:" \
		sim --machine amd-zen2 --sweep-entries 8..16 --timing --hz 250 --inflight wait &&
	refuse 2 "does not take --label and --db: .* stores nothing" \
		sim --machine amd-zen2 --sweep-entries 8..16 --label x --db "$TMPD/never.db" &&
	! test -e "$TMPD/never.db"
EOT

test_done
