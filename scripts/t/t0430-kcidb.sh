#!/bin/sh
# t0430: sgabench export kcidb: a real sweep's runs (native, with counters
# missing for want of a PMU), a failed run and a model run, exported as
# KCIDB v5.3 and validated against the project's own schema
# (scripts/t/kcidb-v5.3.schema.json) with Debian's python3-jsonschema; a
# deliberately broken document is rejected, so the validator validates.
# shellcheck source=scripts/t/tap.sh
. "$(dirname "$0")/tap.sh"

for tool in jq python3 hyperfine flock; do
	command -v "$tool" >/dev/null 2>&1 || { skip "kcidb" "'$tool' not installed"; done_testing; exit; }
done
python3 -c 'import jsonschema' 2>/dev/null || { skip "kcidb" "python3-jsonschema is not installed"; done_testing; exit; }
schema=$top/scripts/t/kcidb-v5.3.schema.json

# validate DOC: exit 0 when DOC is valid against the schema (formats checked).
validate() {
	python3 - "$schema" "$1" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator.check_schema(schema)
doc = json.load(open(sys.argv[2]))
v = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
errs = list(v.iter_errors(doc))
for e in errs[:3]:
    print("# invalid at", "/".join(str(p) for p in e.absolute_path), ":", e.message[:160])
sys.exit(1 if errs else 0)
PY
}

db=$TMPD/k.db
"$top/scripts/sweep" --db "$db" --label smoke-k --seed 3 configs/smoke >"$TMPD/sweep.out" 2>&1 || {
	skip "kcidb" "the smoke sweep fails here: $(tail -n 1 "$TMPD/sweep.out")"
	done_testing
	exit
}
"$SGABENCH" run --db "$db" --label smoke-k --page-size 4k --sga-size 64m --rounds 100000000 --timeout 1 >/dev/null 2>&1 || true
"$SGABENCH" sim --db "$db" --label model-k --tasks 2 --rounds 2 >/dev/null
runs_ok=$(sqlite3 "$db" "SELECT COUNT(*) FROM run WHERE status = 'ok'")
failed=$(sqlite3 "$db" "SELECT COUNT(*) FROM run WHERE status = 'failed'")
is "a failed run is stored to export" "$failed" 1

run_sga export kcidb --db "$db" --origin sgabench_test --output "$TMPD/all.json"
is "export: exit 0" "$rc" 0
ok "the export validates against the KCIDB v5.3 schema" validate "$TMPD/all.json"
is "version 5.3" "$(jq -c .version "$TMPD/all.json")" '{"major":5,"minor":3}'
is "no null anywhere" "$(jq '[.. | nulls] | length' "$TMPD/all.json")" 0
is "every id carries the origin" "$(jq '[.. | objects | .id? // empty | select(startswith("sgabench_test:") | not)] | length' "$TMPD/all.json")" 0
is "one checkout per kernel release" "$(jq '.checkouts | length' "$TMPD/all.json")" "$(sqlite3 "$db" 'SELECT COUNT(DISTINCT kernel) FROM machine')"
is "one build per fingerprint and kernel" "$(jq '.builds | length' "$TMPD/all.json")" "$(sqlite3 "$db" 'SELECT COUNT(*) FROM machine')"
is "the build's architecture is uname -m, lower case" "$(jq -r '.builds[0].architecture' "$TMPD/all.json")" "$(uname -m | tr '[:upper:]' '[:lower:]')"
ok "the machine record is in the build's misc" test "$(jq -r '.builds[0].misc.machine.fingerprint' "$TMPD/all.json")" = "$(jq -r '.builds[0].misc.fingerprint' "$TMPD/all.json")"
is "one test per run and metric, one per failed run" "$(jq '.tests | length' "$TMPD/all.json")" \
	"$(($(sqlite3 "$db" "SELECT COUNT(*) FROM run_metric m JOIN run r ON r.id = m.run_id WHERE r.status = 'ok'") + failed))"
is "a measured value is DONE with {value, unit}" \
	"$(jq -r '[.tests[] | select(.path | endswith(".first-touch-faults"))][0] | .status + " " + (.number | keys | join(","))' "$TMPD/all.json")" "DONE unit,value"
