#!/bin/sh
# t0520: scripts/sweep's mechanics against a test double of 'sgabench run'
# (a few lines of sh that store a run the way schema v1 says and print the
# JSON fields the sweep reads), so they are tested whatever the native
# backend does: hyperfine times tied to the stored runs, warm-up runs
# relabelled, the order and seed stored, noise floors, A/B, failures and
# exit codes, and two sweeps on one database at once. t0530 runs the real
# binary.
# shellcheck source=scripts/t/tap.sh
. "$(dirname "$0")/tap.sh"
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"

for tool in hyperfine sqlite3 flock; do
	command -v "$tool" >/dev/null 2>&1 || { skip "sweep" "'$tool' not installed"; done_testing; exit; }
done
double="$TMPD/sgabench-double"
cat >"$double" <<'DOUBLE'
#!/bin/sh
# Test double of 'sgabench run': stores one run with metrics derived from
# --tasks (first-touch-faults = 100 * tasks, pte-bytes = 4096 * tasks) and a
# metric "jitter" that varies from run to run but is a fixed function of the
# run id (so verdicts never flake), prints the pretty JSON head sgabench prints.
# FAIL_TASKS=N makes runs with N tasks exit with FAIL_RC (default 1).
# Every other subcommand goes to the real binary ($REAL_SGABENCH).
[ "$1" = run ] || exec "$REAL_SGABENCH" "$@"
shift
tasks=1 label="" db="" cell=""
while [ $# -gt 0 ]; do
	case "$1" in
	--tasks) tasks=$2; cell="$cell tasks=$2"; shift 2 ;;
	--label) label=$2; shift 2 ;;
	--db) db=$2; shift 2 ;;
	--seed) shift 2 ;;
	--json) shift ;;
	--*) cell="$cell ${1#--}=$2"; shift 2 ;;
	*) shift ;;
	esac
done
if [ "${FAIL_TASKS:-}" = "$tasks" ]; then
	echo "sgabench: error: injected failure" >&2
	exit "${FAIL_RC:-1}"
fi
uuid=$(cat /proc/sys/kernel/random/uuid)
id=$(sqlite3 -cmd '.timeout 30000' "$db" "
	INSERT OR IGNORE INTO machine (id, fingerprint, first_seen, info_json) VALUES (1, '00000000feedbeef', '2026-12-01T00:00:00Z', '{}');
	INSERT INTO run (uuid, machine_id, started_at, version, backend, workload, tasks, page_size, sharedctx, sga_bytes, ws_bytes, rounds, seed, cell, label, config_json, status)
	VALUES ('$uuid', 1, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), 'double', 'native', 'rounds', $tasks, '4k', 0, 1, 1, 1, 1, 'backend=native$cell', '$label', '{}', 'ok');
	INSERT INTO metric VALUES (last_insert_rowid(), 'first-touch-faults', 100 * $tasks);
	INSERT INTO metric SELECT id, 'pte-bytes', 4096 * $tasks FROM run WHERE uuid = '$uuid';
	INSERT INTO metric SELECT id, 'jitter', 1000 + (id * 7919) % 50 FROM run WHERE uuid = '$uuid';
	SELECT id FROM run WHERE uuid = '$uuid';")
printf '{\n  "tool": "sgabench",\n  "run_id": %s,\n  "uuid": "%s",\n  "status": "ok",\n  "tasks": [\n    {\n      "uuid": "not-this-one"\n    }\n  ]\n}\n' "$id" "$uuid"
DOUBLE
chmod +x "$double"
cat >"$TMPD/cfg" <<'EOF2'
SWEEP_AXES="layout tasks"
SWEEP_TASKS="1 2 3"
SWEEP_LAYOUT="4k"
SWEEP_ARGS="--sga-size 8m"
SWEEP_PASSES=2
SWEEP_RUNS=2
SWEEP_WARMUP=1
SWEEP_METRICS="first-touch-faults:lower jitter:lower wall-s:lower"
EOF2
db="$TMPD/s.db"
export SGABENCH_BIN="$double"
REAL_SGABENCH=$top/bench/sgabench
export REAL_SGABENCH
rc=0
"$top/scripts/sweep" --db "$db" --seed 7 --label t1 "$TMPD/cfg" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
is "sweep exits 0" "$rc" 0
q() { sqlite3 "$db" "$1"; }
sw=$(q "SELECT uuid FROM sweep")
is "one sweep row, with its seed and name" "$(q "SELECT order_seed || ' ' || name FROM sweep")" "7 cfg"
is "3 cells x 2 passes x 2 runs = 12 measured runs" "$(q "SELECT COUNT(*) FROM run WHERE label = 't1'")" 12
is "3 warm-up runs (one per cell, first pass), relabelled" "$(q "SELECT COUNT(*) FROM run WHERE label = 'warmup:t1'")" 3
is "12 timing rows" "$(q "SELECT COUNT(*) FROM timing WHERE sweep_uuid = '$sw'")" 12
is "every timing row is tied to a measured run" "$(q "SELECT COUNT(*) FROM timing t JOIN run r ON r.uuid = t.run_uuid AND r.label = 't1'")" 12
is "the top-level uuid was read, not a nested one" "$(q "SELECT COUNT(*) FROM timing WHERE run_uuid = 'not-this-one'")" 0
is "timing cell = run cell" "$(q "SELECT COUNT(*) FROM timing t JOIN run r ON r.uuid = t.run_uuid WHERE t.cell <> r.cell")" 0
is "hyperfine iterations 0 and 1 per invocation" "$(q "SELECT group_concat(DISTINCT iteration) FROM timing")" "0,1"
ok "wall times are positive" test "$(q "SELECT COUNT(*) FROM timing WHERE wall_s > 0 AND exit_code = 0")" -eq 12
is "the stored order: 6 invocations, one cell per line" "$(q "SELECT cell_order FROM sweep" | grep -c 'backend=native')" 6
is "the stored order is the planned one" "$(q "SELECT cell_order FROM sweep" | sed 's/.*tasks=//' | tr '\n' ' ')" \
	"$("$top/scripts/sweep" --dry-run --seed 7 --db "$db" "$TMPD/cfg" | awk -F'	' '/^[0-9]/ { sub(/.*tasks=/, "", $3); printf "%s ", $3 }')"
