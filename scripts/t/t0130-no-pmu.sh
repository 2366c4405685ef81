#!/bin/sh
# t0130: hardware counters on a machine without a PMU are stored as missing
# with the reason no-pmu (JSON null, database NULL), never as 0; the run
# still succeeds unless --require names them.
# shellcheck source=scripts/t/tap.sh
. "$(dirname "$0")/tap.sh"

core_pmu=""
for d in /sys/bus/event_source/devices/*; do
	case ${d##*/} in
	software|tracepoint|breakpoint|msr|uprobe|kprobe|power|cstate_*|amd_iommu*|intel_pt|i915) ;;
	*) core_pmu="$core_pmu ${d##*/}" ;;
	esac
done
if [ -n "$core_pmu" ]; then
	skip "no-PMU behaviour" "this machine has a hardware PMU:$core_pmu"
	done_testing
	exit
fi
db="$TMPD/p.db"
run_sga run --tasks 2 --sga-size 8m --page-size 4k --rounds 2 --db "$db" --json
is "run without a PMU succeeds" "$rc" 0
for ev in dTLB-load-misses dTLB-loads iTLB-load-misses cycles instructions; do
	is "$ev total is null" "$(json "\$.totals.\"$ev\"" | sed 's/^$/null/')" null
	is "$ev missing reason is no-pmu" "$(json "\$.missing.\"$ev\"")" no-pmu
	is "$ev per task value is null with reason" \
		"$(json "\$.tasks[1].events.\"$ev\".missing")" no-pmu
done
is "software events are counted" "$(json '$.missing."task-clock"' | sed 's/^$/none/')" none
ok "task-clock counted something" test "$(json '$.totals."task-clock"' | cut -d. -f1)" -gt 0
is "database stores NULL with the reason, never 0" \
	"$(sqlite3 "$db" "SELECT COUNT(*) FROM value WHERE event = 'dTLB-load-misses' AND value IS NULL AND missing = 'no-pmu'")" 2
is "no hardware value stored as 0" \
	"$(sqlite3 "$db" "SELECT COUNT(*) FROM value WHERE event IN ('cycles','instructions','dTLB-loads','dTLB-load-misses','iTLB-load-misses') AND value IS NOT NULL")" 0
is "run_metric view gives NULL for the missing total" \
	"$(sqlite3 "$db" "SELECT COALESCE(value, 'NULL') || ' ' || missing FROM run_metric WHERE name = 'dTLB-load-misses'")" "NULL no-pmu"

# libpfm4 names go through pfm_get_os_event_encoding; its perf:: PMU exists on
# every CPU, so this path is testable here.
run_sga run --tasks 1 --sga-size 8m --page-size 4k --rounds 20 --measure first-touch --no-store --json \
	--events perf::PERF_COUNT_SW_PAGE_FAULTS,perf::PERF_COUNT_SW_TASK_CLOCK
is "libpfm4 names: the run succeeds" "$rc" 0
is "libpfm4 perf::PERF_COUNT_SW_PAGE_FAULTS counts the 2048 first-touch faults" \
	"$(json '$.tasks[0].events."perf::PERF_COUNT_SW_PAGE_FAULTS".raw')" 2048
ok "libpfm4 perf::PERF_COUNT_SW_TASK_CLOCK counts" test "$(json '$.tasks[0].events."perf::PERF_COUNT_SW_TASK_CLOCK".raw')" -gt 0
run_sga run --tasks 1 --sga-size 8m --page-size 4k --no-store --events NO_SUCH_EVENT_ANYWHERE
is "an event libpfm4 does not know: exit 3" "$rc" 3

run_sga run --tasks 1 --sga-size 8m --page-size 4k --rounds 1 --no-store
ok "human output says it in one line" grep -qx '  dTLB-load-misses: not counted: this machine has no hardware PMU' "$TMPD/out"

run_sga run --tasks 2 --sga-size 8m --page-size 4k --rounds 1 --db "$db" --require dTLB-load-misses
is "--require of an uncountable event exits 3" "$rc" 3
ok "and says why" grep -q "required event 'dTLB-load-misses' not counted: this machine has no hardware PMU" "$TMPD/err"
is "the run is stored only as a failed row, without values" \
	"$(sqlite3 "$db" "SELECT status || ' ' || (SELECT COUNT(*) FROM value v WHERE v.run_id = run.id) FROM run ORDER BY id DESC LIMIT 1")" "failed 0"
run_sga run --tasks 1 --sga-size 8m --page-size 4k --rounds 1 --no-store --require task-clock
is "--require of a software event succeeds" "$rc" 0
run_sga run --tasks 1 --sga-size 8m --page-size 4k --no-store --events page-faults --require cycles
is "--require of an event not in --events is a usage error" "$rc" 2

# Unprivileged: with perf_event_paranoid >= 2 the scheduler events (which must
# count kernel-side) are refused: missing with reason "permission". The task
# clock must still count (it once read 0 as a member of the faults group).
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 0)
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 && [ "$paranoid" -ge 2 ]; then
	cp "$SGABENCH" "$TMPD/sgab"
	chmod 755 "$TMPD" "$TMPD/sgab"
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups "$TMPD/sgab" run --tasks 2 --sga-size 8m \
		--page-size 4k --rounds 50 --no-store --json >"$TMPD/out" 2>"$TMPD/err" || rc=$?
	is "unprivileged run succeeds" "$rc" 0
	is "unprivileged: context-switches missing with reason permission" "$(json '$.missing."context-switches"')" permission
	ok "unprivileged: task-clock counted in every task" test "$(json '$.tasks[1].events."task-clock".raw')" -gt 0
elif [ "$(id -u)" -ne 0 ] && [ "$paranoid" -ge 2 ]; then
	run_sga run --tasks 2 --sga-size 8m --page-size 4k --rounds 50 --no-store --json
	is "unprivileged: context-switches missing with reason permission" "$(json '$.missing."context-switches"')" permission
else
	skip "unprivileged run" "needs root with setpriv, or an unprivileged user, and perf_event_paranoid >= 2"
fi
done_testing
