#!/bin/sh
# t0640: the performance team's journey, end to end, on SQLite and on one
# PostgreSQL server: two named machines (SGABENCH_MACHINE, with their own
# SGABENCH_TEST_FINGERPRINT) run scripts/nightly into one database for
# five nights each; machine A gets 4 times slower on night 4 (the run
# double's DOUBLE_SPEED, so no verdict rests on this machine's noise).
# Each night judges its own machine: "first night" per machine, only A's
# nightly exits 1 and names A, B's exits 0; compare --config by hand gives
# the nightly's verdict; history sees the 75 % drop over five nights on A
# alone, per night as per run. The server is reached through SGABENCH_DB
# alone, with no --db.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=scripts/t/pg-lib.sh
. "$(dirname "$0")/pg-lib.sh"

for tool in hyperfine sqlite3 flock jq; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "fleet journey: '$tool' not installed"
done
REAL_SGABENCH=$SGABENCH
SGABENCH_BIN=$FIXTURES/sgabench-run-fleet-double
export REAL_SGABENCH SGABENCH_BIN

# Two cells, 4 runs of each a night: 4 against 12 can reach p = 0.0005.
cat >"$TMPD/cfg" <<'EOF'
SWEEP_AXES="tasks"
SWEEP_TASKS="1 4"
SWEEP_PASSES=4
SWEEP_RUNS=1
SWEEP_WARMUP=0
SWEEP_METRICS="first-touch-faults accesses-per-cpu-s-best"
SWEEP_COMPARE_ARGS="--metric-threshold accesses-per-cpu-s-best=0.05"
SWEEP_BASELINE="last-7-nights"
EOF

# night ENGINE MACHINE DAY [SPEED]: machine MACHINE's nightly of
# nightly-202611DAY into ENGINE's database (sqlite: --db; pg: SGABENCH_DB
# alone), its runs SPEED times as fast; output in $TMPD/ENGINE.MACHINE.DAY,
# status in $nrc.
night() {
	mkdir -p "$TMPD/state.$1"
	fp=00000000000000a1
	[ "$2" = A ] || fp=00000000000000b2
	nrc=0
	if [ "$1" = pg ]; then
		SGABENCH_DB=$PG_URI SGABENCH_MACHINE=$2 SGABENCH_TEST_FINGERPRINT=$fp \
			DOUBLE_STATE=$TMPD/state.$1 DOUBLE_SPEED=${4:-1} \
			"$top/scripts/nightly" --seed 7 --label "nightly-202611$3" "$TMPD/cfg" \
			>"$TMPD/$1.$2.$3" 2>&1 || nrc=$?
	else
		SGABENCH_MACHINE=$2 SGABENCH_TEST_FINGERPRINT=$fp DOUBLE_STATE=$TMPD/state.$1 \
			DOUBLE_SPEED=${4:-1} "$top/scripts/nightly" --db "$TMPD/fleet.db" --seed 7 \
			--label "nightly-202611$3" "$TMPD/cfg" >"$TMPD/$1.$2.$3" 2>&1 || nrc=$?
	fi
}

