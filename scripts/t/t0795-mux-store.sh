#!/bin/sh
# t0795: a stored run keeps the multiplexing interval it read (schema 7:
# run.mux_interval_ms, or NULL and run.mux_interval_missing with why), so
# show --json gives the multiplexing object run --json gave: the interval,
# each event's rotations and verdict. Through db merge too. A database of
# schema 6 (fixtures/mux-v6.sql) is read as it is with the interval
# unknown and "not-recorded", never a made-up one; it merges so, and it
# migrates on the next store with its runs so.
# This host has no PMU and software events are never multiplexed: the
# test knob SGABENCH_TEST_MUX_INTERVAL stands for the PMU's sysfs file,
# and a multiplexed reading is written over a stored task-clock reading
# (enabled 200 ms, running 60 ms: 30 %, 15 rotations of 4 ms) so that
# show has a scaled estimate to judge. 4 KiB pages: no hugepages.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
db=$TMPD/m.db
schema=$("$SGABENCH" db schema --json | jq -r .schema_version)
echo 4 >"$TMPD/interval"

# mux_run DB LABEL [ARGS]: a small native run, the interval from the knob's file; sets rc
mux_run() {
	mux_db=$1 mux_label=$2
	shift 2
	rc=0
	SGABENCH_TEST_MUX_INTERVAL=$TMPD/interval "$SGABENCH" run --sga-size 16m --rounds 1 --tasks 2 \
		--page-size 4k --events page-faults,task-clock --db "$mux_db" --label "$mux_label" "$@" \
		>"$TMPD/run.out" 2>"$TMPD/run.err" || rc=$?
}

