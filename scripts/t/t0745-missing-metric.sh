#!/bin/sh
# t0745: a run metric the run could not give is stored as missing with its
# reason (schema 6: metric.value NULL, metric.missing), never as 0, and
# every reader of a stored run tells it from a metric the run never had:
# show (text, --json as run --json has it, --csv), export kcidb (a SKIP
# test with misc.missing, no number; validated against the KCIDB v5.3
# schema), compare (absent, its reason in the notes), db merge (copied,
# reason and all). A schema 5 database (fixtures/metric-v5.sql) is read as
# it is, merges, and migrates on the next store with its rows kept.
# The missing metric is made on purpose: SGABENCH_TEST_INTERRUPTS gives
# the teardown an arm64 /proc/interrupts, which has no TLB line, so
# teardown-tlb-shootdowns is missing with "no-interrupt-line" on any
# host. 4 KiB pages: no hugepages.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
db=$TMPD/m.db
m=teardown-tlb-shootdowns
schema=$("$SGABENCH" db schema --json | jq -r .schema_version)

# An arm64 6.1 /proc/interrupts (arch/arm64/kernel/smp.c): IPI lines, no TLB line.
cat >"$TMPD/irq-arm64" <<-\EOF
	           CPU0       CPU1
	IPI0:       305        412       Rescheduling interrupts
	IPI1:        70         81       Function call interrupts
	Err:          0
EOF

# arm_run LABEL [ARGS]: a small native run with the arm64 interrupts, stored in $db; sets rc
arm_run() {
	arm_label=$1
	shift
	rc=0
	SGABENCH_TEST_INTERRUPTS=$TMPD/irq-arm64 "$SGABENCH" run --sga-size 64m --rounds 1 --windows 1 \
		--tasks 2 --page-size 4k --events page-faults --db "$db" --label "$arm_label" "$@" \
		>"$TMPD/run.out" 2>"$TMPD/run.err" || rc=$?
}

