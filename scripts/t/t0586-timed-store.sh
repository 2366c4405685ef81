#!/bin/sh
# t0586: the timed engine's figures are run metrics (lib/metrics.h): with
# --timing, `sim --json` and the stored run (show --json) give the same
# model-cycles, model-stall-cycles, model-ticks, model-tick-* and
# model-merged-walks, and they obey the engine's physics (one strand:
# cycles = accesses x A + walks x W; ticks = floor(cycles x hz / cpu_hz);
# one walk a shared page with --inflight wait); without --timing none of
# them exists. `table --timing` runs every cell the same way: a cell of it
# is the matching `sim --timing` run, and its verdict says what differs.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

db="$TMPD/t.db"
new="model-cycles model-stall-cycles model-ticks model-tick-accesses model-tick-misses model-tick-walks
model-merged-walks"
# metric FILE NAME: run metric NAME of a run's JSON (sim --json, show --json)
metric() { jq -r --arg n "$2" '.metrics[$n]' "$1"; }
# stored ID FILE: show --json of stored run ID into FILE
stored() { "$SGABENCH" show "$1" --db "$db" --json >"$2"; }
# last_id: the id of the run stored last
last_id() { "$SGABENCH" runs --db "$db" --json --limit 1 | jq '.runs[0].run_id'; }

# one task on one strand, random over 200 pages of 4 MiB: the DTLB (128)
# misses often; access 2 cycles, walk 25
one="--tasks 1 --pattern random --working-set 800m --rounds 30 --timing --access-cycles 2 --walk-cycles 25"
# shellcheck disable=SC2086 # $one is a list of arguments
"$SGABENCH" sim $one --db "$db" --json >"$TMPD/one.json" 2>"$TMPD/one.err"
stored "$(last_id)" "$TMPD/one.show"
test_expect_success "one strand: cycles = accesses x 2 + walks x 25, stalls = walks x 25" - <<-\EOT
	acc=$(jq '.tasks[0].accesses' "$TMPD/one.json") &&
	test_is "$(metric "$TMPD/one.json" model-accesses)" "$acc" &&
	walks=$(jq '.totals["dtlb-walks"]' "$TMPD/one.json") &&
	test_is "$acc" 6000 &&
	test "$walks" -gt 200 &&
	test_is "$(metric "$TMPD/one.json" model-cycles)" $((acc * 2 + walks * 25)) &&
	test_is "$(metric "$TMPD/one.json" model-stall-cycles)" $((walks * 25)) &&
	test_is "$(metric "$TMPD/one.json" model-ticks)" 0 &&
	test_is "$(metric "$TMPD/one.json" model-merged-walks)" 0
EOT

test_expect_success "the stored run and the stderr line give the --json figures" - <<-\EOT
	for m in $new; do
		v=$(metric "$TMPD/one.json" "$m") &&
		test "$v" != null &&
		test_is "$(metric "$TMPD/one.show" "$m")" "$v" || return 1
	done &&
	grep -q "timing: $(metric "$TMPD/one.json" model-cycles) cycles" "$TMPD/one.err" &&
	grep -q "stall cycles $(metric "$TMPD/one.json" model-stall-cycles)\$" "$TMPD/one.err"
EOT

# T2 at 1.4 GHz, one strand: a tick every 1.4e9 / 1000 cycles, 4 kernel pages each
# shellcheck disable=SC2086
"$SGABENCH" sim $one --rounds 20000 --hz 1000 --tick-entries 4 --db "$db" --json >"$TMPD/tick.json" 2>/dev/null
stored "$(last_id)" "$TMPD/tick.show"
test_expect_success "stored ticks = floor(cycles x hz / cpu_hz), K kernel accesses each" - <<-\EOT
	cycles=$(metric "$TMPD/tick.show" model-cycles) &&
	ticks=$(metric "$TMPD/tick.show" model-ticks) &&
	test "$ticks" -gt 2 &&
	test_is "$ticks" $((cycles * 1000 / 1400000000)) &&
	test_is "$(metric "$TMPD/tick.show" model-tick-accesses)" $((ticks * 4)) &&
	misses=$(metric "$TMPD/tick.show" model-tick-misses) &&
	test "$misses" -le $((ticks * 4)) &&
	test "$(metric "$TMPD/tick.show" model-tick-walks)" -le "$misses" &&
	for m in $new; do
		test_is "$(metric "$TMPD/tick.show" "$m")" "$(metric "$TMPD/tick.json" "$m")" || return 1
	done
