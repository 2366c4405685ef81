#!/bin/sh
# t0797: what a verdict rests on when its events were multiplexed. compare
# notes (text without --verbose, and --json) a compared event whose
# readings on either side were scaled over fewer rotations than
# machine/perf_mux.h's threshold, or over an unknown number; the KCIDB
# export gives each event test's trust, share of time counted and
# rotations (or why unknown) in its misc, and stays valid. Exact readings
# add no note. A stored verdict keeps the row's multiplexing object in its
# method, and the report's glance says so beside the verdict. The report
# lists, below its runs, each run with a
# multiplexed estimate, each such event's verdict and rotations; exact runs
# are not listed, and a database of exact runs alone has no such section.
# This host has no PMU: as t0795, the knob SGABENCH_TEST_MUX_INTERVAL
# stands for the PMU's 4 ms interval and stored task-clock readings are
# rewritten as estimates: enabled 200 ms, running 12 ms, 6 % of the time
# over 3 rotations of 4 ms (few-rotations), or running 60 ms, 15 rotations
# (scaled, trusted). 4 KiB pages: no hugepages.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

for tool in jq sqlite3; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "'$tool' not installed"
done
db=$TMPD/m.db
echo 4 >"$TMPD/interval"
echo 0 >"$TMPD/zero"

# mux_runs LABEL N [INTERVAL-FILE]: N small native runs labelled LABEL; fails on the first failure
mux_runs() {
	i=0
	while [ "$i" -lt "$2" ]; do
		SGABENCH_TEST_MUX_INTERVAL=${3:-$TMPD/interval} "$SGABENCH" run --sga-size 16m --rounds 1 \
			--tasks 2 --page-size 4k --events page-faults,task-clock --db "$db" --label "$1" \
			>/dev/null 2>"$TMPD/run.err" || return 1
		i=$((i + 1))
	done
}

# scale LABEL RUNNING-NS [LIMIT]: task 0's task-clock of LABEL's first LIMIT runs (all) an estimate
scale() {
	sqlite3 "$db" "UPDATE value SET enabled = 200000000, running = $2, value = raw * 200000000.0 / $2
		WHERE event = 'task-clock' AND task = 0 AND run_id IN
		(SELECT id FROM run WHERE label = '$1' ORDER BY id LIMIT ${3:--1})"
}

test_expect_success "runs: A (2 of 3 over 3 rotations), B exact, C (15 rotations), U (interval unknown)" - <<-\EOT
	mux_runs A 3 && mux_runs B 3 && mux_runs C 3 && mux_runs U 3 "$TMPD/zero" &&
	scale A 12000000 2 && scale C 60000000 && scale U 60000000 1
EOT

# notes FILE: compare --json's notes that speak of rotations, one a line
notes() { jq -r '.notes[] | select(test("rotations"))' "$1"; }

run_sga compare --baseline label:A --candidate label:B --db "$db" --metric task-clock,page-faults --json
cp "$TMPD/out" "$TMPD/ab.json"
test_expect_success "A vs B: one note, on task-clock's baseline: 3.0 rotations in 2 of 3 runs" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(notes "$TMPD/ab.json" | wc -l)" 1 &&
	notes "$TMPD/ab.json" | grep -q "^'task-clock' in cell '.*': baseline estimates scaled from 3.0 rotations (few-rotations, under 10) in 2 of 3 runs: treat the verdict with care$"
EOT
test_expect_success "--store-verdicts keeps task-clock's multiplexing object with its verdict, page-faults none" - <<-\EOT
	run_sga compare --baseline label:A --candidate label:B --db "$db" --metric task-clock,page-faults \
		--store-verdicts && test_is "$rc" 0 &&
	test_is "$(sqlite3 "$db" "SELECT metric || ' ' || CASE WHEN json_extract(method, '\$.multiplexing') IS NULL
		THEN 'none' ELSE printf('%d %g %d', json_extract(method, '\$.multiplexing.baseline.few_rotations_runs'),
		json_extract(method, '\$.multiplexing.baseline.fewest_rotations'),
		json_extract(method, '\$.multiplexing.candidate.few_rotations_runs')) END FROM verdict ORDER BY metric")" \
		"$(printf 'page-faults none\ntask-clock 2 3 0')"
EOT
test_expect_success "page-faults, exact on both sides, has no such note" - <<-\EOT
	test_is "$(jq '[.notes[] | select(startswith("'"'"'page-faults'"'"'") and test("rotations"))] | length' "$TMPD/ab.json")" 0
EOT
test_expect_success "A vs B --json: task-clock's row has the counts, page-faults' none" - <<-\EOT
	test_is "$(jq -c '.rows[] | select(.metric == "task-clock") | .multiplexing' "$TMPD/ab.json")" \
		'{"min_rotations":10,"baseline":{"few_rotations_runs":2,"fewest_rotations":3,"unknown_runs":0},"candidate":{"few_rotations_runs":0,"fewest_rotations":null,"unknown_runs":0}}' &&
	test_is "$(jq '.rows[] | select(.metric == "page-faults") | has("multiplexing")' "$TMPD/ab.json")" false
