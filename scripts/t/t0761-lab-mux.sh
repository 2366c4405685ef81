#!/bin/sh
# t0761: scripts/lab/mux without a guest: its usage errors, and its table
# over rows made here (--rows), whose exact counts, estimates, rotations
# and verdicts are chosen so that every figure of the table is known:
# each estimate's error against the exact count of its window and kind,
# the worst per window, the error by rotations, where the 1 % and 5 %
# lines fall, and the checks of the contract (the exact runs exact, every
# estimate scaled or few-rotations with rotations > 0 and few-rotations
# exactly under the line, cycles equal to instructions, and instructions
# linear in rounds), each of which fails the script when broken.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

mux() {
	rc=0
	sh "$top/scripts/lab/mux" "$@" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
}
mux --bogus
test_expect_success "an unknown argument is a usage error" 'test_is "$rc" 2'
mux --passes 0
test_expect_success "--passes 0 is a usage error" 'test_is "$rc" 2 && grep -q "not a positive whole number" "$TMPD/err"'
mux --rows "$TMPD/nosuch"
test_expect_success "a rows file that is not there: exit 3" 'test_is "$rc" 3'
: >"$TMPD/empty"
mux --help
test_expect_success "--help prints the usage" 'test_is "$rc" 0 && grep -q "^usage: scripts/lab/mux" "$TMPD/out"'

# row EVENTS ROUNDS EVENT KIND VALUE ROTATIONS TRUST: one row as
# --print-rows prints it (enabled, running, window and the line fixed).
row() {
	printf '%s\t%s\t%s\t%s\t%s\t1000\t700\t%s\t%s\t%s\t10\n' "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$(($2 * 7000))"
}
# The exact counts: 500 + 7000 x rounds, cycles equal instructions.
# The estimates (4 events, the line 10 rotations), against them:
#   100 rounds    +20 % (0.5 rot), -3 % (0.6), r8 missing, +0.5 % (0.7)
#   1000 rounds   +2 % (5), -0.8 % (5.5), 0 (4), 0 (4.5)
#   10000 rounds  +0.1 % (50) four times
{
	for r in 100 1000 10000; do
		row 2 "$r" instructions instructions $((500 + 7000 * r)) 0.9 exact
		row 2 "$r" cycles cycles $((500 + 7000 * r)) 0.9 exact
	done
	row 4 100 instructions instructions 840600 0.5 few-rotations
	row 4 100 cycles cycles 679485 0.6 few-rotations
	row 4 100 r8 instructions - - -
	row 4 100 r11 cycles 704003 0.7 few-rotations
	row 4 1000 instructions instructions 7140510 5 few-rotations
	row 4 1000 cycles cycles 6944496 5.5 few-rotations
	row 4 1000 r8 instructions 7000500 4 few-rotations
	row 4 1000 r11 cycles 7000500 4.5 few-rotations
	for e in instructions:instructions cycles:cycles r8:instructions r11:cycles; do
		row 4 10000 "${e%:*}" "${e#*:}" 70070501 50 scaled
	done
} >"$TMPD/rows"
mux --rows "$TMPD/rows"
cp "$TMPD/out" "$TMPD/table"
test_expect_success "the table of consistent rows: exit 0" 'test_is "$rc" 0'
test_expect_success "100 rounds: exact counts, 0.5-0.7 rotations, the worst errors, 1 missing" - <<-\EOT
	grep -q '^100  *0\.70 ms  *700500  *700500  *0\.50-0\.70  *few-rotations  *20\.00 %  *-3\.00 %  *4 (1 missing)$' "$TMPD/table"
EOT
test_expect_success "1000 rounds: 4-5.5 rotations, +2 % and -0.8 % at worst" - <<-\EOT
	grep -q '^1000  *7\.00 ms  *7000500  *7000500  *4\.00-5\.50  *few-rotations  *2\.00 %  *-0\.80 %  *4$' "$TMPD/table"
EOT
test_expect_success "10000 rounds: 50 rotations, scaled, +0.1 %" - <<-\EOT
	grep -q '^10000  *70\.00 ms  *70000500  *70000500  *50\.00-50\.00  *scaled  *0\.10 %  *0\.10 %  *4$' "$TMPD/table"
EOT
test_expect_success "the exact instructions: 7000 more every round" - <<-\EOT
	grep -q '^exact instructions per round, between consecutive windows: 7000\.00 to 7000\.00 (0\.00 % apart)' "$TMPD/table"
EOT
test_expect_success "the error by rotations: medians and maxima of each band" - <<-\EOT
	grep -q '^\[0, 1)  *3  *3\.00 %  *20\.00 %$' "$TMPD/table" &&
	grep -q '^\[3, 10)  *4  *0\.40 %  *2\.00 %$' "$TMPD/table" &&
	grep -q '^\[30, 100)  *4  *0\.10 %  *0\.10 %$' "$TMPD/table" &&
	! grep -q '^\[1, 3)' "$TMPD/table"
EOT
test_expect_success "the 1 % line falls at 5 rotations, the 5 % line at 0.5" - <<-\EOT
	grep -q '^error over 1\.00 %: up to 5\.00 rotations; every estimate over more is within it$' "$TMPD/table" &&
	grep -q '^error over 5\.00 %: up to 0\.50 rotations;' "$TMPD/table"
EOT
test_expect_success "11 estimates of 3 windows, and the line sgabench draws" - <<-\EOT
	grep -q '^11 estimates of 3 windows; sgabench trusts them from 10 rotations$' "$TMPD/table"
