#!/bin/sh
# t0620: scripts/nightly with the real 'sgabench compare' and the test
# double of 'sgabench run' from t0520 (so the verdicts do not depend on this
# machine's noise): quiet (0) on unchanged history, 1 on a regression
# injected into history, 2 (never 0 or 1) on harness errors, and two
# nightly jobs on one database at once. t0621 runs it as another user.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"

if ! "$SGABENCH" compare --help >/dev/null 2>&1; then
	skip_all "nightly: 'sgabench compare --help' does not work yet"
fi
for tool in hyperfine sqlite3 flock; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "nightly: '$tool' not installed"
done
# The test double of 'sgabench run' (a fixture, shared with t0520).
cp "$FIXTURES/sgabench-run-double" "$TMPD/double"
test_expect_success "the test double is there" 'grep -q REAL_SGABENCH "$TMPD/double"'
REAL_SGABENCH=$SGABENCH
SGABENCH_BIN="$TMPD/double"
export REAL_SGABENCH SGABENCH_BIN

cat >"$TMPD/cfg" <<'EOF2'
SWEEP_AXES="tasks"
SWEEP_TASKS="1 2"
SWEEP_PASSES=2
SWEEP_RUNS=2
SWEEP_WARMUP=0
SWEEP_METRICS="first-touch-faults jitter"
EOF2
db="$TMPD/n.db"
# The first night: nothing to compare with, so no regression (and it says so).
"$top/scripts/sweep" -q --db "$db" --label nightly-20261120 "$TMPD/cfg" >/dev/null 2>&1
rc=0
"$top/scripts/nightly" --db "$db" --label nightly-20261120 --no-sweep "$TMPD/cfg" >"$TMPD/out" 2>&1 || rc=$?
test_expect_success "the first night: exit 0" 'test_is "$rc" 0'
test_expect_success "it says there is no baseline yet" 'grep -q "first night on machine .*: no baseline yet" "$TMPD/out"'
# Six more earlier nights.
for day in 21 22 23 24 25 26; do
	"$top/scripts/sweep" -q --db "$db" --label "nightly-202611$day" "$TMPD/cfg" >/dev/null 2>&1
done
test_expect_success "seven nights of history" - <<-\EOT
	test_is "$(sqlite3 "$db" "SELECT COUNT(DISTINCT label) FROM run WHERE label GLOB 'nightly-*'")" 7
EOT

rc=0
"$top/scripts/nightly" --db "$db" --label nightly-20261127 "$TMPD/cfg" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
test_expect_success "unchanged code: exit 0" 'test_is "$rc" 0'
test_expect_success "it says so" 'grep -q "^nightly: no regression" "$TMPD/out"'
test_expect_success "it prints the verdict table" 'grep -q "tasks=2 first-touch-faults .* no-change" "$TMPD/out"'
test_expect_success "it compared against the 7 nights" 'grep -q "baseline  last-7-nights = nightly-20261126 .* nightly-20261120" "$TMPD/out"'
test_expect_success "tonight's runs are stored" - <<-\EOT
	test_is "$(sqlite3 "$db" "SELECT COUNT(*) FROM run WHERE label = 'nightly-20261127'")" 8
EOT
test_expect_success "the verdicts are stored" - <<-\EOT
	test_is "$(sqlite3 "$db" "SELECT COUNT(*) FROM verdict WHERE candidate = 'label:nightly-20261127'")" 4
EOT