EOT
run_sga compare --baseline label:A --candidate label:B --db "$db" --metric task-clock,page-faults
test_expect_success "the text says it without --verbose" - <<-\EOT
	test_is "$rc" 0 &&
	grep -q "^note: 'task-clock' in cell '.*': baseline estimates scaled from 3.0 rotations (few-rotations, under 10) in 2 of 3 runs: treat the verdict with care$" "$TMPD/out"
EOT
run_sga compare --baseline label:B --candidate label:A --db "$db" --metric task-clock --json
test_expect_success "sides swapped: the candidate's estimates" - <<-\EOT
	test_is "$rc" 0 &&
	notes "$TMPD/out" | grep -q ": candidate estimates scaled from 3.0 rotations (few-rotations, under 10) in 2 of 3 runs: "
EOT
run_sga compare --baseline label:B --candidate label:C --db "$db" --json
test_expect_success "15 rotations: scaled and trusted, no note; exact runs none either" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(jq '[.rows[] | select(has("multiplexing"))] | length' "$TMPD/out")" 0 &&
	jq -e '[.rows[] | select(.metric == "task-clock")] | length == 1' "$TMPD/out" >/dev/null &&
	test_is "$(notes "$TMPD/out")" ""
EOT
run_sga compare --baseline label:U --candidate label:A --db "$db" --metric task-clock --json
test_expect_success "an unknown interval: the reason and the share counted; both sides named" - <<-\EOT
	test_is "$rc" 0 &&
	notes "$TMPD/out" | grep -q ": baseline estimates scaled (counted 30% of the time) over an unknown number of rotations (unknown: multiplexing interval unreadable) in 1 of 3 runs; candidate estimates scaled from 3.0 rotations (few-rotations, under 10) in 2 of 3 runs: treat the verdict with care$"
EOT

# ---- KCIDB ----
run_sga export kcidb --db "$db" --origin sgabench_test --output "$TMPD/k.json"
# kmux LABEL EVENT: each of LABEL's runs' EVENT test misc.multiplexing, compact, in run order
kmux() {
	for u in $(sqlite3 "$db" "SELECT uuid FROM run WHERE label = '$1' ORDER BY id"); do
		jq -c --arg id "sgabench_test:$u:$2" '.tests[] | select(.id == $id) | .misc.multiplexing' "$TMPD/k.json"
	done
}
test_expect_success "KCIDB: A's task-clock tests carry few-rotations twice, then exact" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(kmux A task-clock | jq -r '"\(.trust) \(.running_ratio) \(.rotations) \(.min_rotations)"' | head -2 | sort -u)" \
		"few-rotations 0.06 3 10" &&
	test_is "$(kmux A task-clock | sed -n 3p | jq -r .trust)" exact
EOT
test_expect_success "KCIDB: an exact reading's rotations are its running time over 4 ms" - <<-\EOT
	u=$(sqlite3 "$db" "SELECT uuid FROM run WHERE label = 'B' ORDER BY id LIMIT 1") &&
	want=$(sqlite3 "$db" "SELECT MIN(running) / 4e6 FROM value WHERE event = 'page-faults' AND run_id = (SELECT id FROM run WHERE uuid = '$u')") &&
	got=$(jq -r --arg id "sgabench_test:$u:page-faults" '.tests[] | select(.id == $id) | .misc.multiplexing | "\(.trust) \(.running_ratio) \(.rotations)"' "$TMPD/k.json") &&
	awk -v g="$got" -v w="$want" 'BEGIN { split(g, f, " "); exit !(f[1] == "exact" && f[2] == 1 && w > 0 && (f[3] - w) ^ 2 < 1e-12 * w * w) }'
EOT
test_expect_success "KCIDB: C scaled at 15 rotations; U's estimate unknown with the reason, no null" - <<-\EOT
	test_is "$(kmux C task-clock | jq -r '"\(.trust) \(.running_ratio) \(.rotations)"' | sort -u)" "scaled 0.3 15" &&
	test_is "$(kmux U task-clock | head -1)" '{"trust":"unknown","running_ratio":0.3,"rotations_missing":"unreadable","min_rotations":10}' &&
	test_is "$(kmux U page-faults | jq -r '"\(.trust) \(.rotations_missing)"' | sort -u)" "exact unreadable" &&
	test_is "$(jq '[.. | nulls] | length' "$TMPD/k.json")" 0