# journey ENGINE: the five nights of both machines, the checks after each.
journey() {
	e=$1
	test_expect_success "$e: A's first night: exit 0, 'first night on machine 'A''" '
		night $e A 01 && test_is "$nrc" 0 &&
		grep -q "first night on machine .A.: no baseline yet" "$TMPD/$e.A.01"
	'
	test_expect_success "$e: B's first night is its own, though A has a night: exit 0" '
		night $e B 01 && test_is "$nrc" 0 &&
		grep -q "first night on machine .B.: no baseline yet" "$TMPD/$e.B.01"
	'
	test_expect_success "$e: night 2 of both: one night of baseline cannot judge, and each says so" '
		night $e A 02 && test_is "$nrc" 0 &&
		grep -q "^nightly: no regression on machine .A.$" "$TMPD/$e.A.02" &&
		night $e B 02 && test_is "$nrc" 0 &&
		grep -q "^no regression on B; 4 rows could resolve no change (too few runs); 4 rows insufficient$" "$TMPD/$e.B.02"
	'
	test_expect_success "$e: night 3 of both: no regression, and the smallest change each could see" '
		night $e A 03 && test_is "$nrc" 0 &&
		grep -q "^no regression on A; the smallest change each cell could resolve in these runs: [0-9.]* % to [0-9.]* %$" "$TMPD/$e.A.03" &&
		night $e B 03 && test_is "$nrc" 0 &&
		grep -q "^no regression on B; the smallest change each cell could resolve in these runs: [0-9.]* % to [0-9.]* %$" "$TMPD/$e.B.03"
	'
	test_expect_success "$e: night 4, A 4 times slower: A's nightly exits 1 and names A" '
		night $e A 04 0.25 && test_is "$nrc" 1 &&
		grep -q "^nightly: confirmed regression on machine .A.$" "$TMPD/$e.A.04" &&
		grep -q "^regression: machine A, tasks=1: accesses-per-cpu-s-best [34]\.[0-9][0-9] times slower (95 % CI" "$TMPD/$e.A.04" &&
		grep -q "^regression: machine A, tasks=4: accesses-per-cpu-s-best [34]\.[0-9][0-9] times slower (95 % CI" "$TMPD/$e.A.04" &&
		test_is "$(grep -c "^regression:" "$TMPD/$e.A.04")" 2
	'
	test_expect_success "$e: A compared tonight with its own three nights only" '
		grep -q "baseline  last-7-nights = nightly-20261103 nightly-20261102 nightly-20261101 (24 runs)" "$TMPD/$e.A.04" &&
		! grep -q "machine B\|on B" "$TMPD/$e.A.04"
	'
	test_expect_success "$e: B's night 4: exit 0, B alone, A's regression not B's" '
		night $e B 04 && test_is "$nrc" 0 &&
		grep -q "^nightly: no regression on machine .B.$" "$TMPD/$e.B.04" &&
		! grep -q "machine A\|regression:" "$TMPD/$e.B.04"
	'
	test_expect_success "$e: compare by hand, all machines: split by machine, A flagged, B not" '
		if [ $e = pg ]; then db=$PG_URI; else db=$TMPD/fleet.db; fi &&
		rc=0 && "$SGABENCH" compare --db "$db" --baseline last-3-nights --candidate tonight \
			--config "$TMPD/cfg" >"$TMPD/$e.all" 2>&1 || rc=$? &&
		test_is "$rc" 1 &&
		test_is "$(grep -c "^regression: machine A" "$TMPD/$e.all")" 2 &&
		"$SGABENCH" compare --db "$db" --baseline last-3-nights --candidate tonight --config "$TMPD/cfg" \
			--machine A --metric accesses-per-cpu-s-best --json >"$TMPD/$e.json" || test $? -eq 1 &&
		test_is "$(jq -r "[.rows[] | select(.metric == \"accesses-per-cpu-s-best\") |
			.ratio > 0.2378 and .ratio < 0.2628 and .machine_name == \"A\"] | join(\" \")" "$TMPD/$e.json")" "true true" &&
		test_is "$(jq -r "[.headlines[] | test(\"^regression: machine A, tasks=[14]: accesses-per-cpu-s-best [34][.][0-9]{2} times slower\")] | join(\" \")" "$TMPD/$e.json")" "true true" &&
		grep -q "^no regression on B;" "$TMPD/$e.all" &&
		grep -q "^baseline  last-3-nights = A: nightly-20261103 nightly-20261102 nightly-20261101; B: " "$TMPD/$e.all"
	'
	test_expect_success "$e: the nightly printed the compare it ran; by hand it gives the same verdict" '
		cmd=$(sed -n "s/^nightly: .* compare --db [^ ]* \(--machine A .*\) --store-verdicts$/\1/p" "$TMPD/$e.A.04") &&
		test -n "$cmd" &&
		if [ $e = pg ]; then db=$PG_URI; else db=$TMPD/fleet.db; fi &&
		rc=0 && eval "\"\$SGABENCH\" compare --db \"\$db\" $cmd" >"$TMPD/$e.hand" 2>&1 || rc=$? &&
		test_is "$rc" 1 &&
		test_is "$(grep "^regression:" "$TMPD/$e.hand")" "$(grep "^regression:" "$TMPD/$e.A.04")"
	'
	test_expect_success "$e: night 5, A still slow: five nights with a 75 % drop from night 4" '
		night $e A 05 0.25 && test "$nrc" -le 1 && night $e B 05 && test_is "$nrc" 0
	'
	test_expect_success "$e: history per night finds the step on A, at night 4, and none on B" '
		if [ $e = pg ]; then db=$PG_URI; else db=$TMPD/fleet.db; fi &&
		"$SGABENCH" history --db "$db" --metric accesses-per-cpu-s-best --json >"$TMPD/$e.hist" &&
		test_is "$(jq -r "[.series[] | select(.machine_name == \"A\") | .points | length] | join(\" \")" "$TMPD/$e.hist")" "5 5" &&
		test_is "$(jq -r "[.change_points[] | \"\(.machine_name) \(.label)\"] | join(\", \")" "$TMPD/$e.hist")" \
			"A nightly-20261104, A nightly-20261104" &&
		test_is "$(jq -r "[.change_points[] | .change > -0.77 and .change < -0.73] | join(\" \")" "$TMPD/$e.hist")" "true true"
	'
	test_expect_success "$e: history per run agrees; --machine B shows no step" '
		"$SGABENCH" history --db "$db" --metric accesses-per-cpu-s-best --per-run --machine A --json >"$TMPD/$e.hist" &&
		test_is "$(jq -r "[.change_points[] | .change > -0.77 and .change < -0.73] | join(\" \")" "$TMPD/$e.hist")" "true true" &&
		"$SGABENCH" history --db "$db" --metric accesses-per-cpu-s-best --machine B >"$TMPD/$e.histB" &&
		test_is "$(grep -c "^0 change points" "$TMPD/$e.histB")" 2 &&
		grep -q "^machine B (fingerprint 00000000000000b2)" "$TMPD/$e.histB"
	'
	test_expect_success "$e: runs and the stored verdicts name the machine" '
		"$SGABENCH" runs --db "$db" --machine B --limit 1000 --json >"$TMPD/$e.runs" &&
		test_is "$(jq -r ".tool, (.runs | length), ([.runs[].machine] | unique | join(\",\"))" "$TMPD/$e.runs" | tr "\n" " ")" "sgabench 40 B " &&
		"$SGABENCH" db query --db "$db" latest-verdicts >/dev/null
	'
}

journey sqlite
test_expect_success "sqlite: verdicts are stored with their machine's name" - <<-\EOT
	test_is "$(sqlite3 "$TMPD/fleet.db" "SELECT group_concat(n, ' ') FROM (SELECT machine_name || ':' || COUNT(*) AS n
		FROM verdict WHERE candidate = 'label:nightly-20261104' GROUP BY machine_name ORDER BY machine_name)")" "A:4 B:4" &&
	test_is "$(sqlite3 "$TMPD/fleet.db" "SELECT machine_name || ' ' || metric FROM verdict
		WHERE candidate = 'label:nightly-20261104' AND verdict = 'regression' ORDER BY cell")" "A accesses-per-cpu-s-best
A accesses-per-cpu-s-best"
EOT

test_prereq_if PG "a PostgreSQL server: \$pg_why" pg_start
if test_have_prereq PG; then
	journey pg
else
	test_expect_success PG "pg: the journey on a PostgreSQL server" 'false'
fi
test_done
