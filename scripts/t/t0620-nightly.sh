#!/bin/sh
# t0620: scripts/nightly with the real 'sgabench compare' and the test
# double of 'sgabench run' from t0520 (so the verdicts do not depend on this
# machine's noise): quiet (0) on unchanged history, 1 on a regression
# injected into history, 2 (never 0 or 1) on harness errors, and two
# nightly jobs on one database at once.
# shellcheck source=scripts/t/tap.sh
. "$(dirname "$0")/tap.sh"
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"

if ! "$SGABENCH" compare --help >/dev/null 2>&1; then
	skip "nightly" "'sgabench compare --help' does not work yet"
	done_testing
	exit
fi
for tool in hyperfine sqlite3 flock; do
	command -v "$tool" >/dev/null 2>&1 || { skip "nightly" "'$tool' not installed"; done_testing; exit; }
done
# The test double of 'sgabench run', shared with t0520.
# shellcheck disable=SC2016 # a sed address, not an expansion
sed -n '/^cat >"\$double" <<.DOUBLE.$/,/^DOUBLE$/p' "$top/scripts/t/t0520-sweep-double.sh" | sed '1d;$d' >"$TMPD/double"
chmod +x "$TMPD/double"
ok "the test double was extracted" grep -q 'REAL_SGABENCH' "$TMPD/double"
REAL_SGABENCH=$SGABENCH
SGABENCH_BIN="$TMPD/double"
export REAL_SGABENCH SGABENCH_BIN

cat >"$TMPD/cfg" <<'EOF2'
SWEEP_AXES="tasks"
SWEEP_TASKS="1 2"
SWEEP_PASSES=2
SWEEP_RUNS=2
SWEEP_WARMUP=0
SWEEP_METRICS="first-touch-faults:lower jitter:lower"
EOF2
db="$TMPD/n.db"
# The first night: nothing to compare with, so no regression (and it says so).
"$top/scripts/sweep" -q --db "$db" --label nightly-20261120 "$TMPD/cfg" >/dev/null 2>&1
rc=0
"$top/scripts/nightly" --db "$db" --label nightly-20261120 --no-sweep "$TMPD/cfg" >"$TMPD/out" 2>&1 || rc=$?
is "the first night: exit 0" "$rc" 0
ok "it says there is no baseline yet" grep -q "first night on this machine: no baseline yet" "$TMPD/out"
# Six more earlier nights.
for day in 21 22 23 24 25 26; do
	"$top/scripts/sweep" -q --db "$db" --label "nightly-202611$day" "$TMPD/cfg" >/dev/null 2>&1
done
is "seven nights of history" "$(sqlite3 "$db" "SELECT COUNT(DISTINCT label) FROM run WHERE label GLOB 'nightly-*'")" 7

rc=0
"$top/scripts/nightly" --db "$db" --label nightly-20261127 "$TMPD/cfg" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
is "unchanged code: exit 0" "$rc" 0
ok "it says so" grep -q '^nightly: no regression' "$TMPD/out"
ok "it prints the verdict table" grep -q 'tasks=2 first-touch-faults .* no-change' "$TMPD/out"
ok "it compared against the 7 nights" grep -q 'baseline  last-7-nights = nightly-20261126 .* nightly-20261120' "$TMPD/out"
is "tonight's runs are stored" "$(sqlite3 "$db" "SELECT COUNT(*) FROM run WHERE label = 'nightly-20261127'")" 8
is "the verdicts are stored" "$(sqlite3 "$db" "SELECT COUNT(*) FROM verdict WHERE candidate = 'label:nightly-20261127'")" 4

# Inject a regression into history: the earlier nights took 20 % fewer faults.
cp "$db" "$TMPD/reg.db"
sqlite3 "$TMPD/reg.db" "UPDATE metric SET value = value * 0.8 WHERE name = 'first-touch-faults'
	AND run_id IN (SELECT id FROM run WHERE label GLOB 'nightly-2026112[0-6]')"
rc=0
"$top/scripts/nightly" --db "$TMPD/reg.db" --label nightly-20261127 --no-sweep "$TMPD/cfg" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
is "regression injected into history: exit 1" "$rc" 1
ok "it says so" grep -q '^nightly: confirmed regression' "$TMPD/out"
ok "the verdict names the cell and metric" grep -q 'tasks=2 first-touch-faults .* 1.2500 .* regression' "$TMPD/out"
ok "the noisy metric stays quiet" sh -c "! grep -q 'jitter .* regression' '$TMPD/out'"

# Harness errors are 2, never 0 or 1.
rc=0
FAIL_TASKS=2 "$top/scripts/nightly" --db "$TMPD/reg.db" --label nightly-20261128 "$TMPD/cfg" >/dev/null 2>"$TMPD/err" || rc=$?
is "a crashing run: exit 2 (even with a regression in history)" "$rc" 2
ok "it says it is a harness error" grep -q 'harness error' "$TMPD/err"
rc=0
"$top/scripts/nightly" --db "$db" --label nightly-19990101 --no-sweep "$TMPD/cfg" >/dev/null 2>&1 || rc=$?
is "no runs under the label: exit 2" "$rc" 2
rc=0
SGABENCH_BIN=/nonexistent "$top/scripts/nightly" --db "$db" "$TMPD/cfg" >/dev/null 2>&1 || rc=$?
is "no sgabench binary: exit 2" "$rc" 2
rc=0
"$top/scripts/nightly" --db "$db" no-such-config >/dev/null 2>&1 || rc=$?
is "an unknown config: exit 2" "$rc" 2
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	mkdir -p "$TMPD/nobody"
	chmod 755 "$TMPD"
	chmod 777 "$TMPD/nobody"
	printf 'SWEEP_AXES="tasks"\nSWEEP_TASKS="1"\nSWEEP_HUGEPAGES=999999\n' >"$TMPD/nobody/cfg"
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$TMPD/nobody" \
		"$top/scripts/nightly" --db "$TMPD/nobody/x.db" "$TMPD/nobody/cfg" >/dev/null 2>"$TMPD/err" || rc=$?
	is "no hugepages (not root): exit 2" "$rc" 2
	ok "with the fix" grep -q 'scripts/hugepages reserve 999999' "$TMPD/err"
else
	skip "no hugepages" "needs root and setpriv to test as another user"
	skip "no hugepages fix" "needs root and setpriv"
fi

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
is "two nightly jobs at once both exit 0" "$r1 $r2" "0 0"
ok "one waited for the other" sh -c "cat '$TMPD/e1' '$TMPD/e2' | grep -q 'waiting for'"
is "both sweeps stored every run" "$(sqlite3 "$db2" "SELECT COUNT(*) FROM run WHERE label = 'nightly-20261128'")" 16
is "every timing row is tied to a run" "$(sqlite3 "$db2" "SELECT COUNT(*) FROM timing WHERE run_uuid IS NULL OR run_uuid NOT IN (SELECT uuid FROM run)")" 0
is "the database is intact" "$(sqlite3 "$db2" "PRAGMA integrity_check")" ok
done_testing
