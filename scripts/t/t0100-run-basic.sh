#!/bin/sh
# t0100: run --help, outputs (human, JSON, CSV), storing, runs and show.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

run_sga --help
test_expect_success "sgabench --help exits 0" 'test_is "$rc" 0'
run_sga run --help
test_expect_success "run --help exits 0" 'test_is "$rc" 0'
test_expect_success "run --help documents --sga-size" - <<-\EOT
	grep -q -- '--sga-size' "$TMPD/out"
EOT

db="$TMPD/r.db"
# the schema this sgabench writes (db schema, from bench/store/schema.c)
schema=$("$SGABENCH" db schema --json | jq -r .schema_version)
run_sga run --tasks 2 --sga-size 16m --page-size 4k --rounds 3 --db "$db" --json --label basic
test_expect_success "4k run exits 0" 'test_is "$rc" 0'
test_expect_success "JSON is valid" - <<-\EOT
	test_is "$(sqlite3 :memory: "SELECT json_valid(readfile('$TMPD/out'))")" 1
EOT
test_expect_success "JSON names the tool" - <<-\EOT
	test_is "$(json '$.tool')" sgabench
EOT
test_expect_success "JSON carries the tool version" - <<-\EOT
	test -n "$(json '$.version')"
EOT
test_expect_success "JSON carries the schema version" - <<-\EOT
	test_is "$(json '$.schema_version')" "$schema"
EOT
test_expect_success "JSON fingerprint is 16 hex digits" - <<-\EOT
	test_is "$(json '$.fingerprint' | tr -d '0-9a-f' | wc -c)" 1
EOT
test_expect_success "JSON run id is the stored row" - <<-\EOT
	test_is "$(json '$.run_id')" 1
EOT
test_expect_success "JSON has one entry per task" - <<-\EOT
	test_is "$(sqlite3 :memory: "SELECT json_array_length(readfile('$TMPD/out'), '$.tasks')")" 2
EOT
test_expect_success "JSON page-faults total in the window is 0 (pages were pre-touched)" - <<-\EOT
	test_is "$(json '$.totals."page-faults"')" 0
EOT
test_expect_success "run row stored with label and status" - <<-\EOT
	test_is "$(sqlite3 "$db" "SELECT label || ' ' || status || ' ' || tasks FROM run")" "basic ok 2"
EOT
test_expect_success "every task stored" 'test_is "$(sqlite3 "$db" "SELECT COUNT(*) FROM task")" 2'
test_expect_success "integrity check passes" 'test_is "$(sqlite3 "$db" "PRAGMA integrity_check")" ok'
test_expect_success "schema version is tracked" 'test_is "$(sqlite3 "$db" "PRAGMA user_version")" "$schema"'

run_sga run --tasks 1 --sga-size 8m --page-size 4k --rounds 1 --db "$db" --csv
test_expect_success "CSV run exits 0" 'test_is "$rc" 0'
test_expect_success "CSV starts with the tool and schema versions" - <<-\EOT
	grep -q "^# tool=sgabench version=.* schema_version=$schema" "$TMPD/out"
EOT
test_expect_success "CSV carries the run's machine fingerprint and run id" - <<-\EOT
	grep -q '^# machine_fingerprint=[0-9a-f]* run_id=2 ' "$TMPD/out"
EOT
test_expect_success "CSV names the run's cell and label; an unstored run has no run id" - <<-\EOT
	grep -q '^# cell=backend=native .*tasks=1 .*page=4k' "$TMPD/out" && grep -qx '# label=' "$TMPD/out" &&
	"$SGABENCH" run --tasks 1 --sga-size 8m --page-size 4k --rounds 1 --no-store --csv --label x >"$TMPD/csv2" &&
	grep -q '^# machine_fingerprint=[0-9a-f]* run_id= uuid=' "$TMPD/csv2" && grep -qx '# label=x' "$TMPD/csv2"
EOT
test_expect_success "CSV has the column header" - <<-\EOT
	grep -qx 'task,event,value,raw,enabled_ns,running_ns,missing' "$TMPD/out"
EOT
test_expect_success "CSV rows have 7 fields" - <<-\EOT
	sh -c "grep -v '^#' '$TMPD/out' | awk -F, 'NF != 7 { exit 1 }'"
EOT

run_sga run --tasks 1 --sga-size 8m --page-size 4k --rounds 1 --db "$db"
test_expect_success "human run exits 0" 'test_is "$rc" 0'
test_expect_success "human output says where it was stored" 'grep -q "stored in $db as run 3" "$TMPD/out"'

run_sga runs --db "$db"
test_expect_success "runs exits 0" 'test_is "$rc" 0'
test_expect_success "runs lists three runs" - <<-\EOT
	test_is "$(grep -c 'native' "$TMPD/out")" 3
EOT
run_sga runs --db "$db" --json
test_expect_success "runs --json is a valid array of 3" - <<-\EOT
	test_is "$(sqlite3 :memory: "SELECT json_array_length(readfile('$TMPD/out'), '$.runs')")" 3
EOT

uuid=$(sqlite3 "$db" "SELECT uuid FROM run WHERE id = 1")
run_sga show "$(echo "$uuid" | cut -c1-8)" --db "$db" --json
test_expect_success "show by uuid prefix exits 0" 'test_is "$rc" 0'
test_expect_success "show returns the same run" - <<-\EOT
	test_is "$(json '$.uuid')" "$uuid"
EOT
test_expect_success "show keeps the per-task values" - <<-\EOT
	test_is "$(json '$.tasks[1].events."page-faults".value')" 0
EOT
run_sga show 999999999 --db "$db"   # nine digits: no run id here, and no uuid prefix (its 9th character is a dash)
test_expect_success "show of a missing run is a usage error" 'test_is "$rc" 2'
run_sga run --tasks 1 --sga-size 8m --page-size 4k --rounds 1 --no-store --db "$TMPD/none.db"
test_expect_success "--no-store run exits 0" 'test_is "$rc" 0'
test_expect_success "--no-store creates no database" 'test ! -e "$TMPD/none.db"'
test_done