# The floor is the baseline's own: for nights that do not interleave with
# tonight, at least the range of the 7 nights' medians of jitter over the
# median of all their runs (computed here by hand, with awk).
run_sga compare --db "$db" --baseline last-7-nights --candidate label:nightly-20261127 --metric jitter --json
cell1=$(json '$.rows[0].cell')
range=$(sqlite3 -separator ' ' "$db" "SELECT r.label, m.value FROM run r JOIN metric m ON m.run_id = r.id
	WHERE m.name = 'jitter' AND r.label GLOB 'nightly-2026112[0-6]' AND r.cell = '$cell1'
	ORDER BY r.label, m.value" | awk '
	function med(a, n) { return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
	{ if ($1 != lab && n) { m = med(v, n); lo = (lo == "" || m < lo) ? m : lo; hi = (m > hi) ? m : hi; n = 0 }
	  lab = $1; v[++n] = $2; all[++na] = $2 }
	END { m = med(v, n); lo = (m < lo) ? m : lo; hi = (m > hi) ? m : hi
	      for (i = 1; i <= na; i++) for (j = i + 1; j <= na; j++) if (all[j] < all[i]) { t = all[i]; all[i] = all[j]; all[j] = t }
	      printf "%.6f", (hi - lo) / med(all, na) }')
test_expect_success "the floor between nights is the range of the baseline nights' medians ($range)" - <<-\EOT
	test_is "$(sqlite3 :memory: "SELECT printf('%.6f', json_extract(readfile('$TMPD/out'), '\$.rows[0].floor_between'))")" "$range" &&
	test_is "$(json '$.rows[0].baseline_sessions') $(json '$.rows[0].interleaved')" "7 0"
EOT

# A past night judged again: its last-N-nights are the nights before it,
# never itself or a later one.
run_sga compare --db "$db" --baseline last-3-nights --candidate label:nightly-20261123 --metric first-touch-faults
test_expect_success "a past night's last-3-nights are the three nights before it" - <<-\EOT
	grep -q "^baseline  last-3-nights = nightly-20261122 nightly-20261121 nightly-20261120 (24 runs)$" "$TMPD/out"
EOT
# A baseline median of 0: no ratio, so the headline gives the medians and
# the table no number where there is none.
cp "$db" "$TMPD/zero.db"
sqlite3 "$TMPD/zero.db" "UPDATE metric SET value = 0 WHERE name = 'first-touch-faults'
	AND run_id IN (SELECT id FROM run WHERE label <> 'nightly-20261127')"
run_sga compare --db "$TMPD/zero.db" --baseline last-3-nights --candidate label:nightly-20261127 --metric first-touch-faults
test_expect_success "from a median of 0: the medians in the headline, '-' for the ratio and CI" - <<-\EOT
	test_is "$rc" 1 &&
	grep -q "^regression: machine [^ ]*, tasks=1: first-touch-faults from 0 to 100 (p [0-9.e-]*)$" "$TMPD/out" &&
	grep -q "^tasks=2 first-touch-faults .* 0 *200 *- - .* regression$" "$TMPD/out" &&
	! grep -q "inf\|nan" "$TMPD/out"
EOT
cp "$db" "$TMPD/gone.db"
sqlite3 "$TMPD/gone.db" "DELETE FROM metric WHERE name = 'first-touch-faults'
	AND run_id IN (SELECT id FROM run WHERE label <> 'nightly-20261127')"
run_sga compare --db "$TMPD/gone.db" --baseline last-3-nights --candidate label:nightly-20261127 \
	--metric first-touch-faults,jitter
test_expect_success "a side without the metric: '-' for its median, never nan" - <<-\EOT
	grep -q "^tasks=1 first-touch-faults *0 *4 *- *100 .* insufficient$" "$TMPD/out" &&
	! grep -q "nan\|inf" "$TMPD/out"
EOT
sqlite3 "$TMPD/zero.db" "UPDATE metric SET value = 0 WHERE name = 'first-touch-faults'"
run_sga compare --db "$TMPD/zero.db" --baseline last-3-nights --candidate label:nightly-20261127 --metric first-touch-faults
test_expect_success "medians of 0 on both sides: said so, not 'too few runs'" - <<-\EOT
	test_is "$rc" 0 && grep -q "; 2 rows with a baseline median of 0 (no relative change defined)$" "$TMPD/out" &&
	! grep -q "could resolve no change (too few runs)" "$TMPD/out"
EOT
# Two machines: "tonight" is each one's latest night; one that has not run
# since is named.
for n in A:20261120 A:20261121 B:20261120; do
	SGABENCH_MACHINE=${n%%:*} "$top/scripts/sweep" -q --db "$TMPD/ab.db" --label "nightly-${n#*:}" "$TMPD/cfg" \
		>/dev/null 2>&1
done
run_sga compare --db "$TMPD/ab.db" --baseline last-1-nights --candidate tonight --metric first-touch-faults
test_expect_success "tonight older on one machine than the latest night: a warning names it" - <<-\EOT
	grep -qx "sgabench: warning: tonight on machine 'B' is nightly-20261120, older than the latest night, $(
		)nightly-20261121: it has not run since" "$TMPD/err" &&
	test_is "$(grep -c "tonight on machine" "$TMPD/err")" 1
EOT
# A step inside the first night is no change between nights: history per
# night puts no change point at #0 (nothing comes before it).
printf 'SWEEP_AXES="tasks"\nSWEEP_TASKS="1"\nSWEEP_PASSES=10\nSWEEP_RUNS=2\nSWEEP_WARMUP=0\n' >"$TMPD/hcfg"
for n in 20261120 20261121; do
	"$top/scripts/sweep" -q --db "$TMPD/h.db" --label "nightly-$n" "$TMPD/hcfg" >/dev/null 2>&1
done
sqlite3 "$TMPD/h.db" "UPDATE metric SET value = 1000 WHERE name = 'first-touch-faults' AND run_id IN
	(SELECT id FROM run WHERE label = 'nightly-20261120' ORDER BY id LIMIT 10 OFFSET 10)
	OR run_id IN (SELECT id FROM run WHERE label = 'nightly-20261121')"
run_sga history --db "$TMPD/h.db" --metric first-touch-faults --json
test_expect_success "history: a step inside the first night is no change point at #0" - <<-\EOT
	test_is "$rc:$(jq -r '[.series[].points | length] | join(" ")' "$TMPD/out"):$(jq '.change_points | length' "$TMPD/out")" \
		"0:2:0"
EOT
# Inject a regression into history: the earlier nights took 20 % fewer faults.
cp "$db" "$TMPD/reg.db"
sqlite3 "$TMPD/reg.db" "UPDATE metric SET value = value * 0.8 WHERE name = 'first-touch-faults'
	AND run_id IN (SELECT id FROM run WHERE label GLOB 'nightly-2026112[0-6]')"
rc=0
"$top/scripts/nightly" --db "$TMPD/reg.db" --label nightly-20261127 --no-sweep "$TMPD/cfg" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
test_expect_success "regression injected into history: exit 1" 'test_is "$rc" 1'
test_expect_success "it says so" 'grep -q "^nightly: confirmed regression" "$TMPD/out"'
test_expect_success "the verdict names the cell and metric" 'grep -q "tasks=2 first-touch-faults .* 1.2500 .* regression" "$TMPD/out"'
test_expect_success "the noisy metric stays quiet" - <<-\EOT
	sh -c "! grep -q 'jitter .* regression' '$TMPD/out'"
EOT

# Harness errors are 2, never 0 or 1.
rc=0
FAIL_TASKS=2 "$top/scripts/nightly" --db "$TMPD/reg.db" --label nightly-20261128 "$TMPD/cfg" >/dev/null 2>"$TMPD/err" || rc=$?
test_expect_success "a crashing run: exit 2 (even with a regression in history)" 'test_is "$rc" 2'
test_expect_success "it says it is a harness error" 'grep -q "harness error" "$TMPD/err"'
rc=0
"$top/scripts/nightly" --db "$db" --label nightly-19990101 --no-sweep "$TMPD/cfg" >/dev/null 2>&1 || rc=$?
test_expect_success "no runs under the label: exit 2" 'test_is "$rc" 2'
rc=0
SGABENCH_BIN=/nonexistent "$top/scripts/nightly" --db "$db" "$TMPD/cfg" >/dev/null 2>&1 || rc=$?
test_expect_success "no sgabench binary: exit 3 (a missing resource)" 'test_is "$rc" 3'
rc=0
"$top/scripts/nightly" --db postgresql://nobody@127.0.0.1:1/none --no-sweep --label nightly-20261201 "$TMPD/cfg" \
	>/dev/null 2>"$TMPD/err" || rc=$?
test_expect_success "a server that cannot be reached: exit 3 (a missing resource), sgabench's reason shown" - <<-\EOT
	test_is "$rc" 3 && grep -q "cannot connect to PostgreSQL" "$TMPD/err" &&
	grep -q "no verdict tonight: a resource is missing" "$TMPD/err"
EOT
rc=0
"$top/scripts/nightly" --db "$db" no-such-config >/dev/null 2>&1 || rc=$?
test_expect_success "an unknown config: exit 2" 'test_is "$rc" 2'
# A kernel update: tonight's runs are on a new fingerprint. The first such
# night is judged against the last nights across the change, not against
# nothing (and not a harness error); a regression across it is flagged.
cp "$db" "$TMPD/kup.db"
SGABENCH_TEST_FINGERPRINT=00000000000000aa SGABENCH_KERNEL_VARIANT=6.1.999-1 \
	"$top/scripts/sweep" -q --db "$TMPD/kup.db" --label nightly-20261128 "$TMPD/cfg" >/dev/null 2>&1
rc=0
"$top/scripts/nightly" --db "$TMPD/kup.db" --label nightly-20261128 --no-sweep "$TMPD/cfg" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
test_expect_success "a new fingerprint: the first night is judged across the change, exit 0" - <<-\EOT
	test_is "$rc" 0 &&
	grep -q "is the first night of machine .* on this fingerprint (its kernel or hardware changed)" "$TMPD/out" &&
	grep -q "^nightly: .* compare .* --across-kernels$" "$TMPD/out" &&
	grep -q "tasks=2 first-touch-faults .* no-change" "$TMPD/out"
EOT
sqlite3 "$TMPD/kup.db" "UPDATE metric SET value = value * 1.25 WHERE name = 'first-touch-faults'
	AND run_id IN (SELECT id FROM run WHERE label = 'nightly-20261128')"
rc=0
"$top/scripts/nightly" --db "$TMPD/kup.db" --label nightly-20261128 --no-sweep "$TMPD/cfg" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
test_expect_success "a regression across the kernel update: exit 1" - <<-\EOT
	test_is "$rc" 1 && grep -q "tasks=2 first-touch-faults .* 1.2500 .* regression" "$TMPD/out"
EOT
run_sga compare --db "$TMPD/kup.db" --baseline last-7-nights --candidate tonight --metric first-touch-faults
test_expect_success "by hand, a machine whose kernel changed is named, and --across-kernels offered" - <<-\EOT
	test_is "$rc" 3 &&
	grep -q "warning: compare: machine '[^']*' has runs on both sides, but on other fingerprints (its kernel $(
		)or hardware changed): not compared; --across-kernels --machine" "$TMPD/err" &&
	grep -q "^hint: a machine's kernel changed between the sides: add --across-kernels$" "$TMPD/err" &&
	! grep -q "add --cross-machine" "$TMPD/err"
