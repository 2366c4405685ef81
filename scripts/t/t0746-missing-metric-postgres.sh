#!/bin/sh
# t0746: t0745's missing run metric on a real PostgreSQL server (pg-lib.sh
# starts it and stops it): a run stored straight into the server keeps the
# metric as value NULL with its reason; show reads it back as run --json
# gave it; an SQLite file's missing metrics merge into the server and
# back unchanged; export kcidb from the server makes it a SKIP test with
# the reason (validated); a server at schema 5 is read as it is and
# migrates on the next store with its metric rows kept. The metric is
# missing on any host: SGABENCH_TEST_INTERRUPTS gives the teardown an
# arm64 /proc/interrupts without a TLB line. 4 KiB pages: no hugepages.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=scripts/t/pg-lib.sh
. "$(dirname "$0")/pg-lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
pg_start || skip_all "$pg_why"
m=teardown-tlb-shootdowns
schema=$("$SGABENCH" db schema --json | jq -r .schema_version)
sdb=$TMPD/s.db

# q SQL [DB]: one value from the server's database (sgabench, or DB), as the superuser.
q() { psql_pg "$1" "${2:-sgabench}"; }

cat >"$TMPD/irq-arm64" <<-\EOF
	           CPU0       CPU1
	IPI0:       305        412       Rescheduling interrupts
	IPI1:        70         81       Function call interrupts
	Err:          0
EOF

# arm_run DB LABEL [ARGS]: a small native run with the arm64 interrupts, stored in DB; sets rc
arm_run() {
	arm_db=$1 arm_label=$2
	shift 2
	rc=0
	SGABENCH_TEST_INTERRUPTS=$TMPD/irq-arm64 "$SGABENCH" run --sga-size 64m --rounds 1 --windows 1 \
		--tasks 2 --page-size 4k --events page-faults --db "$arm_db" --label "$arm_label" "$@" \
		>"$TMPD/run.out" 2>"$TMPD/run.err" || rc=$?
}

arm_run "$PG_URI" direct --json
cp "$TMPD/run.out" "$TMPD/run.json"
uuid=$(jq -r .uuid "$TMPD/run.json")
test_expect_success "a run without a TLB line stores into the server" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(jq -r --arg m "$m" '.missing[$m]' "$TMPD/run.json")" no-interrupt-line
EOT
test_expect_success "the server keeps it as value NULL with its reason, never 0" - <<-\EOT
	test_is "$(q "SELECT COUNT(*) || ' ' || COUNT(value) || ' ' || MAX(missing) FROM metric WHERE name = '$m'")" \
		"1 0 no-interrupt-line" &&
	test_is "$(q "SELECT COALESCE(value::text, 'NULL') || ' ' || missing FROM run_metric WHERE name = '$m'")" \
		"NULL no-interrupt-line"
EOT
run_sga show "$uuid" --db "$PG_URI" --json
test_expect_success "show --json from the server: missing and metrics as run --json had them" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(jq -S -c '[.missing, .metrics]' "$TMPD/out")" "$(jq -S -c '[.missing, .metrics]' "$TMPD/run.json")"
EOT
run_sga show "$uuid" --db "$PG_URI"
test_expect_success "show from the server: 'not measured' with the reason" - <<-\EOT
	test_is "$rc" 0 &&
	grep -q "^  $m  *-   not measured: no-interrupt-line\$" "$TMPD/out"
EOT