is "first-touch faults of a 1-task 8 MiB 4k run: one per page" \
	"$(jq -r '[.tests[] | select(.path | test("tasks_1[.].*first-touch-faults$")) | select(.misc.label == "smoke-k")][0].number.value' "$TMPD/all.json")" 2048
is "the failed run is one ERROR test with its reason" \
	"$(jq -r '[.tests[] | select(.status == "ERROR")] | length, (.[0].misc.reason | length > 0)' "$TMPD/all.json" | tr '\n' ' ')" "1 true "
ok "a counter missing for want of a PMU is SKIP with the reason" \
	test "$(jq '[.tests[] | select(.status == "SKIP" and (.misc.missing | length) > 0 and (has("number") | not))] | length' "$TMPD/all.json")" -eq \
	"$(sqlite3 "$db" "SELECT COUNT(*) FROM run_metric m JOIN run r ON r.id = m.run_id WHERE r.status = 'ok' AND m.value IS NULL AND m.missing NOT IN ('permission', 'multiplexed-out')")"
is "a permission or multiplexed-out counter is MISS" \
	"$(jq '[.tests[] | select(.status == "MISS")] | length' "$TMPD/all.json")" \
	"$(sqlite3 "$db" "SELECT COUNT(*) FROM run_metric m JOIN run r ON r.id = m.run_id WHERE r.status = 'ok' AND m.missing IN ('permission', 'multiplexed-out')")"
is "paths are dot-separated words" "$(jq '[.tests[].path | select(test("^[a-zA-Z0-9_-]+([.][a-zA-Z0-9_-]+)*$") | not)] | length' "$TMPD/all.json")" 0
ok "per-task values of an event are in misc" test "$(jq '[.tests[] | select(.misc.per_task) | .misc.per_task | length] | max' "$TMPD/all.json")" -ge 2
is "the run uuid and configuration are in misc" "$(jq '[.tests[] | select((.misc.run_uuid | length) != 36 or (.misc.config | type) != "object")] | length' "$TMPD/all.json")" 0

run_sga export kcidb label:model-k --db "$db" --origin sgabench_test
is "a selector: exit 0" "$rc" 0
is "a selector exports only its runs" "$(jq -r '[.tests[].misc.label] | unique | join(",")' "$TMPD/out")" model-k
ok "and validates" validate "$TMPD/out"

# The validator must be able to say no.
jq '.tests[0].number.value = null' "$TMPD/all.json" >"$TMPD/bad1.json"
rc=0; validate "$TMPD/bad1.json" >"$TMPD/v1" || rc=$?
is "a document with a null is rejected" "$rc" 1
jq '.tests[0].colour = "red"' "$TMPD/all.json" >"$TMPD/bad2.json"
rc=0; validate "$TMPD/bad2.json" >"$TMPD/v2" || rc=$?
is "a key outside the schema is rejected" "$rc" 1
jq '.builds[0].origin = "Bad-Origin"' "$TMPD/all.json" >"$TMPD/bad3.json"
rc=0; validate "$TMPD/bad3.json" >"$TMPD/v3" || rc=$?
is "an origin outside ^[a-z0-9_]+\$ is rejected" "$rc" 1
jq '.tests[0].status = "OK"' "$TMPD/all.json" >"$TMPD/bad4.json"
rc=0; validate "$TMPD/bad4.json" >"$TMPD/v4" || rc=$?
is "an unknown status is rejected" "$rc" 1

run_sga export kcidb --db "$db"
is "no --origin: exit 2" "$rc" 2
run_sga export kcidb --db "$db" --origin Bad-Origin
is "an origin outside ^[a-z0-9_]+\$: exit 2" "$rc" 2
run_sga export csv --db "$db" --origin x
is "an unknown format: exit 2" "$rc" 2
run_sga export kcidb yesterday --db "$db" --origin x
is "a bad selector: exit 2" "$rc" 2
run_sga export kcidb --db "$TMPD/none.db" --origin x
is "no database: exit 3" "$rc" 3
is "runs stored before the export are all there" "$(sqlite3 "$db" "SELECT COUNT(*) FROM run WHERE status = 'ok'")" "$runs_ok"
done_testing
