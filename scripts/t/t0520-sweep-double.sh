#!/bin/sh
# t0520: scripts/sweep's mechanics against a test double of 'sgabench run'
# (a few lines of sh that store a run the way schema v1 says and print the
# JSON fields the sweep reads), so they are tested whatever the native
# backend does: hyperfine times tied to the stored runs, warm-up runs
# relabelled, the order and seed stored, noise floors, A/B, failures and
# exit codes, and two sweeps on one database at once. t0530 runs the real
# binary.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"

for tool in hyperfine sqlite3 flock; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "sweep: '$tool' not installed"
done
double="$FIXTURES/sgabench-run-double"
cat >"$TMPD/cfg" <<'EOF2'
SWEEP_AXES="layout tasks"
SWEEP_TASKS="1 2 3"
SWEEP_LAYOUT="4k"
SWEEP_ARGS="--sga-size 8m"
SWEEP_PASSES=2
SWEEP_RUNS=2
SWEEP_WARMUP=1
SWEEP_METRICS="first-touch-faults jitter wall-s"
EOF2
db="$TMPD/s.db"
export SGABENCH_BIN="$double"
REAL_SGABENCH=$top/bench/sgabench
export REAL_SGABENCH
rc=0
"$top/scripts/sweep" --db "$db" --seed 7 --label t1 "$TMPD/cfg" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
test_expect_success "sweep exits 0" 'test_is "$rc" 0'
q() { sqlite3 "$db" "$1"; }
sw=$(q "SELECT uuid FROM sweep")
test_expect_success "one sweep row, with its seed and name" - <<-\EOT
	test_is "$(q "SELECT order_seed || ' ' || name FROM sweep")" "7 cfg"
EOT
test_expect_success "3 cells x 2 passes x 2 runs = 12 measured runs" - <<-\EOT
	test_is "$(q "SELECT COUNT(*) FROM run WHERE label = 't1'")" 12
EOT
test_expect_success "3 warm-up runs (one per cell, first pass), relabelled" - <<-\EOT
	test_is "$(q "SELECT COUNT(*) FROM run WHERE label = 'warmup:t1'")" 3
EOT
test_expect_success "12 timing rows" - <<-\EOT
	test_is "$(q "SELECT COUNT(*) FROM timing WHERE sweep_uuid = '$sw'")" 12
EOT
test_expect_success "every timing row is tied to a measured run" - <<-\EOT
	test_is "$(q "SELECT COUNT(*) FROM timing t JOIN run r ON r.uuid = t.run_uuid AND r.label = 't1'")" 12
EOT
test_expect_success "the top-level uuid was read, not a nested one" - <<-\EOT
	test_is "$(q "SELECT COUNT(*) FROM timing WHERE run_uuid = 'not-this-one'")" 0
EOT
test_expect_success "timing cell = run cell" 'test_is "$(q "SELECT COUNT(*) FROM timing t JOIN run r ON r.uuid = t.run_uuid WHERE t.cell <> r.cell")" 0'
test_expect_success "hyperfine iterations 0 and 1 per invocation" 'test_is "$(q "SELECT group_concat(DISTINCT iteration) FROM timing")" "0,1"'
test_expect_success "wall times are positive" 'test "$(q "SELECT COUNT(*) FROM timing WHERE wall_s > 0 AND exit_code = 0")" -eq 12'
test_expect_success "the stored order: 6 invocations, one cell per line" 'test_is "$(q "SELECT cell_order FROM sweep" | grep -c "backend=native")" 6'
test_expect_success "the stored order is the planned one" - <<-\EOT
	test_is "$(q "SELECT cell_order FROM sweep" | sed 's/.*tasks=//' | tr '\n' ' ')" \
	"$("$top/scripts/sweep" --dry-run --seed 7 --db "$db" "$TMPD/cfg" | awk -F'	' '/^[0-9]/ { sub(/.*tasks=/, "", $3); printf "%s ", $3 }')"
EOT
test_expect_success "the config text is stored" 'test_is "$(q "SELECT config FROM sweep" | grep -c SWEEP_)" 8'
test_expect_success "noise floors: 3 cells x 3 metrics" 'test_is "$(q "SELECT COUNT(*) FROM noise")" 9'
test_expect_success "a deterministic metric has a zero floor" - <<-\EOT
	test_is "$(q "SELECT MAX(floor) FROM noise WHERE metric = 'first-touch-faults'")" 0.0
EOT
test_expect_success "a varying metric has a floor in (0, 5 %)" - <<-\EOT
	test "$(q "SELECT COUNT(*) FROM noise WHERE metric = 'jitter' AND floor > 0 AND floor < 0.05")" -eq 3
EOT
test_expect_success "noise samples: 4 per cell" 'test_is "$(q "SELECT group_concat(DISTINCT samples) FROM noise")" 4'
test_expect_success "progress shows cells left and time left" 'grep -q "\\[3/6\\] pass .*: 3 after this, ~.* left" "$TMPD/err"'
test_expect_success "the summary lists each cell's medians" 'grep -q "tasks=3 .* 300 (n= 4)" "$TMPD/out"'

rc=0
FAIL_TASKS=2 FAIL_RC=3 "$top/scripts/sweep" --db "$db" --label t2 "$TMPD/cfg" >/dev/null 2>"$TMPD/err" || rc=$?
test_expect_success "a run that exits 3 (resource missing) stops the sweep with 3" 'test_is "$rc" 3'
test_expect_success "and its stderr is shown" 'grep -q "injected failure" "$TMPD/err"'
rc=0
FAIL_TASKS=3 FAIL_RC=1 "$top/scripts/sweep" --db "$db" --label t3 "$TMPD/cfg" >/dev/null 2>"$TMPD/err" || rc=$?
test_expect_success "a crashing run stops the sweep with 1" 'test_is "$rc" 1'
test_expect_success "the failure names the cell" - <<-\EOT
	grep -q "status 1 on cell 'layout=4k tasks=3'" "$TMPD/err"