EOT
# A config's mistakes end the night before its sweep runs, each named.
for bad in 'SWEEP_TASK="1 2"' 'SWEEP_COMPARE_ARGS="--metric-threshhold 3"' 'SWEEP_BASELINE="last-7-night"'; do
	{ cat "$TMPD/cfg"; printf '%s\n' "$bad"; } >"$TMPD/badcfg"
	rc=0
	"$top/scripts/nightly" --db "$TMPD/bad.db" --label nightly-20261201 "$TMPD/badcfg" >/dev/null 2>"$TMPD/err" || rc=$?
	test_expect_success "a config with $bad: exit 2 before any run" - <<-\EOT
		test_is "$rc" 2 && ! test -e "$TMPD/bad.db" &&
		grep -q "unknown setting SWEEP_TASK\|unknown option '--metric-threshhold'\|'last-7-night': not a selector" "$TMPD/err"
	EOT
done
# A misspelt SWEEP_METRICS name: 'sgabench metrics --check' refuses it
# before anything runs, so no night is judged on the other metrics alone:
# a harness error, the name and the fix said (t0622: on a first night).
sed 's/first-touch-faults/first-touch-fault/' "$TMPD/cfg" >"$TMPD/typo"
rc=0
"$top/scripts/nightly" --db "$db" --label nightly-20261127 --no-sweep "$TMPD/typo" >/dev/null 2>"$TMPD/err" || rc=$?
test_expect_success "a misspelt SWEEP_METRICS name: exit 2, the name, the nearest one" '
	test_is "$rc" 2 &&
	grep -q "SWEEP_METRICS: .first-touch-fault. is no metric, nor an event a run can store" "$TMPD/err" &&
	grep -q "^nightly: hint: did you mean .first-touch-faults.?$" "$TMPD/err" &&
	grep -q "harness error" "$TMPD/err"