EOT

# two lockstep strands on the same 69 shared pages: the second one's
# lookup comes while the first one's walk is in flight
"$SGABENCH" sim --tasks 2 --sharedctx --rounds 20 --timing --inflight wait --db "$db" --json \
	>"$TMPD/wait.json" 2>/dev/null
stored "$(last_id)" "$TMPD/wait.show"
test_expect_success "--inflight wait: 69 merged walks, stored as given" - <<-\EOT
	test_is "$(jq '.totals["dtlb-walks"]' "$TMPD/wait.json")" 69 &&
	test_is "$(metric "$TMPD/wait.json" model-merged-walks)" 69 &&
	test_is "$(metric "$TMPD/wait.show" model-merged-walks)" 69
EOT

"$SGABENCH" sim --tasks 2 --rounds 20 --db "$db" --json >"$TMPD/plain.json" 2>"$TMPD/plain.err"
stored "$(last_id)" "$TMPD/plain.show"
test_expect_success "without --timing: none of them, neither in --json nor stored" - <<-\EOT
	test "$(jq '.metrics | length' "$TMPD/plain.show")" -gt 5 &&
	for m in $new; do
		! grep -q "\"$m\"" "$TMPD/plain.json" &&
		! grep -q "\"$m\"" "$TMPD/plain.show" || return 1
	done &&
	! grep -q "timing:" "$TMPD/plain.err"
EOT

test_expect_success "sgabench metrics lists them" - <<-\EOT
	"$SGABENCH" metrics --json >"$TMPD/metrics.json" &&
	for m in $new; do
		jq -e --arg n "$m" '[.. | objects | select(.name? == $n)] | length == 1' \
			"$TMPD/metrics.json" >/dev/null || return 1
	done
EOT

# the table on 2 pages per task, one seed: every cell's run is timed and stored
tdb="$TMPD/table.db"
targs="--backend model --timing --hz 10000 --tick-entries 8 --working-set 8m --startup 0 --seeds 1"
rc=0
# shellcheck disable=SC2086
"$SGABENCH" table $targs --db "$tdb" >"$TMPD/table.out" 2>"$TMPD/table.err" || rc=$?
# shellcheck disable=SC2086
"$SGABENCH" table $targs --no-store --json >"$TMPD/table.json" 2>/dev/null || true
test_expect_success "table --timing: a verdict that says what differs (2 pages are far off), exit 1" - <<-\EOT
	test_is "$rc" 1 &&
	grep -q "^verdict: NOT reproduced" "$TMPD/table.out" &&
	grep -q "normal at 1000000 rounds 4 is 0.00x the published 97941327" "$TMPD/table.out" &&
	test_is "$(jq .reproduced "$TMPD/table.json")" false &&
	test_is "$(jq .jitter "$TMPD/table.json")" 0 &&
	test_is "$("$SGABENCH" runs --db "$tdb" --json --limit 100 | jq '.runs | length')" 14
EOT

# the table's normal cell at 1,000,000 rounds, as one sim run
"$SGABENCH" sim --timing --hz 10000 --tick-entries 8 --working-set 8m --startup 0 --rounds 1000000 \
	--no-store --json >"$TMPD/cell.json" 2>/dev/null
