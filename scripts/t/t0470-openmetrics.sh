#!/bin/sh
# t0470: sgabench export openmetrics writes each machine's latest nightly
# verdicts in the Prometheus text format: promtool check metrics accepts
# it, every cell and metric has exactly one verdict state set to 1, the
# metrics carry their unit and help, and --output replaces the file by a
# rename (no temporary file is left). A machine is its name: two machines
# on one fingerprint (fixtures/fleet-verdicts.sql) are two series sets,
# each with its own latest comparison by time, then id.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

test_lazy_prereq PROMTOOL 'command -v promtool' "promtool not installed (apt-get install prometheus)"
db="$TMPD/om.db"

# Two nights of five 4k runs each (no hugepages: the fewest that can
# reach alpha 0.01), compared and stored.
test_expect_success 'two nights compared with --store-verdicts' '
	failed=0 &&
	for night in 20261201 20261202; do
		for i in 1 2 3 4 5; do
			"$SGABENCH" run --db "$db" --label "nightly-$night" --page-size 4k --sga-size 4m \
				--tasks 1 --rounds 2 --quiet || failed=1
		done
	done &&
	test_is "$failed" 0 &&
	"$SGABENCH" compare --db "$db" --baseline label:nightly-20261201 \
		--candidate label:nightly-20261202 --metric first-touch-faults,sga-pte-bytes \
		--store-verdicts >"$TMPD/cmp" 2>&1
'

