#!/bin/sh
# t0450: the PostgreSQL engine against a real server the test starts itself
# (pg-lib.sh: initdb and pg_ctl as postgres, Unix socket only, stopped at
# exit): two first migrations at once, 4 writers on a fresh database, sim
# and run stored and read back with the same values as on SQLite, 8
# concurrent writers with their own fingerprints, SGABENCH_DB, db check, a
# run that fails mid-way leaves nothing, and each connection error with its
# exit code. t0455 runs the other commands on a server against SQLite.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=scripts/t/pg-lib.sh
. "$(dirname "$0")/pg-lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
pg_start || skip_all "$pg_why"
# ICU: the server can create a database that sorts by an ICU locale
[ "$(psql_pg "SELECT COUNT(*) > 0 FROM pg_collation WHERE collprovider = 'i'" 2>/dev/null)" = t ] &&
	test_set_prereq ICU
# Every migration this sgabench knows, once each: one sgabench_schema row per version.
nmig=$("$SGABENCH" db schema --json | jq -r .schema_version)
sdb=$TMPD/s.db

# q SQL: one value from the sgabench database, as the superuser.
q() { psql_pg "$1" sgabench; }

# Fields of a run's JSON that are the command's own, not the run's.
own='del(.command, .machine, .time)'
# Fields of a run's JSON that depend on the clock or the database, not on
# the stored values.
volatile='del(.command, .machine, .uuid, .db, .time, .started_at, .wall_s,
	.metrics["model-wall-s"], .metrics["model-accesses-per-s"], .metrics["model-cpu-s"])'

test_expect_success 'two first migrations of one fresh server at once both succeed' - <<\EOT
	"$SGABENCH" db init --db "$PG_URI" 2>"$TMPD/m1" & p1=$!
	"$SGABENCH" db init --db "$PG_URI" 2>"$TMPD/m2" & p2=$!
	r1=0 r2=0
	wait $p1 || r1=$?
	wait $p2 || r2=$?
	test_is "$r1 $r2" "0 0" &&
	test_is "$(q "SELECT COUNT(*) || ' ' || MAX(version) FROM sgabench_schema")" "$nmig $nmig" &&
	test_is "$(q "SELECT COUNT(*) FROM run")" 0
EOT

test_expect_success '4 writers storing into a fresh database at once: it migrates once, all land' - <<\EOT
	psql_pg "CREATE DATABASE fresh OWNER sgabench" &&
	fresh=$(printf '%s' "$PG_URI" | sed 's|@/sgabench?|@/fresh?|') &&
	pids="" &&
	for w in 1 2 3 4; do
		"$SGABENCH" sim --tasks 2 --rounds 2 --db "$fresh" >/dev/null 2>"$TMPD/f.$w" &
		pids="$pids $!"
	done
	fails=0
	for p in $pids; do wait "$p" || fails=$((fails + 1)); done
	cat "$TMPD"/f.*
	test_is "$fails" 0 &&
	test_is "$(psql_pg "SELECT COUNT(*) || ' ' || MAX(version) FROM sgabench_schema" fresh)" "$nmig $nmig" &&
	test_is "$(psql_pg "SELECT COUNT(*) || ' ' || (SELECT COUNT(*) FROM task) FROM run" fresh)" "4 8"
EOT

test_expect_success 'sim stores on PostgreSQL and show reads back what it printed' '
	run_sga sim --tasks 3 --rounds 2 --db "$PG_URI" --label pg --json &&
	test_is "$rc" 0 && cp "$TMPD/out" "$TMPD/sim.json" &&
	uuid=$(jq -r .uuid "$TMPD/sim.json") &&
	run_sga show --db "$PG_URI" "$uuid" --json && test_is "$rc" 0 &&
	test_is "$(jq -S "$own" "$TMPD/out")" \
		"$(jq -S "$own" "$TMPD/sim.json")" &&
	cp "$TMPD/out" "$TMPD/pg-show.json"
'

test_expect_success 'the same sim on SQLite reads back the same values' '
	run_sga sim --tasks 3 --rounds 2 --db "$sdb" --label pg --json && test_is "$rc" 0 &&
	run_sga show --db "$sdb" "$(jq -r .uuid "$TMPD/out")" --json && test_is "$rc" 0 &&
	test_is "$(jq -S "$volatile" "$TMPD/out")" "$(jq -S "$volatile" "$TMPD/pg-show.json")" &&
	test_is "$(jq ".values | length" "$TMPD/pg-show.json")" "$(jq ".values | length" "$TMPD/out")"
'

test_expect_success 'runs lists the same run on both engines' '
	run_sga runs --db "$PG_URI" --json && test_is "$rc" 0 &&
	jq -S "[.runs[] | del(.uuid, .started_at, .run_id)]" "$TMPD/out" >"$TMPD/pg-runs" &&
	run_sga runs --db "$sdb" --json && test_is "$rc" 0 &&
	test_is "$(jq -S "[.runs[] | del(.uuid, .started_at, .run_id)]" "$TMPD/out")" "$(cat "$TMPD/pg-runs")" &&
	test_is "$(jq ".runs | length" "$TMPD/out")" 1
