#!/bin/sh
# t0455: the commands beyond run and show on a real PostgreSQL server
# (pg-lib.sh starts and stops it), each against SQLite on the same data:
# a fleet of model runs on three machines, a smoke sweep and stored
# verdicts go into an SQLite file, db merge copies it to the server (and a
# second merge adds nothing), then compare (also --cross-machine), history,
# every named query of db query, the report and export kcidb give the same
# output on both engines; the export validates against the KCIDB schema. Then the
# server is merged back into a new SQLite file with the same runs, a sweep
# stores straight into the server through db exec, table stores there, and
# a server at schema 1 migrates when a run is stored.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=scripts/t/pg-lib.sh
. "$(dirname "$0")/pg-lib.sh"

for tool in jq hyperfine flock; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "$tool not installed"
done
pg_start || skip_all "$pg_why"
sdb=$TMPD/fleet.db

# q SQL: one value from the sgabench database, as the superuser.
q() { psql_pg "$1" sgabench; }

# sga_db NW DB CMD...: sgabench CMD with --db DB after its first NW words
# (before any "--").
sga_db() {
	nw=$1 d=$2
	shift 2
	n=$# i=0
	for a in "$@"; do
		[ "$i" -eq "$nw" ] && set -- "$@" --db "$d"
		set -- "$@" "$a"
		i=$((i + 1))
	done
	shift "$n"
	"$SGABENCH" "$@"
}

# both OUT NW CMD...: run sgabench CMD (NW words of command) on SQLite,
# then on the server; each output into OUT.lite and OUT.pg, JSON sorted
# and without the envelope's clock and machine. Fails when either fails.
both() {
	out=$1 nwords=$2
	shift 2
	for e in lite pg; do
		if [ "$e" = lite ]; then db=$sdb; else db=$PG_URI; fi
		sga_db "$nwords" "$db" "$@" >"$TMPD/$out.raw" 2>"$TMPD/$out.err.$e" || {
			echo "# $e: $* failed: $(head -n 2 "$TMPD/$out.err.$e")"
			return 1
		}
		if jq -e . "$TMPD/$out.raw" >/dev/null 2>&1; then
			jq -S 'if type == "object" then del(.command, .machine, .time) else . end' \
				"$TMPD/$out.raw" >"$TMPD/$out.$e"
		else
			cp "$TMPD/$out.raw" "$TMPD/$out.$e"
		fi
	done
}

# same OUT: the two outputs of both are equal (a diff is printed when not).
same() {
	diff "$TMPD/$1.lite" "$TMPD/$1.pg" >"$TMPD/$1.diff" || { head -n 20 "$TMPD/$1.diff"; return 1; }
}

test_expect_success 'set-up: a fleet, a smoke sweep and verdicts in an SQLite file' - <<\EOT
	(
		for m in 1 2 3; do
			for l in a a a b b b; do
				SGABENCH_TEST_FINGERPRINT=$(printf '%016x' "$((0xf1ee7000 + m))") \
					"$SGABENCH" sim --tasks 2 --rounds 2 --db "$sdb" --label "fleet-$l" >/dev/null || exit 1
			done
		done
	) &&
	SWEEP_JOBS=1 "$top/scripts/sweep" --db "$sdb" --label smoke-s --seed 3 configs/smoke \
		>"$TMPD/sweep.out" 2>&1 || { tail -n 3 "$TMPD/sweep.out"; false; } &&
	# every metric: 0 or 1 (the model's own clocks are this machine's speed)
	{ "$SGABENCH" compare --db "$sdb" --baseline label:fleet-a --candidate label:fleet-b \
		--one-sided-noise first-touch-faults --store-verdicts >/dev/null; test "$?" -le 1; } &&
	# a row per machine and metric with a value, but those with no better way (direction
	# neither) and, the runs being the model's, those read from a clock (kind time or rate)
	# and those restating another count (est-*, model-LEVEL-misses)
	{ "$SGABENCH" metrics --names --where direction=neither &&
		"$SGABENCH" metrics --names --where kind=time &&
		"$SGABENCH" metrics --names --where kind=rate; } >"$TMPD/neither" &&
	per_machine=$(sqlite3 "$sdb" "SELECT DISTINCT name FROM run_metric WHERE value IS NOT NULL
		AND run_id = (SELECT MIN(id) FROM run WHERE label = 'fleet-a')" | grep -vxF -f "$TMPD/neither" |
		grep -cv -e "^est-" -e "^model-.*-misses$") &&
	test "$per_machine" -ge 4 &&
	rows=$((3 * per_machine)) &&
	test_is "$(sqlite3 "$sdb" "SELECT COUNT(*) FROM verdict WHERE baseline = 'label:fleet-a'")" "$rows"