'
rc=0
"$top/scripts/nightly" --db "$db" --label nightly-20261130 "$TMPD/typo" >/dev/null 2>"$TMPD/err" || rc=$?
test_expect_success "with nights stored, a misspelt SWEEP_METRICS name ends the night before its sweep" - <<-\EOT
	test_is "$rc" 2 && grep -q "is no metric" "$TMPD/err" &&
	test_is "$(sqlite3 "$db" "SELECT COUNT(*) FROM run WHERE label = 'nightly-20261130'")" 0
EOT
# Two nightly jobs on one database at once: they take turns.
db2="$TMPD/two.db"
cp "$db" "$db2"
"$top/scripts/nightly" --db "$db2" --label nightly-20261128 "$TMPD/cfg" >"$TMPD/o1" 2>"$TMPD/e1" &
p1=$!
"$top/scripts/nightly" --db "$db2" --label nightly-20261128 "$TMPD/cfg" >"$TMPD/o2" 2>"$TMPD/e2" &
p2=$!
r1=0 r2=0
wait "$p1" || r1=$?
wait "$p2" || r2=$?
test_expect_success "two nightly jobs at once both exit 0" 'test_is "$r1 $r2" "0 0"'
test_expect_success "one waited for the other" - <<-\EOT
	sh -c "cat '$TMPD/e1' '$TMPD/e2' | grep -q 'waiting for'"
EOT
test_expect_success "both sweeps stored every run" - <<-\EOT
	test_is "$(sqlite3 "$db2" "SELECT COUNT(*) FROM run WHERE label = 'nightly-20261128'")" 16
EOT
test_expect_success "every timing row is tied to a run" 'test_is "$(sqlite3 "$db2" "SELECT COUNT(*) FROM timing WHERE run_uuid IS NULL OR run_uuid NOT IN (SELECT uuid FROM run)")" 0'
test_expect_success "the database is intact" 'test_is "$(sqlite3 "$db2" "PRAGMA integrity_check")" ok'
test_done