'

test_expect_success 'a native run stores on PostgreSQL and show reads it back' '
	run_sga run --tasks 2 --sga-size 8m --page-size 4k --db "$PG_URI" --json &&
	test_is "$rc" 0 && cp "$TMPD/out" "$TMPD/run.json" &&
	run_sga show --db "$PG_URI" "$(jq -r .uuid "$TMPD/run.json")" --json && test_is "$rc" 0 &&
	test_is "$(jq -S "$own" "$TMPD/out")" \
		"$(jq -S "$own" "$TMPD/run.json")"
'

test_expect_success '8 concurrent writers with their own fingerprints: every run lands once' - <<\EOT
	before=$(q "SELECT COUNT(*) FROM run")
	pids=""
	for w in 1 2 3 4 5 6 7 8; do
		(
			for l in a a b b; do
				SGABENCH_TEST_FINGERPRINT=$(printf '%016x' "$((0xf1ee7000 + w))") \
					"$SGABENCH" sim --tasks 2 --rounds 2 --db "$PG_URI" --label "fleet-$l" --json |
					jq -r .uuid || exit 1
			done
		) >"$TMPD/uuids.$w" 2>"$TMPD/err.$w" &
		pids="$pids $!"
	done
	fails=0
	for p in $pids; do wait "$p" || fails=$((fails + 1)); done
	test_is "$fails" 0 &&
	cat "$TMPD"/uuids.* | sort >"$TMPD/uuids" &&
	test_is "$(sort -u "$TMPD/uuids" | grep -c .)" 32 &&
	test_is "$(q "SELECT uuid FROM run WHERE label LIKE 'fleet-%' ORDER BY uuid" | tr '\n' ' ')" \
		"$(tr '\n' ' ' <"$TMPD/uuids")" &&
	test_is "$(q "SELECT COUNT(*) FROM run")" $((before + 32)) &&
	test_is "$(q "SELECT COUNT(*) || ' ' || COUNT(DISTINCT fingerprint) FROM machine WHERE fingerprint LIKE '00000000f1ee7%'")" "8 8" &&
	test_is "$(q "SELECT string_agg(n::text, ',') FROM (SELECT COUNT(*) AS n FROM run WHERE label LIKE 'fleet-%' GROUP BY machine_id) x")" "4,4,4,4,4,4,4,4" &&
	test_is "$(q "SELECT COUNT(*) FROM run r WHERE label LIKE 'fleet-%' AND (SELECT COUNT(*) FROM task t WHERE t.run_id = r.id) <> 2")" 0
EOT

test_expect_success 'SGABENCH_DB selects the server when --db is not given' '
	SGABENCH_DB=$PG_URI "$SGABENCH" runs --limit 1000 --json >"$TMPD/out" &&
	test_is "$(jq ".runs | length" "$TMPD/out")" "$(q "SELECT COUNT(*) FROM run")" &&
	test_is "$(jq ".runs | length" "$TMPD/out")" 34
'

test_expect_success 'a postgres:// URI selects the server too' '
	run_sga runs --limit 1000 --json --db "postgres://${PG_URI#postgresql://}" &&
	test_is "$rc" 0 && test_is "$(jq ".runs | length" "$TMPD/out")" 34
'

test_expect_success 'db check on the server: exit 0, its row counts' '
	run_sga db check --db "$PG_URI" --json && test_is "$rc" 0 &&
	test_is "$(jq .rows.run "$TMPD/out")" "$(q "SELECT COUNT(*) FROM run")" &&
	test_is "$(jq .foreign_key_problems "$TMPD/out")" 0 &&
	test_is "$(jq -r .path "$TMPD/out" | grep -c "$PG_PASSWORD")" 0
'

test_expect_success 'db check: a server created with --locale=C sorts text as SQLite, no warning' '
	run_sga db check --db "$PG_URI" --json && test_is "$rc" 0 &&
	test_is "$(jq -r ".collation + \" \" + .text_order" "$TMPD/out")" "C bytes" &&
	test_is "$(cat "$TMPD/err")" ""
'

test_expect_success ICU 'db check: a database sorting by ICU en-US: a warning, exit 0, text order "collation"' - <<\EOT
	psql_pg "CREATE DATABASE icu OWNER sgabench TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US'" &&
	icu=$(printf '%s' "$PG_URI" | sed 's|@/sgabench?|@/icu?|') &&
	run_sga db init --db "$icu" && test_is "$rc" 0 &&
	run_sga db check --db "$icu" --json && test_is "$rc" 0 &&
	test_is "$(jq -r .text_order "$TMPD/out")" collation &&
	grep -q "warning: db check: .* sorts text by its collation .*, not byte by byte as SQLite" "$TMPD/err" &&
	run_sga db check --db "$icu" && test_is "$rc" 0 &&
	grep -q "^text order     the server's, not SQLite's (collation " "$TMPD/out"