EOT

rc=0
{
	cat "$TMPD/cfg"
	printf '%s\n' 'SWEEP_METRICS="first-touch-faults wall-s accesses-per-s"' \
		'SWEEP_COMPARE_ARGS="--metric-threshold wall-s=0.5 --one-sided-noise wall-s"'
} >"$TMPD/cfg-ab"
"$top/scripts/sweep" --db "$db" --label ab --ab "$double" "$double" "$TMPD/cfg-ab" >"$TMPD/out" 2>/dev/null || rc=$?
test_expect_success "A/B sweep exits 0" 'test_is "$rc" 0'
test_expect_success "A/B: 12 runs per arm" - <<-\EOT
	test_is "$(q "SELECT COUNT(*) FROM run WHERE label = 'ab-A'") $(q "SELECT COUNT(*) FROM run WHERE label = 'ab-B'")" "12 12"
EOT
test_expect_success "A/B: the order records the arm of each invocation" - <<-\EOT
	test "$(q "SELECT cell_order FROM sweep WHERE name = 'cfg-ab' ORDER BY started_at DESC, rowid DESC LIMIT 1" | grep -c '^[AB]	')" -eq 12
EOT
# The printed compare command carries the config's verdict metrics, their
# direction and its compare options, and runs as printed.
hint=$(sed -n 's/^A\/B: compare with: //p' "$TMPD/out")
test_expect_success "A/B: the compare it prints judges by the config's rule" - <<-\EOT
	test_is "$hint" "$double compare --db $db --baseline label:ab-A --candidate label:ab-B --metric first-touch-faults,wall-s,accesses-per-s --higher-better accesses-per-s --metric-threshold wall-s=0.5 --one-sided-noise wall-s"
EOT
# The stored A/A floors are 'stats noise' over the first arm's samples,
# with wall-s (one-way noise in the metric registry, and the config's
# --one-sided-noise; lower is better) on its 10th percentile: recomputed
# here from the same samples and seed.
sw=$(q "SELECT uuid FROM sweep WHERE name = 'cfg-ab' ORDER BY started_at DESC, rowid DESC LIMIT 1")
# noise_again [median]: the sweep's floors recomputed, "cell metric floor n"
# sorted; with "median", wall-s goes in under a name the registry lacks,
# so its floor is on medians.
noise_again() {
	"$REAL_SGABENCH" db query --db "$db" sweep-samples "$sw" |
		awk -F'	' -v OFS='	' -v sw="$sw" -v med="${1:-}" '$1 == "ab-A" && $3 ~ /^(first-touch-faults|wall-s|accesses-per-s)$/ {
			print $2, (med != "" && $3 == "wall-s" ? "x-wall-s" : $3), sw, $4 }' |
		"$REAL_SGABENCH" stats noise --pooled --seed "$(q "SELECT order_seed FROM sweep WHERE uuid = '$sw'")" \
			--resamples 200 | sed 's/	x-wall-s	/	wall-s	/' | sort
}
test_expect_success "A/B: the stored floors take wall-s on its 10th percentile (one-way noise)" - <<-\EOT
	stored=$(q "SELECT n.cell || '	' || n.metric || '	' || printf('%.6g', n.floor) || '	' || n.samples FROM noise n
		WHERE n.metric IN ('first-touch-faults', 'wall-s', 'accesses-per-s')
		AND n.cell IN (SELECT r.cell FROM run r WHERE r.label = 'ab-A')" | sort) &&
	test_is "$stored" "$(noise_again)" &&
	test "$stored" != "$(noise_again median)"
EOT
rc=0
# shellcheck disable=SC2086 # the printed command, split as a shell would
"$REAL_SGABENCH" ${hint#"$double" } >"$TMPD/cmp" 2>&1 || rc=$?
test_expect_success "A/B: and runs as printed (exit 0 or 1, a verdict table)" - <<-\EOT
	case $rc in 0 | 1) grep -q "^summary: " "$TMPD/cmp" ;; *) cat "$TMPD/cmp"; false ;; esac
EOT

# Two sweeps on one database at once: serialised by the lock, both complete.
db2="$TMPD/c.db"
"$top/scripts/sweep" --db "$db2" --label c1 "$TMPD/cfg" >/dev/null 2>"$TMPD/e1" &
p1=$!
"$top/scripts/sweep" --db "$db2" --label c2 "$TMPD/cfg" >/dev/null 2>"$TMPD/e2" &
p2=$!
r1=0 r2=0
wait "$p1" || r1=$?
wait "$p2" || r2=$?
test_expect_success "two concurrent sweeps both exit 0" 'test_is "$r1 $r2" "0 0"'
test_expect_success "both stored all their runs" - <<-\EOT
	test_is "$(sqlite3 "$db2" "SELECT COUNT(*) FROM run WHERE label IN ('c1', 'c2')")" 24
EOT
test_expect_success "the database is intact" 'test_is "$(sqlite3 "$db2" "PRAGMA integrity_check")" ok'
test_expect_success "one waited for the other's lock" - <<-\EOT
	sh -c "cat '$TMPD/e1' '$TMPD/e2' | grep -q 'waiting for'"
EOT
test_expect_success "the lock lives next to the database" 'test -e "$TMPD/c.lock"'
test_done
