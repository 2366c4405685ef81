#!/bin/sh
# t0605: the report states the verdict of 'sgabench table' as its --json
# gives it (mkreport --table FILE): reproduced or NOT, each check that
# failed with its figures, the model/published ratios; it does not judge or
# hard-code them, so a JSON edited to say otherwise is reported as edited.
# Without --table the report says the verdict is not given. The prose
# says what the figures show: the published shared column rises.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"

for tool in sqlite3 gnuplot jq; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "mkreport: '$tool' not installed"
done
db="$TMPD/syn.db"
out="$TMPD/out"

test_expect_success 'the synthetic database and a real table JSON (1 seed, not stored)' - <<-\EOT
	db_ensure "$db" &&
	sqlite3 "$db" <"$FIXTURES/synthetic.sql" &&
	rc=0 && "$SGABENCH" table --backend model --seeds 1 --no-store --json >"$TMPD/t.json" || rc=$?
	{ test_is "$rc" 0 || test_is "$rc" 1; } &&
	test_is "$(jq -r .command "$TMPD/t.json")" table
EOT

# mk JSON DIR: the report of the synthetic database with the table JSON.
mk() { "$top/report/mkreport" --db "$db" --out "$2" --table "$1" >/dev/null 2>"$TMPD/err"; }

test_expect_success 'the summary and both pages state the JSON verdict and its failed check' - <<-\EOT
	mk "$TMPD/t.json" "$out" &&
	if [ "$(jq -r .reproduced "$TMPD/t.json")" = true ]; then
		v="reproduced"
	else
		v="NOT reproduced: failed: every cell within a factor of 2 of the published ($(jq -r .cells_outside_2x "$TMPD/t.json"))"
	fi &&
	echo "# $v" &&
	sed -n 2p "$out/summary.txt" | grep -qF "cover-letter table (sgabench table): $v; " &&
	grep -qF "$v" "$out/summary.md" &&
	grep -qF "<p><b>sgabench table (model:ultrasparc-t2, 1 seed(s) from 1, made $(jq -r .time "$TMPD/t.json") on $(jq -r .host "$TMPD/t.json")): $(html_escape "$v")" "$out/index.html"
EOT
test_expect_success 'a row of checks, each pass or FAIL as the JSON says' - <<-\EOT
	test_is "$(cut -f2 "$out/data/table-checks.tsv" | tr '\n' ' ')" \
		"$(jq -r '[.slope_within_10pct, .shared_flat, .first_row_within_2x, .cells_within_2x] | map(if . then "pass" else "FAIL" end) | join(" ")' "$TMPD/t.json") "
EOT
test_expect_success 'the cover table carries the JSON ratios (10^6 rounds)' - <<-\EOT
	r=$(jq -r '.rows | last | "\(.normal_ratio) \(.shared_ratio)"' "$TMPD/t.json" | awk '{ printf "%.2f\t%.2f", $1, $2 }') &&
	test_is "$(awk -F'	' '$1 == 1000000 { print $6 "	" $7 }' "$out/data/cover-table.tsv")" "$r" &&
	grep -q '<th>model / published, shared</th>' "$out/index.html"
EOT
# Edited JSONs: the report follows the JSON, so it judges nothing itself.
test_expect_success 'a JSON that says reproduced is reported as reproduced' - <<-\EOT
	jq '.reproduced = true | .cells_within_2x = true | .cells_outside_2x = null' "$TMPD/t.json" >"$TMPD/yes.json" &&
	mk "$TMPD/yes.json" "$TMPD/yes" &&
	sed -n 2p "$TMPD/yes/summary.txt" | grep -q '^cover-letter table (sgabench table): reproduced; ' &&
	! grep -q 'NOT reproduced' "$TMPD/yes/index.html" &&
	! grep -q FAIL "$TMPD/yes/data/table-checks.tsv"
EOT
test_expect_success 'a failed slope check is named with its slope' - <<-\EOT
	jq '.slope_within_10pct = false | .slope = 123.456' "$TMPD/t.json" >"$TMPD/slope.json" &&
	mk "$TMPD/slope.json" "$TMPD/slope" &&
	sed -n 2p "$TMPD/slope/summary.txt" | grep -q 'NOT reproduced: failed: slope of the normal column within 10 % of the published (123.46 misses/round'
EOT
test_expect_success 'without --table: the verdict is not given, and no old JSON is kept' - <<-\EOT
	"$top/report/mkreport" --db "$db" --out "$out" >/dev/null 2>"$TMPD/err" &&
	test ! -e "$out/data/table.json" &&
	sed -n 2p "$out/summary.txt" | grep -q '^cover-letter table (sgabench table): verdict not given (mkreport --table); ' &&
	grep -q 'The verdict of sgabench table is not in this report' "$out/index.html" &&
	! grep -q 'reproduced' "$out/summary.md"
EOT
test_expect_success 'the kept JSON rebuilds the report' - <<-\EOT
	mk "$TMPD/t.json" "$out" &&
	mk "$out/data/table.json" "$out" &&
	cmp "$TMPD/t.json" "$out/data/table.json" &&
	grep -q 'reproduced' "$out/summary.txt"
EOT
test_expect_success 'a JSON that is not the table is refused (exit 2)' - <<-\EOT
	echo '{"command": "run"}' >"$TMPD/run.json" &&
	rc=0 && mk "$TMPD/run.json" "$TMPD/bad" || rc=$?
	test_is "$rc" 2 &&
	grep -q 'is not the output of' "$TMPD/err"
EOT
# The prose: the published shared column as the fixture's TSV has it (834
# to 4148), never "they stay flat"; the legend names the 2016 CPU.
test_expect_success 'the text says the published shared column rises' - <<-\EOT
	grep -q 'the published shared column rises from 834 at 1 round to 4148 at 1000000 rounds' "$out/index.html" &&
	! grep -q 'stay flat' "$out/index.html" "$out/summary.md"
EOT
test_expect_success "the model's shared column, from its stored medians (840 to 1840 in the fixture)" - <<-\EOT
	grep -q 'its shared column ranges from 840 to 1840' "$out/index.html"
EOT
test_expect_success 'a JSON of another table than the stored runs is flagged' - <<-\EOT
	grep -q 'of its rows are not the medians of the stored model runs plotted here' "$out/index.html"
EOT
test_expect_success 'the legend: UltraSPARC T2 = Niagara 2' - <<-\EOT
	grep -q 'UltraSPARC T2 = Niagara 2' "$out/cover.svg" &&
	! grep -q 'normal (Niagara,' "$out/cover.svg"
EOT
test_done