is "the config text is stored" "$(q "SELECT config FROM sweep" | grep -c SWEEP_)" 8
is "noise floors: 3 cells x 3 metrics" "$(q "SELECT COUNT(*) FROM noise")" 9
is "a deterministic metric has a zero floor" "$(q "SELECT MAX(floor) FROM noise WHERE metric = 'first-touch-faults'")" 0.0
ok "a varying metric has a floor in (0, 5 %)" test "$(q "SELECT COUNT(*) FROM noise WHERE metric = 'jitter' AND floor > 0 AND floor < 0.05")" -eq 3
is "noise samples: 4 per cell" "$(q "SELECT group_concat(DISTINCT samples) FROM noise")" 4
ok "progress shows cells left and time left" grep -q "\\[3/6\\] pass .*: 3 after this, ~.* left" "$TMPD/err"
ok "the summary lists each cell's medians" grep -q 'tasks=3 .* 300 (n= 4)' "$TMPD/out"

rc=0
FAIL_TASKS=2 FAIL_RC=3 "$top/scripts/sweep" --db "$db" --label t2 "$TMPD/cfg" >/dev/null 2>"$TMPD/err" || rc=$?
is "a run that exits 3 (resource missing) stops the sweep with 3" "$rc" 3
ok "and its stderr is shown" grep -q 'injected failure' "$TMPD/err"
rc=0
FAIL_TASKS=3 FAIL_RC=1 "$top/scripts/sweep" --db "$db" --label t3 "$TMPD/cfg" >/dev/null 2>"$TMPD/err" || rc=$?
is "a crashing run stops the sweep with 1" "$rc" 1
ok "the failure names the cell" grep -q "status 1 on cell 'layout=4k tasks=3'" "$TMPD/err"

rc=0
"$top/scripts/sweep" --db "$db" --label ab --ab "$double" "$double" "$TMPD/cfg" >"$TMPD/out" 2>/dev/null || rc=$?
is "A/B sweep exits 0" "$rc" 0
is "A/B: 12 runs per arm" "$(q "SELECT COUNT(*) FROM run WHERE label = 'ab-A'") $(q "SELECT COUNT(*) FROM run WHERE label = 'ab-B'")" "12 12"
ok "A/B: the order records the arm of each invocation" test "$(q "SELECT cell_order FROM sweep WHERE name = 'cfg' ORDER BY started_at DESC, rowid DESC LIMIT 1" | grep -c '^[AB]	')" -eq 12

# Two sweeps on one database at once: serialised by the lock, both complete.
db2="$TMPD/c.db"
"$top/scripts/sweep" --db "$db2" --label c1 "$TMPD/cfg" >/dev/null 2>"$TMPD/e1" &
p1=$!
"$top/scripts/sweep" --db "$db2" --label c2 "$TMPD/cfg" >/dev/null 2>"$TMPD/e2" &
p2=$!
r1=0 r2=0
wait "$p1" || r1=$?
wait "$p2" || r2=$?
is "two concurrent sweeps both exit 0" "$r1 $r2" "0 0"
is "both stored all their runs" "$(sqlite3 "$db2" "SELECT COUNT(*) FROM run WHERE label IN ('c1', 'c2')")" 24
is "the database is intact" "$(sqlite3 "$db2" "PRAGMA integrity_check")" ok
ok "one waited for the other's lock" sh -c "cat '$TMPD/e1' '$TMPD/e2' | grep -q 'waiting for'"
ok "the lock lives next to the database" test -e "$TMPD/c.lock"
done_testing