EOT

test_expect_success 'db merge copies the SQLite file into the server, a second time nothing' '
	run_sga db merge "$sdb" -o "$PG_URI" --json && test_is "$rc" 0 &&
	test_is "$(jq .total.runs_added "$TMPD/out")" "$(sqlite3 "$sdb" "SELECT COUNT(*) FROM run")" &&
	test_is "$(jq .total.machines_added "$TMPD/out")" "$(sqlite3 "$sdb" "SELECT COUNT(*) FROM machine")" &&
	test_is "$(jq .total.verdicts_added "$TMPD/out")" "$(sqlite3 "$sdb" "SELECT COUNT(*) FROM verdict")" &&
	run_sga db merge "$sdb" -o "$PG_URI" --json && test_is "$rc" 0 &&
	test_is "$(jq .total.runs_added "$TMPD/out")" 0 &&
	test_is "$(jq .total.runs_skipped "$TMPD/out")" "$(sqlite3 "$sdb" "SELECT COUNT(*) FROM run")" &&
	(
		for t in machine run task value metric sweep timing noise verdict; do
			test_is "$t $(q "SELECT COUNT(*) FROM $t")" "$t $(sqlite3 "$sdb" "SELECT COUNT(*) FROM $t")" || exit 1
		done
	)
'

test_expect_success GNUPLOT 'the report reads the same data from the server as from the file' - <<\EOT
	(
		for e in lite pg; do
			if [ "$e" = lite ]; then d=$sdb; else d=$PG_URI; fi
			"$top/report/mkreport" --db "$d" --out "$TMPD/rep.$e" --sweep smoke \
				>"$TMPD/rep.$e.out" 2>&1 || { tail -n 3 "$TMPD/rep.$e.out"; exit 1; }
		done
	) &&
	diff -r "$TMPD/rep.lite/data" "$TMPD/rep.pg/data" &&
	grep -v "^Generated " "$TMPD/rep.lite/summary.md" >"$TMPD/sum.lite" &&
	grep -v "^Generated " "$TMPD/rep.pg/summary.md" >"$TMPD/sum.pg" &&
	diff "$TMPD/sum.lite" "$TMPD/sum.pg" &&
	test_is "$(grep -c "$PG_PASSWORD" "$TMPD/rep.pg/summary.md" "$TMPD/rep.pg/index.html" | grep -vc ":0$")" 0
EOT

test_expect_success 'compare gives the same rows on both engines' '
	both cmp 1 compare --baseline label:fleet-a --candidate label:fleet-b --json && same cmp &&
	test_is "$(jq ".rows | length" "$TMPD/cmp.pg")" "$rows"
'

test_expect_success 'compare --cross-machine gives the same rows on both engines' '
	both cross 1 compare --cross-machine --baseline label:fleet-a --candidate label:fleet-b --json &&
	same cross && test_is "$(jq .cross_machine "$TMPD/cross.pg")" true
'

test_expect_success 'history gives the same series on both engines' '
	both hist 1 history --metric dTLB-load-misses --json && same hist &&
	test "$(jq ".series | length" "$TMPD/hist.pg")" -ge 3 &&
	both hist2 1 history --metric first-touch-faults && same hist2
'

test_expect_success 'every named query of db query gives the same rows in the same order, and the same JSON, on both engines' - <<\EOT
(
	nq_sweep=$("$SGABENCH" db query --db "$sdb" sweep-latest smoke) && test -n "$nq_sweep" &&
	key=$("$SGABENCH" db query --db "$sdb" glance-key) && test -n "$key" &&
	nq_base=$(printf '%s\n' "$key" | cut -f1) nq_cand=$(printf '%s\n' "$key" | cut -f2) &&
	nq_time=$(printf '%s\n' "$key" | cut -f3) &&
	nq_backend=$("$SGABENCH" db query --db "$sdb" model-backend "") &&
	nq_sweep_name=smoke nq_label=fleet-a nq_machine=1 &&
	rows=0 &&
	"$SGABENCH" db query --list | awk '{ print $1 }' >"$TMPD/names" &&
	while read -r name; do
		# every order is total (t0425), so the rows compare in order
		with_named_args "$name" both "q-$name" 2 db query -- || exit 1
		same "q-$name" || { echo "# $name differs"; exit 1; }
		# and --json: the same keys (every expression column has an
		# alias) and the same types
		with_named_args "$name" both "qj-$name" 2 db query --json -- || exit 1
		same "qj-$name" || { echo "# $name --json differs"; exit 1; }
		if [ -s "$TMPD/q-$name.pg" ]; then rows=$((rows + 1)); fi
	done <"$TMPD/names" &&
	echo "# $rows of $(grep -c . "$TMPD/names") queries returned rows" &&
	test "$rows" -ge 20
)
EOT