EOT
test_expect_success "KCIDB: metrics that are no event carry none" - <<-\EOT
	test_is "$(jq '[.tests[] | select(.id | endswith(":wall-s")) | select(.misc | has("multiplexing"))] | length' "$TMPD/k.json")" 0 &&
	test "$(jq '[.tests[] | select(.id | endswith(":wall-s"))] | length' "$TMPD/k.json")" -eq 12
EOT
if python3 -c 'import jsonschema' 2>/dev/null; then test_set_prereq JSONSCHEMA; fi
test_expect_success JSONSCHEMA "KCIDB: the export validates against the v5.3 schema" - <<-\EOT
	python3 - "$top/scripts/t/kcidb-v5.3.schema.json" "$TMPD/k.json" <<-\PY
	import json, sys, jsonschema
	schema = json.load(open(sys.argv[1]))
	v = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
	errs = list(v.iter_errors(json.load(open(sys.argv[2]))))
	for e in errs[:3]:
	    print("# invalid at", "/".join(str(p) for p in e.absolute_path), ":", e.message[:160])
	sys.exit(1 if errs else 0)
	PY
EOT
# ---- the report ----
if command -v gnuplot >/dev/null 2>&1 && command -v awk >/dev/null 2>&1; then test_set_prereq REPORT; fi
# rows LABEL: the report's multiplexing rows of LABEL's runs, label to rotations, sorted
rows() {
	sed -n '/<h3>Multiplexed estimates<\/h3>/,/<\/table>/p' "$TMPD/rep/index.html" |
		grep "<td>$1</td>" | sed 's/<[^>]*>/|/g; s/||*/|/g' | cut -d'|' -f3,5- | sort
}
test_expect_success REPORT "report: the page lists A's two few-rotations runs, C's three, U's one" - <<-\EOT
	"$top/report/mkreport" --db "$db" --out "$TMPD/rep" >"$TMPD/rep.out" 2>&1 &&
	grep -q "<h3>Multiplexed estimates</h3>" "$TMPD/rep/index.html" &&
	grep -q "Over fewer than 10 rotations (few-rotations)" "$TMPD/rep/index.html" &&
	test_is "$(rows A)" "$(printf 'A|task-clock|few-rotations|6 %%|3|\nA|task-clock|few-rotations|6 %%|3|')" &&
	test_is "$(rows C | sort -u)" "C|task-clock|scaled|30 %|15|" && test_is "$(rows C | wc -l)" 3 &&
	test_is "$(rows U)" "U|task-clock|unknown|30 %|unknown (interval unreadable)|"
EOT
test_expect_success REPORT "report: the stored A vs B verdict of task-clock says its estimates' rotations" - <<-\EOT
	grep -q "<td>task-clock</td><td[^>]*>[a-zA-Z-]* (estimates over few or unknown rotations in 2 / 0 runs (base / cand): treat with care)</td>" \
		"$TMPD/rep/index.html" &&
	grep -q "<td>page-faults</td><td[^>]*>[a-zA-Z-]*</td><td>" "$TMPD/rep/index.html" &&
	grep -q "<tr><td>task-clock</td><td[^>]*>multiplexing.baseline.few_rotations_runs</td><td>2</td></tr>" \
		"$TMPD/rep/index.html"
EOT
test_expect_success REPORT "report: B's exact runs and exact events are not listed" - <<-\EOT
	test_is "$(rows B)" "" &&
	test_is "$(sed -n '/<h3>Multiplexed estimates<\/h3>/,/<\/table>/p' "$TMPD/rep/index.html" | grep -c page-faults)" 0
EOT
test_expect_success REPORT "report: a run in the table for each of its scaled events, newest first" - <<-\EOT
	test_is "$(cut -f1 "$TMPD/rep/data/mux.tsv" | tr '\n' ' ')" \
		"$(sqlite3 "$db" "SELECT substr(uuid, 1, 8) FROM run WHERE label IN ('A', 'C', 'U') AND id IN
			(SELECT run_id FROM value WHERE running < enabled) ORDER BY started_at DESC, uuid" | tr '\n' ' ')"
EOT
# B's exact runs alone (the other runs' tasks and values go with them)
sqlite3 "$db" "PRAGMA foreign_keys = ON; DELETE FROM run WHERE label <> 'B'"
test_expect_success REPORT "report: with exact runs alone, no multiplexing section" - <<-\EOT
	test_is "$(sqlite3 "$db" "SELECT COUNT(*) FROM run")" 3 &&
	test_is "$(sqlite3 "$db" "SELECT COUNT(*) FROM value WHERE run_id NOT IN (SELECT id FROM run)")" 0 &&
	"$top/report/mkreport" --db "$db" --out "$TMPD/rep2" >"$TMPD/rep.out" 2>&1 &&
	! grep -q "Multiplexed estimates" "$TMPD/rep2/index.html" &&
	test_is "$(cat "$TMPD/rep2/data/mux.tsv")" ""
EOT
test_done