# q [DB] SQL: one value from $db (or DB)
q() {
	if [ $# -eq 2 ]; then sqlite3 "$1" "$2"; else sqlite3 "$db" "$1"; fi
}

# mux FILE: the multiplexing object of a JSON output, keys sorted
mux() { jq -S -c .multiplexing "$1"; }

mux_run "$db" known --json
cp "$TMPD/run.out" "$TMPD/known.json"
uuid=$(jq -r .uuid "$TMPD/known.json")
test_expect_success "a run with a 4 ms interval: the interval in its JSON, no reason" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(jq -r '.multiplexing | "\(.interval_ms) \(.interval_missing)"' "$TMPD/known.json")" "4 null"
EOT
test_expect_success "each event's rotations: its least running time over 4 ms" - <<-\EOT
	bad=0 &&
	for e in page-faults task-clock; do
		want=$(jq -r --arg e "$e" '[.tasks[].events[$e].running_ns] | min / 4000000' "$TMPD/known.json") &&
		got=$(jq -r --arg e "$e" '.multiplexing.events[$e].rotations' "$TMPD/known.json") &&
		awk -v a="$got" -v b="$want" 'BEGIN { exit !(a > 0 && (a - b) ^ 2 < 1e-18) }' ||
			{ echo "$e: rotations $got, want $want"; bad=1; }
	done &&
	test_is "$bad" 0
EOT
test_expect_success "the database keeps the interval, no reason" - <<-\EOT
	test_is "$(q "SELECT mux_interval_ms || ' ' || COALESCE(mux_interval_missing, 'NULL') FROM run WHERE uuid = '$uuid'")" "4.0 NULL"
EOT
run_sga show "$uuid" --db "$db" --json
test_expect_success "show --json gives the multiplexing object run --json gave" - <<-\EOT
	test_is "$rc" 0 && test_is "$(mux "$TMPD/out")" "$(mux "$TMPD/known.json")"
EOT

# The interval unknown: each reason stored, and shown as the run said it.
echo 0 >"$TMPD/zero"
rc=0
SGABENCH_TEST_MUX_INTERVAL=$TMPD/zero "$SGABENCH" run --sga-size 16m --rounds 1 --tasks 1 --page-size 4k \
	--events task-clock --db "$db" --label zero --json >"$TMPD/zero.json" 2>"$TMPD/run.err" || rc=$?
test_expect_success "an interval file that says 0: unknown, unreadable, stored and shown so" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(jq -r '.multiplexing | "\(.interval_ms) \(.interval_missing)"' "$TMPD/zero.json")" "null unreadable" &&
	test_is "$(q "SELECT COALESCE(mux_interval_ms, 'NULL') || ' ' || mux_interval_missing FROM run WHERE label = 'zero'")" "NULL unreadable" &&
	run_sga show "$(jq -r .uuid "$TMPD/zero.json")" --db "$db" --json && test_is "$rc" 0 &&
	test_is "$(mux "$TMPD/out")" "$(mux "$TMPD/zero.json")"
EOT
rc=0
"$SGABENCH" run --sga-size 16m --rounds 1 --tasks 1 --page-size 4k --events task-clock --db "$db" \
	--label nopmu --json >"$TMPD/nopmu.json" 2>"$TMPD/run.err" || rc=$?
test_expect_success NO_PMU "no core PMU: unknown, no-pmu, stored and shown so" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(jq -r '.multiplexing | "\(.interval_ms) \(.interval_missing)"' "$TMPD/nopmu.json")" "null no-pmu" &&
	test_is "$(q "SELECT COALESCE(mux_interval_ms, 'NULL') || ' ' || mux_interval_missing FROM run WHERE label = 'nopmu'")" "NULL no-pmu" &&
	run_sga show "$(jq -r .uuid "$TMPD/nopmu.json")" --db "$db" --json && test_is "$rc" 0 &&
	test_is "$(mux "$TMPD/out")" "$(mux "$TMPD/nopmu.json")"
EOT
rc=0
"$SGABENCH" sim --tasks 2 --rounds 2 --db "$db" --label model --json >"$TMPD/model.json" 2>"$TMPD/run.err" || rc=$?
test_expect_success "the model: no PMU simulated, not-modelled, stored and shown so" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(q "SELECT COALESCE(mux_interval_ms, 'NULL') || ' ' || mux_interval_missing FROM run WHERE label = 'model'")" "NULL not-modelled" &&
	run_sga show "$(jq -r .uuid "$TMPD/model.json")" --db "$db" --json && test_is "$rc" 0 &&
	test_is "$(mux "$TMPD/out")" "$(mux "$TMPD/model.json")" &&
	test_is "$(jq -r .multiplexing.interval_missing "$TMPD/out")" not-modelled
EOT

# A multiplexed reading in place of task 0's task-clock (see the head).
sqlite3 "$db" "UPDATE value SET enabled = 200000000, running = 60000000, value = raw * 200.0 / 60
	WHERE event = 'task-clock' AND task = 0 AND run_id = (SELECT id FROM run WHERE uuid = '$uuid')"
run_sga show "$uuid" --db "$db" --json
cp "$TMPD/out" "$TMPD/scaled.json"
test_expect_success "a stored scaled estimate: 30 % over 15 rotations of the stored 4 ms, trusted" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(jq -r '.multiplexing.events["task-clock"] | "\(.running_ratio) \(.rotations) \(.trust)"' "$TMPD/scaled.json")" \
		"0.3 15 scaled"
EOT
run_sga show "$uuid" --db "$db"
test_expect_success "show's text says so" 'grep -q "multiplexed: counted 30% of the time, scaled, 15 rotations" "$TMPD/out"'

# db merge carries the interval and its reasons.
run_sga db merge "$db" -o "$TMPD/merged.db"
test_expect_success "merged: every run's interval and reason as stored" - <<-\EOT
	test_is "$rc" 0 &&
	sql="SELECT uuid || ' ' || COALESCE(mux_interval_ms, 'NULL') || ' ' || COALESCE(mux_interval_missing, 'NULL') FROM run ORDER BY uuid" &&
	test_is "$(q "$TMPD/merged.db" "$sql")" "$(q "$sql")" &&
	test "$(q "SELECT COUNT(*) FROM run")" -ge 3
EOT
run_sga show "$uuid" --db "$TMPD/merged.db" --json
test_expect_success "and the merged run shows the same multiplexing object" - <<-\EOT
	test_is "$rc" 0 && test_is "$(mux "$TMPD/out")" "$(mux "$TMPD/scaled.json")"
EOT

# A schema 6 database: the same runs as an sgabench before schema 7 stored them.
cp "$db" "$TMPD/v6.db"
sqlite3 "$TMPD/v6.db" <"$top/scripts/t/fixtures/boot-v7.sql"
sqlite3 "$TMPD/v6.db" <"$top/scripts/t/fixtures/mux-v6.sql"
sqlite3 "$TMPD/v6.db" "PRAGMA user_version = 6"
run_sga show "$uuid" --db "$TMPD/v6.db" --json
test_expect_success "schema 6 read as it is: interval unknown, not-recorded; the scaled estimate unknown" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(jq -r '.multiplexing | "\(.interval_ms) \(.interval_missing)"' "$TMPD/out")" "null not-recorded" &&
	test_is "$(jq -r '.multiplexing.events["task-clock"] | "\(.running_ratio) \(.rotations) \(.trust)"' "$TMPD/out")" \
		"0.3 null unknown" &&
	test_is "$(jq -r '.multiplexing.events["page-faults"] | "\(.rotations) \(.trust)"' "$TMPD/out")" "null exact" &&
	test_is "$(q "$TMPD/v6.db" "PRAGMA user_version")" 6
EOT
run_sga show "$uuid" --db "$TMPD/v6.db"
test_expect_success "show's text gives the reason" - <<-\EOT
	grep -q "multiplexed: counted 30% of the time, scaled, rotations unknown (no multiplexing interval: not-recorded)" "$TMPD/out"
EOT
run_sga db merge "$TMPD/v6.db" -o "$TMPD/from-v6.db"
test_expect_success "a schema 6 file merges: every run's interval NULL, not-recorded" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(q "$TMPD/from-v6.db" "SELECT COUNT(*) || ' ' || COUNT(mux_interval_ms) || ' ' || group_concat(DISTINCT mux_interval_missing) FROM run")" \
		"$(q "SELECT COUNT(*) FROM run") 0 not-recorded"
EOT
mux_run "$TMPD/v6.db" after --json
test_expect_success "storing into the schema 6 file migrates it: old runs not-recorded, the new one its interval" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(q "$TMPD/v6.db" "PRAGMA user_version")" "$schema" &&
	test_is "$(q "$TMPD/v6.db" "SELECT COUNT(*) FROM run WHERE label <> 'after' AND mux_interval_ms IS NULL AND mux_interval_missing = 'not-recorded'")" \
		"$(q "SELECT COUNT(*) FROM run")" &&
	test_is "$(q "$TMPD/v6.db" "SELECT mux_interval_ms || ' ' || COALESCE(mux_interval_missing, 'NULL') FROM run WHERE label = 'after'")" "4.0 NULL"
EOT
run_sga db check --db "$TMPD/v6.db" --json
test_expect_success "db check of the migrated file: schema $schema, no foreign key problem" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(jq -r '"\(.db_schema_version) \(.foreign_key_problems)"' "$TMPD/out")" "$schema 0"
EOT
test_done