test_expect_success 'db query --json types the values the same on both engines' '
	both qj 2 db query --json machines-table && same qj &&
	both qj2 2 db query --json -- sweeps-table && same qj2
'

test_expect_success 'export kcidb is the same document on both engines' '
	both kcidb 2 export kcidb --origin t0455 && same kcidb &&
	test_is "$(jq ".tests | length" "$TMPD/kcidb.pg")" \
		"$(sqlite3 "$sdb" "SELECT COUNT(*) FROM run_metric m JOIN run r ON r.id = m.run_id WHERE r.status = '\''ok'\''")"
'

if python3 -c 'import jsonschema' 2>/dev/null; then
	test_set_prereq JSONSCHEMA
fi
test_expect_success JSONSCHEMA 'the export from the server validates against the KCIDB v5.3 schema' - <<\EOT
	python3 - "$top/scripts/t/kcidb-v5.3.schema.json" "$TMPD/kcidb.raw" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
v = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
errs = list(v.iter_errors(json.load(open(sys.argv[2]))))
for e in errs[:3]:
    print("# invalid at", "/".join(str(p) for p in e.absolute_path), ":", e.message[:160])
sys.exit(1 if errs else 0)
PY
EOT

test_expect_success 'db merge copies the server into a new SQLite file, a second time nothing' '
	back=$TMPD/back.db &&
	run_sga db merge "$PG_URI" -o "$back" --json && test_is "$rc" 0 &&
	test_is "$(jq .total.runs_added "$TMPD/out")" "$(q "SELECT COUNT(*) FROM run")" &&
	run_sga db merge "$PG_URI" -o "$back" --json && test_is "$rc" 0 &&
	test_is "$(jq .total.runs_added "$TMPD/out")" 0 &&
	(
		for t in machine run task value metric sweep timing noise verdict; do
			test_is "$t $(sqlite3 "$back" "SELECT COUNT(*) FROM $t")" "$t $(sqlite3 "$sdb" "SELECT COUNT(*) FROM $t")" || exit 1
		done
	) &&
	"$SGABENCH" runs --db "$sdb" --limit 1000 --json | jq -S "[.runs[] | del(.run_id)]" >"$TMPD/runs-lite" &&
	"$SGABENCH" runs --db "$back" --limit 1000 --json | jq -S "[.runs[] | del(.run_id)]" >"$TMPD/runs-back" &&
	cmp "$TMPD/runs-lite" "$TMPD/runs-back"
'

test_expect_success 'a server and itself as input and output is a usage error' '
	run_sga db merge "$PG_URI" -o "$PG_URI" && test_is "$rc" 2
'

test_expect_success 'a sweep stores straight into the server (db exec and db query there)' - <<\EOT
	before=$(q "SELECT COUNT(*) FROM sweep")
	SWEEP_JOBS=2 "$top/scripts/sweep" --db "$PG_URI" --label smoke-pg --seed 3 configs/smoke \
		>"$TMPD/sweep-pg.out" 2>&1 || { tail -n 3 "$TMPD/sweep-pg.out"; false; } &&
	test_is "$(q "SELECT COUNT(*) FROM sweep")" $((before + 1)) &&
	uuid=$(q "SELECT uuid FROM sweep WHERE uuid NOT IN (SELECT uuid FROM sweep ORDER BY started_at LIMIT $before)") &&
	test_is "$("$SGABENCH" db query --db "$PG_URI" sweep-runs "$uuid")" \
		"$(q "SELECT COUNT(*) FROM run WHERE label LIKE 'smoke-pg%'")" &&
	test "$(q "SELECT COUNT(*) FROM noise n JOIN machine m ON m.id = n.machine_id")" -gt 0 &&
	test_is "$(grep -c "$PG_PASSWORD" "$TMPD/sweep-pg.out")" 0 &&
	# the lock of a server is results/server.lock, not a path made of the URI
	test ! -e "$top/postgresql:" && test -e "$top/results/server.lock"
