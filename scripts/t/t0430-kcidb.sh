#!/bin/sh
# t0430: sgabench export kcidb: a real sweep's runs (native, with counters
# missing for want of a PMU), a failed run and a model run, exported as
# KCIDB v5.3 and validated against the project's own schema
# (scripts/t/kcidb-v5.3.schema.json) with Debian's python3-jsonschema; a
# deliberately broken document is rejected, so the validator validates.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

for tool in jq python3 hyperfine flock; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "'$tool' not installed"
done
python3 -c 'import jsonschema' 2>/dev/null || skip_all "python3-jsonschema is not installed"
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
rc=0
"$top/scripts/sweep" --db "$db" --label smoke-k --seed 3 configs/smoke >"$TMPD/sweep.out" 2>&1 || rc=$?
test_expect_success "the smoke sweep to export runs (4 KiB pages, no hugepages needed)" - <<-\EOT
	test_is "$rc" 0 || { tail -n 3 "$TMPD/sweep.out" | sed 's/^/# /'; false; }
EOT
"$SGABENCH" run --db "$db" --label smoke-k --page-size 4k --sga-size 64m --rounds 100000000 --timeout 1 >/dev/null 2>&1 || true
"$SGABENCH" sim --db "$db" --label model-k --tasks 2 --rounds 2 >/dev/null
runs_ok=$(sqlite3 "$db" "SELECT COUNT(*) FROM run WHERE status = 'ok'")
failed=$(sqlite3 "$db" "SELECT COUNT(*) FROM run WHERE status = 'failed'")
test_expect_success "a failed run is stored to export" - <<-\EOT
	test_is "$failed" 1
EOT

run_sga export kcidb --db "$db" --origin sgabench_test --output "$TMPD/all.json"
test_expect_success "export: exit 0" - <<-\EOT
	test_is "$rc" 0
EOT
test_expect_success "the export validates against the KCIDB v5.3 schema" - <<-\EOT
	validate "$TMPD/all.json"
EOT
test_expect_success "version 5.3" - <<-\EOT
	test_is "$(jq -c .version "$TMPD/all.json")" '{"major":5,"minor":3}'
EOT
test_expect_success "no null anywhere" - <<-\EOT
	test_is "$(jq '[.. | nulls] | length' "$TMPD/all.json")" 0
EOT
test_expect_success "every id carries the origin" - <<-\EOT
	test_is "$(jq '[.. | objects | .id? // empty | select(startswith("sgabench_test:") | not)] | length' "$TMPD/all.json")" 0
EOT
test_expect_success "one checkout per kernel release" - <<-\EOT
	test_is "$(jq '.checkouts | length' "$TMPD/all.json")" "$(sqlite3 "$db" 'SELECT COUNT(DISTINCT kernel) FROM machine')"
EOT
test_expect_success "one build per machine name, fingerprint and kernel" - <<-\EOT
	test_is "$(jq '.builds | length' "$TMPD/all.json")" \
		"$(sqlite3 "$db" 'SELECT COUNT(*) FROM (SELECT DISTINCT machine_id, machine_name FROM run)')"
EOT
test_expect_success "the build's architecture is uname -m, lower case" - <<-\EOT
	test_is "$(jq -r '.builds[0].architecture' "$TMPD/all.json")" "$(uname -m | tr '[:upper:]' '[:lower:]')"
EOT
test_expect_success "the machine record is in the build's misc" - <<-\EOT
	test "$(jq -r '.builds[0].misc.machine.fingerprint' "$TMPD/all.json")" = "$(jq -r '.builds[0].misc.fingerprint' "$TMPD/all.json")"
EOT
test_expect_success "one test per run and metric, one per failed run" - <<-\EOT
	test_is "$(jq '.tests | length' "$TMPD/all.json")" \
		"$(($(sqlite3 "$db" "SELECT COUNT(*) FROM run_metric m JOIN run r ON r.id = m.run_id WHERE r.status = 'ok'") + failed))"
EOT
test_expect_success "a measured value is DONE with {value, unit}" - <<-\EOT
	test_is "$(jq -r '[.tests[] | select(.path | endswith(".first-touch-faults"))][0] | .status + " " + (.number | keys | join(","))' "$TMPD/all.json")" "DONE unit,value"