test_expect_success "a table cell is the matching sim --timing run: cell, misses, timing" - <<-\EOT
	"$SGABENCH" runs --db "$tdb" --json --limit 100 >"$TMPD/truns.json" &&
	id=$(jq --arg c "$(jq -r .cell "$TMPD/cell.json")" '[.runs[] | select(.cell == $c)] | .[0].run_id' \
		"$TMPD/truns.json") &&
	test "$id" != null &&
	"$SGABENCH" show "$id" --db "$tdb" --json >"$TMPD/tcell.json" &&
	test_is "$(jq '.totals["dTLB-load-misses"]' "$TMPD/tcell.json")" \
		"$(jq '.totals["dTLB-load-misses"]' "$TMPD/cell.json")" &&
	for m in $new; do
		test_is "$(metric "$TMPD/tcell.json" "$m")" "$(metric "$TMPD/cell.json" "$m")" &&
		test_is "$(jq -r --arg n "$m" '.timing.normal[$n]' "$TMPD/table.json")" \
			"$(metric "$TMPD/cell.json" "$m")" || return 1
	done &&
	test "$(metric "$TMPD/cell.json" model-ticks)" -gt 0
EOT

# every row's timed cells are its stored runs' metrics, the last row's also
# the top-level "timing"; an untimed table has no row timing
test_expect_success "table --timing --json: each row's cells are their stored runs" - <<-\EOT
	test_is "$(jq '[.rows[] | select(.timing.normal and .timing.shared)] | length' "$TMPD/table.json")" 7 &&
	test_is "$(jq -c '.rows[-1].timing' "$TMPD/table.json")" \
		"$(jq -c '.timing | {normal, shared}' "$TMPD/table.json")" &&
	for i in 0 1 2 3 4 5 6; do
		r=$(jq ".rows[$i].rounds" "$TMPD/table.json") &&
		for col in normal shared; do
			case $col in normal) sc=0 ;; *) sc=1 ;; esac &&
			id=$(jq --argjson r "$r" --argjson sc "$sc" \
				'[.runs[] | select(.cell | split(" ") | index(["rounds=\($r)"]) and
				index(["sharedctx=\($sc)"]))] | .[0].run_id' "$TMPD/truns.json") &&
			test "$id" != null &&
			"$SGABENCH" show "$id" --db "$tdb" --json >"$TMPD/rcell.json" &&
			for m in $new; do
				test_is "$(jq -r --arg n "$m" --arg c "$col" ".rows[$i].timing[\$c][\$n]" "$TMPD/table.json")" \
					"$(metric "$TMPD/rcell.json" "$m")" || return 1
			done || return 1
		done || return 1
	done &&
	"$SGABENCH" table --backend model --working-set 8m --startup 0 --seeds 1 --no-store --json \
		>"$TMPD/untimed.json" 2>/dev/null;
	test_is "$(jq '[.rows[] | select(has("timing"))] | length' "$TMPD/untimed.json")" 0 &&
	test_is "$(jq .timing "$TMPD/untimed.json")" null
EOT

test_expect_success "table refuses with exit 2 what sim refuses, before any run" - <<-\EOT
	refuse 2 "jitter must be 0" table --backend model --timing --jitter 16 --no-store &&
	refuse 2 "need --timing" table --backend model --hz 100 --no-store &&
	refuse 2 "needs --hz" table --backend model --timing --tick-entries 3 --no-store &&
	refuse 2 "access-cycles '0': out of range 1..1048576" sim --timing --access-cycles 0 --rounds 1 --no-store
EOT
test_expect_success "table --backend native refuses the model's knobs (exit 2), never drops them" - <<-\EOT
	for a in --timing "--hz 100" "--tick-entries 3" "--access-cycles 2" "--inflight wait" \
		"--walk-cycles 30" "--jitter 16"; do
		# shellcheck disable=SC2086 # an option and its value
		refuse 2 "table: ${a%% *} is the model's: not with --backend native" table --backend native $a \
			--no-store || return 1
	done &&
	refuse 2 "table: --timing, --hz and --jitter are the model's" \
		table --backend native --jitter 3 --hz 5 --timing --no-store
EOT
# an option given at its default changes nothing, so it is not refused:
# the table goes on to say the native backend is missing here (exit 3)
test_expect_success NO_PMU "table --backend native --inflight walk (the default) is not a model knob" '
	rc=0; "$SGABENCH" table --backend native --inflight walk --walk-cycles -1 --no-store 2>"$TMPD/err" ||
		rc=$?;
	test_is "$rc" 3 && grep -q "native backend is not available" "$TMPD/err" &&
	! grep -q "the model" "$TMPD/err"
'

test_done