EOT
test_expect_success "no check failed" '! grep -q "^not ok" "$TMPD/table"'

# Each broken promise fails the script, and says which.
broken() {
	sed "$1" "$TMPD/rows" >"$TMPD/bad"
	mux --rows "$TMPD/bad"
}
broken '/^4	10000	r8	/s/scaled/few-rotations/'
test_expect_success "few-rotations over 50 rotations: not ok, exit 1" - <<-\EOT
	test_is "$rc" 1 && grep -q '^not ok - r8 at 10000 rounds: 50 rotations but few-rotations (the line is 10)$' "$TMPD/out"
EOT
broken '/^4	1000	r11	/s/few-rotations/scaled/'
test_expect_success "scaled under the line: not ok" 'test_is "$rc" 1 && grep -q "^not ok - r11 at 1000 rounds: 4.5 rotations but scaled" "$TMPD/out"'
broken '/^4	100	cycles	/s/few-rotations/exact/'
test_expect_success "an over-committed event that says exact: not ok" 'test_is "$rc" 1 && grep -q "^not ok - cycles at 100 rounds, with 4 events, says exact" "$TMPD/out"'
broken '/^4	1000	r8	/s/	4	few/	0	few/'
test_expect_success "an estimate over 0 rotations: not ok" 'test_is "$rc" 1 && grep -q "^not ok - r8 at 1000 rounds: rotations 0, not > 0" "$TMPD/out"'
broken '/^2	1000	cycles	/s/7000500/7000501/'
test_expect_success "exact cycles other than the instructions: not ok" 'test_is "$rc" 1 && grep -q "^not ok - exact cycles 7000501 differ from instructions 7000500 at 1000 rounds" "$TMPD/out"'
broken '/^2	1000	/s/7000500/7100500/'
test_expect_success "instructions off the line by over 0.1 %: not ok" 'test_is "$rc" 1 && grep -q "^not ok - the exact instructions are not linear in rounds: 6988.89 to 7111.11 a round" "$TMPD/out"'
# An event of the over-committed run that stayed on a counter the whole
# window (running = enabled) is exact, not an estimate.
broken '/^4	100	cycles	/s/1000	700	0.6	few-rotations/1000	1000	0.6	exact/'
test_expect_success "an over-committed event on a counter throughout: exact, accepted" - <<-\EOT
	test_is "$rc" 0 &&
	grep -q '^100  *0\.70 ms .* 0\.50-0\.70  *few-rotations  *20\.00 %  *0\.50 %  *4 (1 missing, 1 exact)$' "$TMPD/out"
EOT
broken '/^2	100	/d'
test_expect_success "a window without an exact run: not ok" 'test_is "$rc" 1 && grep -q "^not ok - no exact run of 100 rounds" "$TMPD/out"'
mux --rows "$TMPD/empty"
test_expect_success "no rows: exit 1, said" 'test_is "$rc" 1 && grep -q "no lab-mux run to tabulate" "$TMPD/err"'

# --console: the rows of the runs a kept console names, their counts from
# the database and their verdicts from its LAB MUX lines (as a guest
# prints them). A run of this machine, two software
# events (kind "other"), and a console written as a guest writes it.
mux --console "$TMPD/empty"
test_expect_success "--console without --db is a usage error" 'test_is "$rc" 2 && grep -q "needs --db" "$TMPD/err"'
mux --console "$TMPD/empty" --rows "$TMPD/rows"
test_expect_success "--console and --rows exclude each other" 'test_is "$rc" 2'
command -v jq >/dev/null 2>&1 && test_set_prereq JQ
run_sga run --tasks 1 --sga-size 4m --page-size 4k --rounds 10 --events task-clock,page-faults \
	--db "$TMPD/m.db" --json
u=$(json '$.uuid')
{
	echo "LAB PMU enabled with some PMU driver, 7 counters available"
	echo "LAB RUN $u 0.05 events=task-clock,page-faults rounds=10"
	echo "LAB MUX $u 4 task-clock 12.5 scaled"
	echo "LAB MUX $u 4 page-faults null exact"
} >"$TMPD/console"
want1=$(printf '2\t10\ttask-clock\tother\t%s\t%s\t%s\t12.5\tscaled\t%s\t10' "$(json '$.tasks[0].events.task-clock.value')" \
	"$(json '$.tasks[0].events.task-clock.enabled_ns')" "$(json '$.tasks[0].events.task-clock.running_ns')" "$(json '$.tasks[0].window_ns')")
want2=$(printf '2\t10\tpage-faults\tother\t%s\t%s\t%s\t-\texact\t%s\t10' "$(json '$.tasks[0].events.page-faults.value')" \
	"$(json '$.tasks[0].events.page-faults.enabled_ns')" "$(json '$.tasks[0].events.page-faults.running_ns')" "$(json '$.tasks[0].window_ns')")
mux --console "$TMPD/console" --db "$TMPD/m.db" --print-rows
test_expect_success JQ "--console: one row an event, counts from the database, verdicts from the console" - <<-\EOT
	test_is "$rc" 0 && test_is "$(cat "$TMPD/out")" "$want1
$want2"
EOT
mux --console "$TMPD/console" --db "$TMPD/m.db"
test_expect_success JQ "no instructions or cycles to judge: no exact reference, said, exit 1" - <<-\EOT
	test_is "$rc" 1 && grep -q "^not ok - no exact run of 10 rounds" "$TMPD/out" &&
	grep -q "^# enabled with some PMU driver, 7 counters available" "$TMPD/out"
EOT
test_done