EOT
test_expect_success "first-touch faults of a 1-task 8 MiB 4k run: one per page" - <<-\EOT
	test_is "$(jq -r '[.tests[] | select(.path | test("tasks_1[.].*first-touch-faults$")) | select(.misc.label == "smoke-k")][0].number.value' "$TMPD/all.json")" 2048
EOT
test_expect_success "the failed run is one ERROR test with its reason" - <<-\EOT
	test_is "$(jq -r '[.tests[] | select(.status == "ERROR")] | length, (.[0].misc.reason | length > 0)' "$TMPD/all.json" | tr '\n' ' ')" "1 true "
EOT
test_expect_success "a counter missing for want of a PMU is SKIP with the reason" - <<-\EOT
	test "$(jq '[.tests[] | select(.status == "SKIP" and (.misc.missing | length) > 0 and (has("number") | not))] | length' "$TMPD/all.json")" -eq \
		"$(sqlite3 "$db" "SELECT COUNT(*) FROM run_metric m JOIN run r ON r.id = m.run_id WHERE r.status = 'ok' AND m.value IS NULL AND m.missing NOT IN ('permission', 'multiplexed-out')")"
EOT
test_expect_success "a permission or multiplexed-out counter is MISS" - <<-\EOT
	test_is "$(jq '[.tests[] | select(.status == "MISS")] | length' "$TMPD/all.json")" \
		"$(sqlite3 "$db" "SELECT COUNT(*) FROM run_metric m JOIN run r ON r.id = m.run_id WHERE r.status = 'ok' AND m.missing IN ('permission', 'multiplexed-out')")"
EOT
test_expect_success "paths are dot-separated words" - <<-\EOT
	test_is "$(jq '[.tests[].path | select(test("^[a-zA-Z0-9_-]+([.][a-zA-Z0-9_-]+)*$") | not)] | length' "$TMPD/all.json")" 0
EOT
# A path names the cell's axes that vary among the exported runs, the full
# cell being in misc: every axis word of a path is of a key whose values
# differ among the tests' cells, every such key is in each path, and two
# cells never share a path.
test_expect_success "a path is sgabench, the cell's words whose key varies, the metric" - <<-\EOT
	jq -r '[.tests[].misc.cell] as $cells | ($cells | length) as $n
		| ([$cells[] | split(" ")[] | select(length > 0)] | group_by(split("=")[0])
		   | map(select((unique | length) > 1 or length < $n) | .[0] | split("=")[0])) as $vary
		| .tests[] | (.id | split(":") | .[2:] | join(":")) as $metric
		| (["sgabench"] + [.misc.cell | split(" ")[] | select(length > 0)
			| select((split("=")[0]) as $k | $vary | index([$k]))]
		   + (if $metric == "" then [] else [$metric] end)
		   | map(gsub("[^A-Za-z0-9_-]"; "_")) | join(".")) as $want
		| select(.path != $want) | "\(.path) != \($want)"' "$TMPD/all.json" >"$TMPD/badpath" &&
	test_is "$(head -n 3 "$TMPD/badpath")" "" &&
	test "$(jq '[.tests[].path | split(".") | length] | max' "$TMPD/all.json")" -ge 4
EOT
test_expect_success "no axis every run shares is in a path (the zipf theta)" - <<-\EOT
	test_is "$(jq '[.tests[].path | select(test("zipf"))] | length' "$TMPD/all.json")" 0 &&
	test_is "$(jq '[.tests[].misc.cell | select(test("zipf_theta="))] | length > 0' "$TMPD/all.json")" true
EOT
test_expect_success "two cells never share a path; the full cell is in misc" - <<-\EOT
	test_is "$(jq '[.tests[] | {p: (.path | split(".") | .[:-1] | join(".")), c: .misc.cell}] | unique
		| group_by(.p) | map(select(length > 1)) | length' "$TMPD/all.json")" 0
EOT
test_expect_success "per-task values of an event are in misc" - <<-\EOT
	test "$(jq '[.tests[] | select(.misc.per_task) | .misc.per_task | length] | max' "$TMPD/all.json")" -ge 2
EOT
test_expect_success "the run uuid and configuration are in misc" - <<-\EOT
	test_is "$(jq '[.tests[] | select((.misc.run_uuid | length) != 36 or (.misc.config | type) != "object")] | length' "$TMPD/all.json")" 0
EOT

run_sga export kcidb label:model-k --db "$db" --origin sgabench_test
test_expect_success "a selector: exit 0" - <<-\EOT
	test_is "$rc" 0
