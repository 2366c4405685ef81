#!/bin/sh
# t0622: two things scripts/nightly checks or says, with the test double of
# 'sgabench run' (t0520, t0620): a SWEEP_METRICS name that is neither a
# metric nor an event a run can store ends even a first night before its
# sweep (exit 2, 'did you mean'), as 'sgabench metrics --check' decides;
# and after a kernel update (a new fingerprint) the baseline header names
# each night's kernel and fingerprint, says the comparison crosses the
# change, marks nights it did not pair, and --json says the same; a first
# night re-judged after later ones is still judged across the change.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

for tool in hyperfine sqlite3 flock jq; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "nightly: '$tool' not installed"
done

test_expect_success 'metrics --check: metrics and events a run can store: exit 0, silent' '
	run_sga metrics --check first-touch-faults window-s dTLB-load-misses page-faults \
		l1-dtlb-misses dtlb-walks model-stlb-misses r8 &&
	test_is "$rc" 0 && test ! -s "$TMPD/out" && test ! -s "$TMPD/err"
'
test_expect_success 'metrics --check: a misspelt name: exit 2, the nearest name hinted' '
	refuse 2 "^sgabench: error: metrics: .first-touch-fault. is no metric, nor an event a run can store$" \
		metrics --check window-s first-touch-fault &&
	grep -q "^hint: did you mean .first-touch-faults.?$" "$TMPD/r.err" &&
	refuse 2 "metrics: .model-stbl-misses. is no metric" metrics --check model-stbl-misses &&
	grep -q "^hint: did you mean .model-stlb-misses.?$" "$TMPD/r.err" &&
	test ! -s "$TMPD/r.out"
'
test_expect_success 'metrics --check: a custom level only with --any-level; no names: exit 2' '
	refuse 2 "metrics: .model-mine-misses. is no metric" metrics --check model-mine-misses &&
	run_sga metrics --check --any-level model-mine-misses && test_is "$rc" 0 &&
	refuse 2 "metrics: --check: which names" metrics --check &&
	refuse 2 "metrics: .x.: names are for --check" metrics x
'

# The test double stores first-touch-faults, pte-bytes and jitter.
cp "$FIXTURES/sgabench-run-double" "$TMPD/double"
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

sed 's/^SWEEP_METRICS=.*/SWEEP_METRICS="first-touch-fault jitter"/' "$TMPD/cfg" >"$TMPD/typo"
test_expect_success 'the first night, a misspelt SWEEP_METRICS name: exit 2 before the sweep' - <<-\EOT
	rc=0
	"$top/scripts/nightly" --db "$TMPD/first.db" --label nightly-20261101 "$TMPD/typo" \
		>"$TMPD/out" 2>"$TMPD/err" || rc=$?
	test_is "$rc" 2 && ! test -e "$TMPD/first.db" &&
	grep -q "^nightly: error: config .*/typo.: SWEEP_METRICS: .first-touch-fault. is no metric" "$TMPD/err" &&
	grep -q "^nightly: hint: did you mean .first-touch-faults.?$" "$TMPD/err" &&
	grep -q "harness error" "$TMPD/err"
EOT
sed 's/^SWEEP_METRICS=.*/&\nSWEEP_INFO_METRICS="wall-secs"/' "$TMPD/cfg" >"$TMPD/typo-info"
test_expect_success 'a misspelt SWEEP_INFO_METRICS name too: exit 2, the nearest name' - <<-\EOT
	rc=0
	"$top/scripts/nightly" --db "$TMPD/first.db" --label nightly-20261101 "$TMPD/typo-info" \
		>"$TMPD/out" 2>"$TMPD/err" || rc=$?
	test_is "$rc" 2 && ! test -e "$TMPD/first.db" &&
	grep -q "^nightly: hint: did you mean .wall-s.?$" "$TMPD/err"
EOT

# Three nights on kernel 6.1.1-1, then the kernel changes to 6.1.2-1.
db=$TMPD/k.db
for day in 01 02 03; do
	SGABENCH_KERNEL_VARIANT=6.1.1-1 "$top/scripts/sweep" -q --db "$db" --label "nightly-202611$day" \
		"$TMPD/cfg" >/dev/null 2>&1
done
new() {
	SGABENCH_TEST_FINGERPRINT=00000000000000aa SGABENCH_KERNEL_VARIANT=6.1.2-1 "$@"
}
new "$top/scripts/sweep" -q --db "$db" --label nightly-20261104 "$TMPD/cfg" >/dev/null 2>&1
test_expect_success 'the first night on the new kernel: the header names each side kernel by kernel' - <<-\EOT
	rc=0
	new "$top/scripts/nightly" --db "$db" --label nightly-20261104 --no-sweep "$TMPD/cfg" \
		>"$TMPD/out" 2>"$TMPD/err" || rc=$?
	test_is "$rc" 0 &&
	grep -q "^baseline  last-7-nights = nightly-20261103 nightly-20261102 nightly-20261101 (24 runs)$" "$TMPD/out" &&
	grep -q "^  [^,]*, kernel 6.1.1-1, fingerprint 00000000feedbeef: nightly-20261103 nightly-20261102 nightly-20261101 (24 runs)$" "$TMPD/out" &&
	grep -q "^  [^,]*, kernel 6.1.2-1, fingerprint 00000000000000aa: nightly-20261104 (8 runs)$" "$TMPD/out" &&
	grep -q "^kernels   6.1.1-1 (baseline) against 6.1.2-1 (candidate): across a kernel change" "$TMPD/out" &&
	grep -q "^no regression on [^ ;]* (across kernels 6.1.1-1 to 6.1.2-1); " "$TMPD/out" &&
	! grep -q "not compared" "$TMPD/out"
