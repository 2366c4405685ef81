#!/bin/sh
# t0796: t0795's multiplexing interval on a real PostgreSQL server
# (pg-lib.sh starts it and stops it): a run stored straight into the
# server keeps its interval, and show --json gives the multiplexing
# object run --json gave; an SQLite file's runs merge into the server and
# back with their intervals and reasons; a server at schema 6 is read as
# it is with the interval unknown and "not-recorded", and migrates on the
# next store with its runs so. The interval comes from the test knob
# SGABENCH_TEST_MUX_INTERVAL (no PMU here). 4 KiB pages: no hugepages.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=scripts/t/pg-lib.sh
. "$(dirname "$0")/pg-lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
pg_start || skip_all "$pg_why"
schema=$("$SGABENCH" db schema --json | jq -r .schema_version)
sdb=$TMPD/s.db
echo 4 >"$TMPD/interval"

# q SQL [DB]: one value from the server's database (sgabench, or DB), as the superuser.
q() { psql_pg "$1" "${2:-sgabench}"; }

# mux_run DB LABEL [ARGS]: a small native run, the interval from the knob's file; sets rc
mux_run() {
	mux_db=$1 mux_label=$2
	shift 2
	rc=0
	SGABENCH_TEST_MUX_INTERVAL=$TMPD/interval "$SGABENCH" run --sga-size 16m --rounds 1 --tasks 2 \
		--page-size 4k --events page-faults,task-clock --db "$mux_db" --label "$mux_label" "$@" \
		>"$TMPD/run.out" 2>"$TMPD/run.err" || rc=$?
}

# mux FILE: the multiplexing object of a JSON output, keys sorted
mux() { jq -S -c .multiplexing "$1"; }

# The rows "uuid interval reason" of every run, in uuid order: SQL for either engine.
rows_sql="SELECT uuid || ' ' || COALESCE(CAST(mux_interval_ms AS TEXT), 'NULL') || ' '
	|| COALESCE(mux_interval_missing, 'NULL') FROM run ORDER BY uuid"

mux_run "$PG_URI" direct --json
cp "$TMPD/run.out" "$TMPD/direct.json"
uuid=$(jq -r .uuid "$TMPD/direct.json")
test_expect_success "a run with a 4 ms interval stores into the server" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(q "SELECT mux_interval_ms || ' ' || COALESCE(mux_interval_missing, 'NULL') FROM run WHERE uuid = '$uuid'")" "4 NULL"
EOT
run_sga show "$uuid" --db "$PG_URI" --json
test_expect_success "show --json from the server gives the multiplexing object run --json gave" - <<-\EOT
	test_is "$rc" 0 && test_is "$(mux "$TMPD/out")" "$(mux "$TMPD/direct.json")" &&
	test_is "$(jq -r .multiplexing.interval_ms "$TMPD/out")" 4
EOT

# An SQLite file's runs, one with the interval and one without, into the server and back.
mux_run "$sdb" file --json
cp "$TMPD/run.out" "$TMPD/file.json"
fuuid=$(jq -r .uuid "$TMPD/file.json")
rc=0
"$SGABENCH" sim --tasks 2 --rounds 2 --db "$sdb" --label model >/dev/null 2>"$TMPD/run.err" || rc=$?
test_expect_success "the file holds a run with the interval and a model run without" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(sqlite3 "$sdb" "SELECT group_concat(COALESCE(mux_interval_ms, mux_interval_missing), ' ') FROM (SELECT * FROM run ORDER BY id)")" \
		"4.0 not-modelled"
EOT
run_sga db merge "$sdb" -o "$PG_URI"
test_expect_success "merged into the server: the interval and the reason as the file had them" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(q "SELECT mux_interval_ms || ' ' || COALESCE(mux_interval_missing, 'NULL') FROM run WHERE uuid = '$fuuid'")" "4 NULL" &&
	test_is "$(q "SELECT COALESCE(mux_interval_ms::text, 'NULL') || ' ' || mux_interval_missing FROM run WHERE label = 'model'")" "NULL not-modelled"