EOT
test_expect_success "a selector exports only its runs" - <<-\EOT
	test_is "$(jq -r '[.tests[].misc.label] | unique | join(",")' "$TMPD/out")" model-k
EOT
test_expect_success "and validates" - <<-\EOT
	validate "$TMPD/out"
EOT

# Two machines of a fleet on one fingerprint are two builds: a test's
# build is its own machine's.
fdb=$TMPD/fleet.db
for m in A B; do
	SGABENCH_MACHINE=$m SGABENCH_TEST_FINGERPRINT=f1ee7000f1ee7000 "$SGABENCH" run --db "$fdb" \
		--label fleet --page-size 4k --sga-size 4m --tasks 1 --rounds 2 --quiet || echo "run $m failed"
done >"$TMPD/fleet.out" 2>&1
run_sga export kcidb --db "$fdb" --origin sgabench_test --output "$TMPD/fleet.json"
test_expect_success "two machines on one fingerprint: two builds, valid" - <<-\EOT
	test_is "$rc" 0 &&
	k=$(jq -r '.checkouts[0].misc.kernel_release' "$TMPD/fleet.json") &&
	test_is "$(jq -r '.builds[] | .id + " " + .misc.machine_name + " " + .misc.fingerprint' "$TMPD/fleet.json")" \
		"$(printf 'sgabench_test:f1ee7000f1ee7000:%s:%s %s f1ee7000f1ee7000\n' "$k" A A "$k" B B)" &&
	validate "$TMPD/fleet.json"
EOT
test_expect_success "each machine's tests are in its own build" - <<-\EOT
	test_is "$(jq -r '[.tests[].misc.machine_name] | unique | join(",")' "$TMPD/fleet.json")" A,B &&
	test_is "$(jq '(.builds | map({(.misc.machine_name): .id}) | add) as $b
		| [.tests[] | select(.build_id != $b[.misc.machine_name])] | length' "$TMPD/fleet.json")" 0
EOT

# The validator must be able to say no.
jq '.tests[0].number.value = null' "$TMPD/all.json" >"$TMPD/bad1.json"
rc=0; validate "$TMPD/bad1.json" >"$TMPD/v1" || rc=$?
test_expect_success "a document with a null is rejected" - <<-\EOT
	test_is "$rc" 1
EOT
jq '.tests[0].colour = "red"' "$TMPD/all.json" >"$TMPD/bad2.json"
rc=0; validate "$TMPD/bad2.json" >"$TMPD/v2" || rc=$?
test_expect_success "a key outside the schema is rejected" - <<-\EOT
	test_is "$rc" 1
EOT
jq '.builds[0].origin = "Bad-Origin"' "$TMPD/all.json" >"$TMPD/bad3.json"
rc=0; validate "$TMPD/bad3.json" >"$TMPD/v3" || rc=$?
test_expect_success "an origin outside ^[a-z0-9_]+\$ is rejected" - <<-\EOT
	test_is "$rc" 1
EOT
jq '.tests[0].status = "OK"' "$TMPD/all.json" >"$TMPD/bad4.json"
rc=0; validate "$TMPD/bad4.json" >"$TMPD/v4" || rc=$?
test_expect_success "an unknown status is rejected" - <<-\EOT
	test_is "$rc" 1
EOT

run_sga export kcidb --db "$db"
test_expect_success "no --origin: exit 2" - <<-\EOT
	test_is "$rc" 2
EOT
run_sga export kcidb --db "$db" --origin Bad-Origin
test_expect_success "an origin outside ^[a-z0-9_]+\$: exit 2" - <<-\EOT
	test_is "$rc" 2
EOT
run_sga export csv --db "$db" --origin x
test_expect_success "an unknown format: exit 2" - <<-\EOT
	test_is "$rc" 2
EOT
run_sga export kcidb yesterday --db "$db" --origin x
test_expect_success "a bad selector: exit 2" - <<-\EOT
	test_is "$rc" 2
EOT
run_sga export kcidb --db "$TMPD/none.db" --origin x
test_expect_success "no database: exit 3" - <<-\EOT
	test_is "$rc" 3
EOT
test_expect_success "runs stored before the export are all there" - <<-\EOT
	test_is "$(sqlite3 "$db" "SELECT COUNT(*) FROM run WHERE status = 'ok'")" "$runs_ok"
EOT
test_done