EOT
test_expect_success '--json says the same: the groups, their kernels, labels and runs' - <<-\EOT
	run_sga compare --db "$db" --baseline last-7-nights --candidate label:nightly-20261104 \
		--config "$TMPD/cfg" --across-kernels --json &&
	test_is "$rc" 0 &&
	test_is "$(jq -r ".across_kernels" "$TMPD/out")" true &&
	test_is "$(jq -r ".baseline.groups | map(.fingerprint + \" \" + (.kernel_variants | join(\",\")) + \" \" + (.labels | join(\",\")) + \" \" + (.runs | tostring) + \" \" + (.compared | tostring)) | join(\";\")" "$TMPD/out")" \
		"00000000feedbeef 6.1.1-1 nightly-20261103,nightly-20261102,nightly-20261101 24 true" &&
	test_is "$(jq -r ".candidate.groups[] | .fingerprint + \" \" + .kernel_variants[0] + \" \" + (.runs | tostring)" "$TMPD/out")" \
		"00000000000000aa 6.1.2-1 8" &&
	test_is "$(jq -r "[.rows[].n_base] | unique | join(\" \")" "$TMPD/out")" 12
EOT
new "$top/scripts/sweep" -q --db "$db" --label nightly-20261105 "$TMPD/cfg" >/dev/null 2>&1
test_expect_success "the second night: the old kernel's nights are marked not compared" - <<-\EOT
	rc=0
	new "$top/scripts/nightly" --db "$db" --label nightly-20261105 --no-sweep "$TMPD/cfg" \
		>"$TMPD/out" 2>"$TMPD/err" || rc=$?
	test_is "$rc" 0 &&
	grep -q "^  [^,]*, kernel 6.1.2-1, fingerprint 00000000000000aa: nightly-20261104 (8 runs)$" "$TMPD/out" &&
	grep -q "^  [^,]*, kernel 6.1.1-1, fingerprint 00000000feedbeef: nightly-20261103 nightly-20261102 nightly-20261101 (24 runs): not compared (another fingerprint" "$TMPD/out" &&
	! grep -q "^kernels " "$TMPD/out" && ! grep -q "across kernels" "$TMPD/out"
EOT
test_expect_success '--json of the second night: compared false, n_base the compared night alone' - <<-\EOT
	run_sga compare --db "$db" --baseline last-7-nights --candidate label:nightly-20261105 \
		--config "$TMPD/cfg" --json &&
	test_is "$(jq -r ".baseline.groups | map(.kernel_variants[0] + \" \" + (.runs | tostring) + \" \" + (.compared | tostring)) | join(\";\")" "$TMPD/out")" \
		"6.1.2-1 8 true;6.1.1-1 24 false" &&
	test_is "$(jq -r "[.rows[].n_base] | unique | join(\" \")" "$TMPD/out")" 4
EOT
test_expect_success 're-judged after a later night: the first night on the kernel is still across it' - <<-\EOT
	rc=0
	new "$top/scripts/nightly" --db "$db" --label nightly-20261104 --no-sweep "$TMPD/cfg" \
		>"$TMPD/out" 2>"$TMPD/err" || rc=$?
	test_is "$rc" 0 &&
	grep -q "is the first night of machine .* on this fingerprint" "$TMPD/out" &&
	grep -q "^kernels   6.1.1-1 (baseline) against 6.1.2-1 (candidate): across a kernel change" "$TMPD/out"
EOT
test_expect_success 'a server URI in messages: password masked; in the command to rerun: left out' - <<-\EOT
	shown=$(top=$top; . "$top/scripts/lib.sh" &&
		db_shown "postgresql://u:s3cret@h:5432/db" && db_shown "postgresql://h/db?user=u&password=s3cret&x=1") &&
	test_is "$shown" "postgresql://u:***@h:5432/db
postgresql://h/db?user=u&password=***&x=1" &&
	rerun=$(top=$top; . "$top/scripts/lib.sh" &&
		db_rerun "postgresql://u:s3cret@h:5432/db" && db_rerun "postgresql://h/db?user=u&password=s3cret&x=1" &&
		db_rerun "postgresql://h/db?password=s3cret" && db_rerun "$TMPD/k.db") &&
	test_is "$rerun" "postgresql://u@h:5432/db
'"'"'postgresql://h/db?user=u&x=1'"'"'
postgresql://h/db
$TMPD/k.db"
EOT
test_done
