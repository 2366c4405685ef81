#!/bin/sh
# t0100: run --help, outputs (human, JSON, CSV), storing, runs and show.
# shellcheck source=scripts/t/tap.sh
. "$(dirname "$0")/tap.sh"

run_sga --help
is "sgabench --help exits 0" "$rc" 0
run_sga run --help
is "run --help exits 0" "$rc" 0
ok "run --help documents --sga-size" grep -q -- '--sga-size' "$TMPD/out"

db="$TMPD/r.db"
run_sga run --tasks 2 --sga-size 16m --page-size 4k --rounds 3 --db "$db" --json --label basic
is "4k run exits 0" "$rc" 0
is "JSON is valid" "$(sqlite3 :memory: "SELECT json_valid(readfile('$TMPD/out'))")" 1
is "JSON names the tool" "$(json '$.tool')" sgabench
ok "JSON carries the tool version" test -n "$(json '$.tool_version')"
is "JSON carries the schema version" "$(json '$.schema_version')" 2
is "JSON fingerprint is 16 hex digits" "$(json '$.fingerprint' | tr -d '0-9a-f' | wc -c)" 1
is "JSON run id is the stored row" "$(json '$.run_id')" 1
is "JSON has one entry per task" "$(sqlite3 :memory: "SELECT json_array_length(readfile('$TMPD/out'), '$.tasks')")" 2
is "JSON page-faults total in the window is 0 (pages were pre-touched)" "$(json '$.totals."page-faults"')" 0
is "run row stored with label and status" "$(sqlite3 "$db" "SELECT label || ' ' || status || ' ' || tasks FROM run")" "basic ok 2"
is "every task stored" "$(sqlite3 "$db" "SELECT COUNT(*) FROM task")" 2
is "integrity check passes" "$(sqlite3 "$db" "PRAGMA integrity_check")" ok
is "schema version is tracked" "$(sqlite3 "$db" "PRAGMA user_version")" 2

run_sga run --tasks 1 --sga-size 8m --page-size 4k --rounds 1 --db "$db" --csv
is "CSV run exits 0" "$rc" 0
ok "CSV starts with the tool and schema versions" grep -q '^# tool=sgabench tool_version=.* schema_version=2' "$TMPD/out"
ok "CSV carries fingerprint and run id" grep -q '^# fingerprint=[0-9a-f]* run_id=2 ' "$TMPD/out"
ok "CSV has the column header" grep -qx 'task,event,value,raw,enabled_ns,running_ns,missing' "$TMPD/out"
ok "CSV rows have 7 fields" sh -c "grep -v '^#' '$TMPD/out' | awk -F, 'NF != 7 { exit 1 }'"

run_sga run --tasks 1 --sga-size 8m --page-size 4k --rounds 1 --db "$db"
is "human run exits 0" "$rc" 0
ok "human output says where it was stored" grep -q "stored in $db as run 3" "$TMPD/out"

run_sga runs --db "$db"
is "runs exits 0" "$rc" 0
is "runs lists three runs" "$(grep -c 'native' "$TMPD/out")" 3
run_sga runs --db "$db" --json
is "runs --json is a valid array of 3" "$(sqlite3 :memory: "SELECT json_array_length(readfile('$TMPD/out'))")" 3

uuid=$(sqlite3 "$db" "SELECT uuid FROM run WHERE id = 1")
run_sga show "$(echo "$uuid" | cut -c1-8)" --db "$db" --json
is "show by uuid prefix exits 0" "$rc" 0
is "show returns the same run" "$(json '$.uuid')" "$uuid"
is "show keeps the per-task values" "$(json '$.tasks[1].events."page-faults".value')" 0
run_sga show 99 --db "$db"
is "show of a missing run is a usage error" "$rc" 2
run_sga run --tasks 1 --sga-size 8m --page-size 4k --rounds 1 --no-store --db "$TMPD/none.db"
is "--no-store run exits 0" "$rc" 0
ok "--no-store creates no database" test ! -e "$TMPD/none.db"
done_testing