EOT

test_expect_success 'table stores its runs on the server' '
	before=$(q "SELECT COUNT(*) FROM run") &&
	# exit 1 is the verdict "NOT reproduced" (the shared column), still stored
	run_sga table --backend model --db "$PG_URI" && test "$rc" -le 1 &&
	test "$(q "SELECT COUNT(*) FROM run")" -gt "$before"
'

test_expect_success 'a server at schema 1 migrates when a run is stored, its runs kept' - <<\EOT
	psql_pg "CREATE DATABASE old OWNER sgabench" &&
	old=$(printf '%s' "$PG_URI" | sed 's|@/sgabench?|@/old?|') &&
	"$SGABENCH" sim --tasks 2 --rounds 2 --db "$old" --label before >/dev/null &&
	# schema 1 is schema 8 without its boot ids (fixtures/boot-v7.sql),
	# without schema 7's multiplexing interval (fixtures/mux-v6.sql),
	# without schema 6's missing metrics (fixtures/metric-v5.sql),
	# without schema 5's kernel variants, without schema 4's
	# machine names, without schema 3's renames (the two columns under
	# their old names), and without schema 2's two tables and two verdict
	# columns
	psql_pg "SET ROLE sgabench; $(cat "$top/scripts/t/fixtures/boot-v7.sql")
		$(cat "$top/scripts/t/fixtures/mux-v6.sql")
		$(cat "$top/scripts/t/fixtures/metric-v5.sql")" old &&
	psql_pg "DROP INDEX run_kernel_variant; ALTER TABLE run DROP COLUMN kernel_variant;
		DROP INDEX run_machine_name; ALTER TABLE run DROP COLUMN machine_name;
		ALTER TABLE verdict DROP COLUMN machine_name;
		DROP TABLE window_value; DROP TABLE run_window;
		ALTER TABLE verdict DROP COLUMN noise_floor, DROP COLUMN mde;
		ALTER TABLE run RENAME COLUMN working_set_bytes TO ws_bytes;
		ALTER TABLE task RENAME COLUMN first_touch_faults TO ft_minflt;
		UPDATE task SET ft_minflt = 7 + task;
		DELETE FROM sgabench_schema WHERE version >= 2" old &&
	test_is "$(psql_pg "SELECT MAX(version) FROM sgabench_schema" old)" 1 &&
	run_sga runs --db "$old" --json && test_is "$rc" 0 && test_is "$(jq ".runs | length" "$TMPD/out")" 1 &&
	run_sga show 1 --db "$old" --json && test_is "$rc" 0 &&
	test_is "$(jq -r '[.tasks[].first_touch_faults] | join(",")' "$TMPD/out")" "7,8" &&
	run_sga sim --tasks 2 --rounds 2 --db "$old" --label after && test_is "$rc" 0 &&
	test_is "$(psql_pg "SELECT string_agg(version::text, ',' ORDER BY version) FROM sgabench_schema" old)" "1,2,3,4,5,6,7,8" &&
	test_is "$(psql_pg "SELECT SUM(first_touch_faults) FROM task" old)" 15 &&
	test_is "$(psql_pg "SELECT COUNT(*) || ' ' || COUNT(kernel_variant) FROM run" old)" "2 1" &&
	test_is "$(psql_pg "SELECT string_agg(machine_name, ',' ORDER BY id) FROM run" old)" "$(uname -n),$(uname -n)" &&
	test_is "$(psql_pg "SELECT COUNT(*) FROM information_schema.columns WHERE table_name = 'verdict' AND column_name IN ('noise_floor', 'mde')" old)" 2 &&
	test_is "$(psql_pg "SELECT string_agg(label, ',' ORDER BY id) FROM run" old)" "before,after" &&
	run_sga db check --db "$old" --json && test_is "$rc" 0 &&
	test_is "$(jq .foreign_key_problems "$TMPD/out")" 0
EOT

test_expect_success 'the server stops with nothing left running' '
	dir=$PG_DIR && pg_stop &&
	test ! -d "$dir" &&
	test_is "$(ps -eo args | grep -F "$dir" | grep -vc grep)" 0
'
test_done