test_expect_success 'export openmetrics prints a state set per cell and metric' '
	"$SGABENCH" export openmetrics --db "$db" >"$TMPD/om" &&
	test_is "$(grep -c "^sgabench_verdict{" "$TMPD/om")" 8 &&
	test_is "$(grep "^sgabench_verdict{" "$TMPD/om" | grep -c " 1$")" 2 &&
	grep -q "^sgabench_verdict{.*metric=\"first-touch-faults\",verdict=\"no-change\"} 1$" "$TMPD/om" &&
	grep -q "^sgabench_verdict_timestamp_seconds{.*candidate=\"label:nightly-20261202\"} [0-9]*$" "$TMPD/om"
'

test_expect_success 'every family has its help and type; metrics have unit and meaning' '
	for f in $(sed -n "s/^\(sgabench_[a-z_]*\)[{ ].*/\1/p" "$TMPD/om" | sort -u); do
		grep -q "^# HELP $f " "$TMPD/om" && grep -q "^# TYPE $f gauge$" "$TMPD/om" || echo "$f"
	done >"$TMPD/bad" &&
	test_is "$(cat "$TMPD/bad")" "" &&
	grep -q "^sgabench_metric_info{metric=\"sga-pte-bytes\",unit=\"B\",help=\"page tables the tasks added for the SGA" "$TMPD/om"
'

test_expect_success PROMTOOL 'promtool check metrics accepts it' '
	promtool check metrics <"$TMPD/om" >"$TMPD/lint" 2>&1
'

test_expect_success '--output renames a complete file into place' '
	mkdir -p "$TMPD/textfile" && echo stale >"$TMPD/textfile/sgabench.prom" &&
	"$SGABENCH" export openmetrics --db "$db" --output "$TMPD/textfile/sgabench.prom" &&
	cmp "$TMPD/om" "$TMPD/textfile/sgabench.prom" &&
	test_is "$(ls "$TMPD/textfile")" sgabench.prom
'

test_expect_success 'a selector picks the comparison; a bad one is a usage error' '
	"$SGABENCH" export openmetrics --db "$db" "label:nightly-2027%" >"$TMPD/none" 2>"$TMPD/err" &&
	test_is "$(grep -c "^sgabench_verdict{" "$TMPD/none")" 0 &&
	grep -q "no stored comparison" "$TMPD/err" &&
	run_sga export openmetrics --db "$db" tonight &&
	test_is "$rc" 2
'
# Two machines on one fingerprint, through compare: each is judged and
# exported under its own name, with the fingerprint they share.
test_expect_success 'two named machines on one fingerprint are two series sets' '
	fdb="$TMPD/fleet.db" && failed=0 &&
	for m in A B; do
		for night in 20261201 20261202; do
			for i in 1 2 3 4 5; do
				SGABENCH_MACHINE=$m SGABENCH_TEST_FINGERPRINT=f1ee7000f1ee7000 \
				"$SGABENCH" run --db "$fdb" --label "nightly-$night" --page-size 4k \
					--sga-size 4m --tasks 1 --rounds 2 --quiet || failed=1
			done
		done
	done &&
	test_is "$failed" 0 &&
	"$SGABENCH" compare --db "$fdb" --baseline label:nightly-20261201 \
		--candidate label:nightly-20261202 --metric first-touch-faults \
		--store-verdicts >"$TMPD/fcmp" 2>&1 &&
	"$SGABENCH" export openmetrics --db "$fdb" >"$TMPD/fom" &&
	for m in A B; do
		grep "^sgabench_verdict{machine=\"$m\",fingerprint=\"f1ee7000f1ee7000\"," "$TMPD/fom" |
			grep -c " 1$"
	done >"$TMPD/fn" &&
	test_is "$(cat "$TMPD/fn")" "$(printf "1\n1")" &&
	test_is "$(grep -c "^sgabench_verdict_timestamp_seconds{" "$TMPD/fom")" 2
'

test_expect_success SQLITE3 'a schema 3 file (verdicts without machine names) exports, read-only' '
	cp "$db" "$TMPD/v3.db" &&
	sqlite3 "$TMPD/v3.db" <"$FIXTURES/boot-v7.sql" &&
	sqlite3 "$TMPD/v3.db" <"$FIXTURES/mux-v6.sql" &&
	sqlite3 "$TMPD/v3.db" <"$FIXTURES/metric-v5.sql" &&
	sqlite3 "$TMPD/v3.db" "DROP INDEX run_kernel_variant; ALTER TABLE run DROP COLUMN kernel_variant;
		DROP INDEX run_machine_name; ALTER TABLE run DROP COLUMN machine_name;
		ALTER TABLE verdict DROP COLUMN machine_name; PRAGMA user_version = 3" &&
	"$SGABENCH" export openmetrics --db "$TMPD/v3.db" >"$TMPD/om3" &&
	test_is "$(sqlite3 "$TMPD/v3.db" "PRAGMA user_version")" 3 &&
	host=$(sqlite3 "$TMPD/v3.db" "SELECT hostname FROM machine LIMIT 1") &&
	test_is "$(grep -c "^sgabench_verdict{machine=\"$host\"" "$TMPD/om3")" \
		"$(grep -c "^sgabench_verdict{" "$TMPD/om")"
'

test_expect_success SQLITE3 'each machine carries its latest stored comparison by time' '
	vdb="$TMPD/verdicts.db" &&
	"$SGABENCH" db init --db "$vdb" >/dev/null &&
	sqlite3 "$vdb" <"$FIXTURES/fleet-verdicts.sql" &&
	"$SGABENCH" export openmetrics --db "$vdb" >"$TMPD/vom" &&
	test_is "$(grep -c "^sgabench_verdict{" "$TMPD/vom")" 16 &&
	l="fingerprint=\"f1ee7000f1ee7000\",cell=\"tasks=4\",metric=\"first-touch-faults\"" &&
	grep -qx "sgabench_verdict{machine=\"A\",$l,verdict=\"regression\"} 1" "$TMPD/vom" &&
	grep -qx "sgabench_verdict{machine=\"B\",$l,verdict=\"no-change\"} 1" "$TMPD/vom" &&
	grep -qx "sgabench_verdict_ratio{machine=\"A\",$l} 1.5" "$TMPD/vom" &&
	grep -qx "sgabench_verdict_timestamp_seconds{machine=\"A\",fingerprint=\"f1ee7000f1ee7000\",candidate=\"label:nightly-20261202\"} 1796180400" "$TMPD/vom" &&
	grep -qx "sgabench_verdict_timestamp_seconds{machine=\"B\",fingerprint=\"f1ee7000f1ee7000\",candidate=\"label:nightly-20261202\"} 1796184000" "$TMPD/vom"
'

test_expect_success SQLITE3,PROMTOOL 'promtool accepts the two machines'"'"' exposition' '
	promtool check metrics <"$TMPD/vom" >"$TMPD/vlint" 2>&1
'

test_expect_success SQLITE3 'of two comparisons stored in one second, the later id counts' '
	sqlite3 "$vdb" "INSERT INTO verdict (id, created_at, baseline, candidate, cell, metric,
		machine_id, machine_name, n_base, n_cand, ratio, verdict, method) VALUES (6,
		'\''2026-12-02T03:00:00Z'\'', '\''label:nightly-20261130'\'', '\''label:nightly-20261202'\'',
		'\''tasks=4'\'', '\''first-touch-faults'\'', 1, '\''A'\'', 5, 5, 0.5, '\''improvement'\'', '\''{}'\'')" &&
	"$SGABENCH" export openmetrics --db "$vdb" >"$TMPD/vom2" &&
	test_is "$(grep -c "^sgabench_verdict{machine=\"A\"" "$TMPD/vom2")" 4 &&
	grep -qx "sgabench_verdict{machine=\"A\",$l,verdict=\"improvement\"} 1" "$TMPD/vom2"
'
test_done