# q [DB] SQL: one value from $db (or DB)
q() {
	if [ $# -eq 2 ]; then sqlite3 "$1" "$2"; else sqlite3 "$db" "$1"; fi
}

# metric_rows DB [LABEL]: every measured metric row of DB (of the runs
# labelled other than LABEL) as "uuid name value", one a line, in a total
# order; each value exact (%.17g), so no sum's rounding depends on the
# order of the rows
metric_rows() {
	sqlite3 "$1" "SELECT r.uuid || ' ' || m.name || ' ' || printf('%.17g', m.value)
		FROM metric m JOIN run r ON r.id = m.run_id WHERE r.label <> '${2:-}' AND m.value IS NOT NULL
		ORDER BY r.uuid, m.name"
}

# validate DOC: exit 0 when DOC is valid against the KCIDB v5.3 schema (formats checked).
validate() {
	python3 - "$top/scripts/t/kcidb-v5.3.schema.json" "$1" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
v = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
errs = list(v.iter_errors(doc))
for e in errs[:3]:
    print("# invalid at", "/".join(str(p) for p in e.absolute_path), ":", e.message[:160])
sys.exit(1 if errs else 0)
PY
}

arm_run base --json
cp "$TMPD/run.out" "$TMPD/run.json"
test_expect_success "a run without a TLB line stores: exit 0" 'test_is "$rc" 0'
test_expect_success "run --json: the metric is missing with its reason, not in metrics" - <<-\EOT
	test_is "$(jq -r --arg m "$m" '.missing[$m] + " " + (.metrics | has($m) | tostring)' "$TMPD/run.json")" \
		"no-interrupt-line false"
EOT
test_expect_success "stored as value NULL with its reason, never 0" - <<-\EOT
	test_is "$(q "SELECT COUNT(*) || ' ' || COUNT(value) || ' ' || MAX(missing) FROM metric WHERE name = '$m'")" \
		"1 0 no-interrupt-line"
EOT
test_expect_success "every reason run --json gave is stored, and nothing else is missing" - <<-\EOT
	test_is "$(q "SELECT name || '=' || missing FROM metric WHERE missing IS NOT NULL ORDER BY name" | tr '\n' ' ')" \
		"$(jq -r '.missing | to_entries[] | select(.key as $k | $ARGS.named.ev | index($k) | not)
			| .key + "=" + .value' --argjson ev "$(jq -c '.totals | keys' "$TMPD/run.json")" \
			"$TMPD/run.json" | LC_ALL=C sort | tr '\n' ' ')"
EOT
test_expect_success "run_metric gives it NULL with the reason" - <<-\EOT
	test_is "$(q "SELECT COALESCE(value, 'NULL') || ' ' || missing FROM run_metric WHERE name = '$m'")" \
		"NULL no-interrupt-line"
EOT

uuid=$(jq -r .uuid "$TMPD/run.json")
run_sga show "$uuid" --db "$db" --json
test_expect_success "show --json: missing and metrics as run --json had them" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(jq -S -c '[.missing, .metrics]' "$TMPD/out")" "$(jq -S -c '[.missing, .metrics]' "$TMPD/run.json")"
EOT
run_sga show "$uuid" --db "$db"
test_expect_success "show: 'not measured' with the reason" - <<-\EOT
	test_is "$rc" 0 &&
	grep -q "^  $m  *-   not measured: no-interrupt-line\$" "$TMPD/out"
EOT
run_sga show "$uuid" --db "$db" --csv
test_expect_success "show --csv: a run row with no value and the reason" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(grep -c "^run,$m,,,,,no-interrupt-line\$" "$TMPD/out")" 1
EOT

# Two more runs each side for compare: the metric is missing on every run.
arm_run base
arm_run cand
arm_run cand
test_expect_success "three more runs store" 'test_is "$(q "SELECT COUNT(*) FROM run WHERE status = '\''ok'\''")" 4'
run_sga compare --baseline label:base --candidate label:cand --db "$db" --verbose
test_expect_success "compare: the metric is no row, its reason in a note" - <<-\EOT
	test "$rc" -le 1 &&
	! grep -q "^(the one cell) $m " "$TMPD/out" &&
	grep -q "no value in any run (no-interrupt-line), not compared: '$m' (1 cell)" "$TMPD/out"
EOT
run_sga compare --baseline label:base --candidate label:cand --db "$db" --json
test_expect_success "compare --json: the same note" - <<-\EOT
	test "$rc" -le 1 &&
	test_is "$(jq --arg m "$m" '[.. | strings | select(contains("(no-interrupt-line)") and contains($m))] | length' "$TMPD/out")" 1
EOT

python3 -c 'import jsonschema' 2>/dev/null && test_set_prereq JSONSCHEMA
run_sga export kcidb --db "$db" --origin sgabench_test --output "$TMPD/k.json"
test_expect_success "export kcidb: exit 0" 'test_is "$rc" 0'
test_expect_success JSONSCHEMA "the export validates against the KCIDB v5.3 schema" 'validate "$TMPD/k.json"'
test_expect_success "each run's missing metric is a SKIP test with the reason and no number" - <<-\EOT
	test_is "$(jq -r --arg m "$m" '[.tests[] | select(.path | endswith("." + $m))
		| .status + " " + .misc.missing + " " + (has("number") | tostring)] | unique | join(",") + " " + (length | tostring)' \
		"$TMPD/k.json")" "SKIP no-interrupt-line false 1" &&
	test_is "$(jq --arg m "$m" '[.tests[] | select(.path | endswith("." + $m))] | length' "$TMPD/k.json")" 4
EOT

run_sga db merge "$db" -o "$TMPD/merged.db" --json
test_expect_success "db merge copies the missing metrics, reason and all" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(q "$TMPD/merged.db" "SELECT COUNT(*) || ' ' || COUNT(value) || ' ' || MIN(missing) || ' ' || MAX(missing) FROM metric WHERE name = '$m'")" \
		"4 0 no-interrupt-line no-interrupt-line" &&
	test_is "$(q "$TMPD/merged.db" "SELECT COUNT(*) FROM metric") $(q "$TMPD/merged.db" "SELECT COUNT(*) FROM metric WHERE missing IS NOT NULL")" \
		"$(q "SELECT COUNT(*) FROM metric") $(q "SELECT COUNT(*) FROM metric WHERE missing IS NOT NULL")"