EOT
run_sga show "$fuuid" --db "$PG_URI" --json
test_expect_success "and show from the server gives the file's run's multiplexing object" - <<-\EOT
	test_is "$rc" 0 && test_is "$(mux "$TMPD/out")" "$(mux "$TMPD/file.json")"
EOT
run_sga db merge "$PG_URI" -o "$TMPD/back.db"
test_expect_success "merged back into a file: every run's interval and reason as the server has them" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(sqlite3 "$TMPD/back.db" "$rows_sql" | sed 's/ 4\.0 / 4 /')" "$(q "$rows_sql")" &&
	test_is "$(q "SELECT COUNT(*) FROM run")" 3
EOT
run_sga show "$uuid" --db "$TMPD/back.db" --json
test_expect_success "and the server's run shows from the file as run --json gave it" - <<-\EOT
	test_is "$rc" 0 && test_is "$(mux "$TMPD/out")" "$(mux "$TMPD/direct.json")"
EOT

# A server at schema 6: its runs, then schema 7 turned back (fixtures/mux-v6.sql).
test_expect_success "a server at schema 6 is read as it is: interval unknown, not-recorded" - <<-\EOT
	psql_pg "CREATE DATABASE old OWNER sgabench" &&
	old=$(printf '%s' "$PG_URI" | sed 's|@/sgabench?|@/old?|') &&
	mux_run "$old" before --json && test_is "$rc" 0 &&
	u=$(jq -r .uuid "$TMPD/run.out") &&
	psql_pg "SET ROLE sgabench; $(cat "$top/scripts/t/fixtures/boot-v7.sql")
		$(cat "$top/scripts/t/fixtures/mux-v6.sql")
		DELETE FROM sgabench_schema WHERE version >= 7" old &&
	test_is "$(q "SELECT MAX(version) FROM sgabench_schema" old)" 6 &&
	run_sga show "$u" --db "$old" --json && test_is "$rc" 0 &&
	test_is "$(jq -r '.multiplexing | "\(.interval_ms) \(.interval_missing)"' "$TMPD/out")" "null not-recorded" &&
	test_is "$(jq -r '[.multiplexing.events[].rotations | tostring] | unique | join(",")' "$TMPD/out")" null &&
	test_is "$(q "SELECT MAX(version) FROM sgabench_schema" old)" 6
EOT
test_expect_success "and migrates on the next store: the old run not-recorded, the new one its interval and boot" - <<-\EOT
	old=$(printf '%s' "$PG_URI" | sed 's|@/sgabench?|@/old?|') &&
	mux_run "$old" after && test_is "$rc" 0 &&
	test_is "$(q "SELECT string_agg(version::text, ',' ORDER BY version) FROM sgabench_schema" old)" \
		"$(seq -s, 1 "$schema")" &&
	test_is "$(q "SELECT string_agg(label || ' ' || COALESCE(mux_interval_ms::text, 'NULL') || ' '
		|| COALESCE(mux_interval_missing, 'NULL'), ',' ORDER BY id) FROM run" old)" \
		"before NULL not-recorded,after 4 NULL" &&
	test_is "$(q "SELECT string_agg(label || ' ' || COALESCE(boot_id, 'NULL'), ',' ORDER BY id) FROM run" old)" \
		"before NULL,after $(cat /proc/sys/kernel/random/boot_id)" &&
	run_sga db check --db "$old" --json && test_is "$rc" 0 &&
	test_is "$(jq -r '"\(.db_schema_version) \(.foreign_key_problems)"' "$TMPD/out")" "$schema 0"
EOT

test_expect_success 'the server stops with nothing left running' '
	dir=$PG_DIR && pg_stop &&
	test ! -d "$dir" &&
	test_is "$(ps -eo args | grep -F "$dir" | grep -vc grep)" 0
'
test_done