# Runs in an SQLite file, merged into the server and back.
arm_run "$sdb" local
arm_run "$sdb" local
run_sga db merge "$sdb" -o "$PG_URI" --json
test_expect_success "db merge of an SQLite file into the server copies its missing metrics" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(q "SELECT COUNT(*) || ' ' || COUNT(m.value) || ' ' || MIN(m.missing) FROM metric m JOIN run r ON r.id = m.run_id
		WHERE r.label = 'local' AND m.name = '$m'")" "2 0 no-interrupt-line" &&
	test_is "$(q "SELECT string_agg(m.name || '=' || m.missing, ' ' ORDER BY r.uuid, m.name COLLATE \"C\") FROM metric m
		JOIN run r ON r.id = m.run_id WHERE r.label = 'local' AND m.missing IS NOT NULL")" \
		"$(sqlite3 "$sdb" "SELECT group_concat(x, ' ') FROM (SELECT m.name || '=' || m.missing AS x FROM metric m
		JOIN run r ON r.id = m.run_id WHERE m.missing IS NOT NULL ORDER BY r.uuid, m.name)")"
EOT
run_sga db merge "$PG_URI" -o "$TMPD/back.db" --json
test_expect_success "and from the server into a new SQLite file, all three runs' reasons" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(sqlite3 "$TMPD/back.db" "SELECT COUNT(*) || ' ' || COUNT(value) || ' ' || MIN(missing) || ' ' || MAX(missing)
		FROM metric WHERE name = '$m'")" "3 0 no-interrupt-line no-interrupt-line" &&
	test_is "$(sqlite3 "$TMPD/back.db" "SELECT COUNT(*) FROM metric WHERE missing IS NOT NULL")" \
		"$(q "SELECT COUNT(*) FROM metric WHERE missing IS NOT NULL")"
EOT
run_sga show "$uuid" --db "$TMPD/back.db" --json
test_expect_success "the run merged back shows as run --json gave it" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(jq -S -c '[.missing, .metrics]' "$TMPD/out")" "$(jq -S -c '[.missing, .metrics]' "$TMPD/run.json")"
EOT

python3 -c 'import jsonschema' 2>/dev/null && test_set_prereq JSONSCHEMA
run_sga export kcidb --db "$PG_URI" --origin sgabench_test --output "$TMPD/k.json"
test_expect_success "export kcidb from the server: each missing metric a SKIP test with the reason, no number" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(jq -r --arg m "$m" '[.tests[] | select(.path | endswith("." + $m))
		| .status + " " + .misc.missing + " " + (has("number") | tostring)] | (unique | join(",")) + " " + (length | tostring)' \
		"$TMPD/k.json")" "SKIP no-interrupt-line false 3"
EOT
test_expect_success JSONSCHEMA "and the export validates against the KCIDB v5.3 schema" - <<-\EOT
	python3 - "$top/scripts/t/kcidb-v5.3.schema.json" "$TMPD/k.json" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
v = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
errs = list(v.iter_errors(json.load(open(sys.argv[2]))))
for e in errs[:3]:
    print("# invalid at", "/".join(str(p) for p in e.absolute_path), ":", e.message[:160])
sys.exit(1 if errs else 0)
PY
EOT

# A server at schema 5: a run stored, then schema 6 turned back (fixtures/metric-v5.sql).
test_expect_success "a server at schema 5 is read as it is and migrates on the next store, its rows kept" - <<-\EOT
	psql_pg "CREATE DATABASE old OWNER sgabench" &&
	old=$(printf '%s' "$PG_URI" | sed 's|@/sgabench?|@/old?|') &&
	arm_run "$old" before --json && test_is "$rc" 0 &&
	u=$(jq -r .uuid "$TMPD/run.out") &&
	psql_pg "SET ROLE sgabench; $(cat "$top/scripts/t/fixtures/boot-v7.sql")
		$(cat "$top/scripts/t/fixtures/mux-v6.sql")
		$(cat "$top/scripts/t/fixtures/metric-v5.sql")
		DELETE FROM sgabench_schema WHERE version >= 6" old &&
	test_is "$(q "SELECT MAX(version) FROM sgabench_schema" old)" 5 &&
	rows=$(q "SELECT COUNT(*) || ' ' || string_agg(m.name || '=' || m.value::text, ' ' ORDER BY m.name COLLATE \"C\")
		FROM metric m" old) &&
	test_is "$(q "SELECT COUNT(*) FROM metric WHERE name = '$m'" old)" 0 &&
	run_sga show "$u" --db "$old" --json && test_is "$rc" 0 &&
	test_is "$(jq -r --arg m "$m" '(.missing | has($m) | tostring) + " " + (.metrics | has($m) | tostring)' "$TMPD/out")" "false false" &&
	test_is "$(q "SELECT MAX(version) FROM sgabench_schema" old)" 5 &&
	arm_run "$old" after && test_is "$rc" 0 &&
	test_is "$(q "SELECT string_agg(version::text, ',' ORDER BY version) FROM sgabench_schema" old)" \
		"$(seq -s, 1 "$schema")" &&
	test_is "$(q "SELECT COUNT(*) || ' ' || string_agg(m.name || '=' || m.value::text, ' ' ORDER BY m.name COLLATE \"C\")
		FROM metric m JOIN run r ON r.id = m.run_id
		WHERE r.label = 'before'" old)" "$rows" &&
	test_is "$(q "SELECT COALESCE(m.value::text, 'NULL') || ' ' || m.missing FROM metric m JOIN run r ON r.id = m.run_id
		WHERE r.label = 'after' AND m.name = '$m'" old)" "NULL no-interrupt-line" &&
	run_sga db check --db "$old" --json && test_is "$rc" 0 &&
	test_is "$(jq -r '"\(.db_schema_version) \(.foreign_key_problems)"' "$TMPD/out")" "$schema 0"
EOT

test_expect_success "the server stops with nothing left running" - <<-\EOT
	dir=$PG_DIR && pg_stop &&
	test ! -d "$dir" &&
	test_is "$(ps -eo args | grep -F "$dir" | grep -vc grep)" 0
EOT
test_done