EOT

test_expect_success 'db check: no amcheck in the database, so integrity says it was not checked' '
	run_sga db check --db "$PG_URI" --json && test_is "$rc" 0 &&
	test_is "$(jq -r .integrity "$TMPD/out")" \
		"not checked on PostgreSQL: the database has no amcheck (a superuser can CREATE EXTENSION amcheck)"
'

test_expect_success 'db check: amcheck installed, but this role may not run it: not checked, and why' '
	psql_pg "CREATE EXTENSION amcheck" sgabench &&
	run_sga db check --db "$PG_URI" --json && test_is "$rc" 0 &&
	jq -r .integrity "$TMPD/out" | grep -q "^not checked on PostgreSQL: amcheck: permission denied for function"
'

test_expect_success 'db check: amcheck allowed: every heap and B-tree index checked, ok' - <<\EOT
	psql_pg "GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO sgabench" sgabench &&
	psql_pg "ALTER DATABASE sgabench SET track_functions = 'all'" &&
	run_sga db check --db "$PG_URI" && test_is "$rc" 0 &&
	grep -q "^integrity      ok$" "$TMPD/out" &&
	indexes=$(q "SELECT COUNT(*) FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
		JOIN pg_am a ON a.oid = ic.relam JOIN pg_class t ON t.oid = i.indrelid
		WHERE a.amname = 'btree' AND t.relnamespace = 'public'::regnamespace
		AND t.relname <> 'sgabench_schema'") &&
	test "$indexes" -ge 10 &&
	# the server's statistics reach the view a moment after the calls
	checked_all() {
		calls=$(q "SELECT COALESCE(SUM(calls), 0) FROM pg_stat_user_functions WHERE funcname = 'bt_index_check'")
		[ "$calls" = "$indexes" ]
	} &&
	wait_until checked_all; test_is "$calls" "$indexes"
EOT

test_expect_success 'a run that fails while being stored leaves nothing behind' - <<\EOT
	counts="SELECT COUNT(*) || ' ' || (SELECT COUNT(*) FROM task) || ' ' || (SELECT COUNT(*) FROM value) FROM run"
	before=$(q "$counts") &&
	q "ALTER TABLE metric ADD CONSTRAINT t0450_refuse CHECK (name <> 'model-cpu-s') NOT VALID" &&
	test_when_finished 'q "ALTER TABLE metric DROP CONSTRAINT t0450_refuse"' &&
	run_sga sim --tasks 2 --rounds 2 --db "$PG_URI" --json &&
	test_is "$rc" 1 && grep -q "t0450_refuse" "$TMPD/err" &&
	test_is "$(q "$counts")" "$before"
EOT

test_expect_success 'a bad URI is a usage error (exit 2)' '
	run_sga runs --db "postgresql:///sgabench?nosuchoption=1" &&
	test_is "$rc" 2 && grep -q "bad PostgreSQL URI" "$TMPD/err" &&
	run_sga sim --tasks 1 --rounds 1 --db "postgresql://localhost:notaport/sgabench" &&
	test_is "$rc" 2 && grep -q "bad PostgreSQL URI" "$TMPD/err"
'

test_expect_success 'an unreachable server exits 3 with the fix' '
	run_sga runs --db "postgresql://sgabench@/sgabench?host=$TMPD/nosuchdir" &&
	test_is "$rc" 3 && grep -q "cannot connect to PostgreSQL" "$TMPD/err" &&
	grep -q "start the server" "$TMPD/err"
'

test_expect_success 'wrong credentials and a missing database exit 3 with the fix' '
	run_sga sim --tasks 1 --rounds 1 --db "postgresql://sgabench:wrong@/sgabench?host=$PG_SOCK" &&
	test_is "$rc" 3 && grep -q "password authentication failed" "$TMPD/err" &&
	grep -q "check the role and password" "$TMPD/err" &&
	run_sga runs --db "postgresql://sgabench:$PG_PASSWORD@/nosuchdb?host=$PG_SOCK" &&
	test_is "$rc" 3 && grep -q "createdb" "$TMPD/err"
'

test_expect_success 'a server whose schema is newer exits 3 and nothing is written' '
	before=$(q "SELECT COUNT(*) FROM run") &&
	q "INSERT INTO sgabench_schema VALUES (999, '\''future'\'')" &&
	test_when_finished "q \"DELETE FROM sgabench_schema WHERE version = 999\"" &&
	run_sga sim --tasks 1 --rounds 1 --db "$PG_URI" &&
	test_is "$rc" 3 && grep -q "newer than this sgabench" "$TMPD/err" &&
	run_sga runs --db "$PG_URI" && test_is "$rc" 3 &&
	test_is "$(q "SELECT COUNT(*) FROM run")" "$before"
'

test_expect_success 'the server stops with nothing left running' '
	dir=$PG_DIR && pg_stop &&
	test ! -d "$dir" &&
	test_is "$(ps -eo args | grep -F "$dir" | grep -vc grep)" 0
'
test_done