EOT
run_sga show "$uuid" --db "$TMPD/merged.db" --json
test_expect_success "and the merged run shows as the original" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(jq -S -c '[.missing, .metrics]' "$TMPD/out")" "$(jq -S -c '[.missing, .metrics]' "$TMPD/run.json")"
EOT
run_sga db check --db "$TMPD/merged.db" --json
test_expect_success "db check of the merged file: schema $schema, no foreign key problem" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(jq -r '"\(.db_schema_version) \(.foreign_key_problems)"' "$TMPD/out")" "$schema 0"
EOT

# A schema 5 database: the same runs as an sgabench before schema 6 stored them.
cp "$db" "$TMPD/v5.db"
sqlite3 "$TMPD/v5.db" <"$top/scripts/t/fixtures/boot-v7.sql"
sqlite3 "$TMPD/v5.db" <"$top/scripts/t/fixtures/mux-v6.sql"
sqlite3 "$TMPD/v5.db" <"$top/scripts/t/fixtures/metric-v5.sql"
sqlite3 "$TMPD/v5.db" "PRAGMA user_version = 5"
v5_rows=$(metric_rows "$TMPD/v5.db")
test_expect_success "the schema 5 file has every run's measured metrics" - <<-\EOT
	test_is "$(printf '%s\n' "$v5_rows" | wc -l)" "$(q "SELECT COUNT(*) FROM metric WHERE missing IS NULL")" &&
	test_is "$(printf '%s\n' "$v5_rows" | cut -d' ' -f1 | sort -u | wc -l)" 4
EOT
test_expect_success "the schema 5 file has the measured metrics only" - <<-\EOT
	test_is "$(q "$TMPD/v5.db" "SELECT COUNT(*) FROM metric")" "$(q "SELECT COUNT(*) FROM metric WHERE missing IS NULL")"
EOT
run_sga show "$uuid" --db "$TMPD/v5.db" --json
test_expect_success "show reads the schema 5 file as it is: the metric absent, the others as stored" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(jq -r --arg m "$m" '(.missing | has($m) | tostring) + " " + (.metrics | has($m) | tostring)' "$TMPD/out")" "false false" &&
	test_is "$(jq -S -c .metrics "$TMPD/out")" "$(jq -S -c .metrics "$TMPD/run.json")" &&
	test_is "$(q "$TMPD/v5.db" "PRAGMA user_version")" 5
EOT
run_sga db merge "$TMPD/v5.db" -o "$TMPD/from-v5.db" --json
test_expect_success "a schema 5 file merges: its metric rows, none missing" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(metric_rows "$TMPD/from-v5.db")" "$v5_rows" &&
	test_is "$(q "$TMPD/from-v5.db" "SELECT COUNT(*) FROM metric WHERE missing IS NOT NULL")" 0
EOT
db=$TMPD/v5.db
arm_run after
test_expect_success "storing into the schema 5 file migrates it, its rows kept" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(q "PRAGMA user_version")" "$schema" &&
	test_is "$(metric_rows "$db" after)" "$v5_rows" &&
	test_is "$(q "SELECT COUNT(*) FROM metric m JOIN run r ON r.id = m.run_id WHERE r.label <> 'after' AND m.missing IS NOT NULL")" 0
EOT
test_expect_success "and the new run's missing metric is kept with its reason" - <<-\EOT
	test_is "$(q "SELECT COALESCE(m.value, 'NULL') || ' ' || m.missing FROM metric m JOIN run r ON r.id = m.run_id WHERE r.label = 'after' AND m.name = '$m'")" \
		"NULL no-interrupt-line"
EOT
run_sga db check --db "$db" --json
test_expect_success "db check of the migrated file: schema $schema, no foreign key problem" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(jq -r '"\(.db_schema_version) \(.foreign_key_problems)"' "$TMPD/out")" "$schema 0"
EOT
test_done
