#!/bin/sh
# t0130: hardware counters on a machine without a PMU are stored as missing
# with the reason no-pmu (JSON null, database NULL), never as 0; the run
# still succeeds unless --require names them.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

test_have_prereq NO_PMU || skip_all "no-PMU behaviour: this machine has a hardware PMU:$(core_pmus)"
db="$TMPD/p.db"
run_sga run --tasks 2 --sga-size 8m --page-size 4k --rounds 2 --db "$db" --json
test_expect_success "run without a PMU succeeds" 'test_is "$rc" 0'
for ev in dTLB-load-misses dTLB-loads iTLB-load-misses cycles instructions; do
	test_expect_success "$ev total is null" 'test_is "$(json "\$.totals.\"$ev\"" | sed "s/^$/null/")" null'
	test_expect_success "$ev missing reason is no-pmu" 'test_is "$(json "\$.missing.\"$ev\"")" no-pmu'
	test_expect_success "$ev per task value is null with reason" - <<-\EOT
		test_is \
		"$(json "\$.tasks[1].events.\"$ev\".missing")" no-pmu
	EOT
done
test_expect_success "software events are counted" - <<-\EOT
	test_is "$(json '$.missing."task-clock"' | sed 's/^$/none/')" none
EOT
test_expect_success "task-clock counted something" - <<-\EOT
	test "$(json '$.totals."task-clock"' | cut -d. -f1)" -gt 0
EOT
test_expect_success "database stores NULL with the reason, never 0" - <<-\EOT
	test_is \
	"$(sqlite3 "$db" "SELECT COUNT(*) FROM value WHERE event = 'dTLB-load-misses' AND value IS NULL AND missing = 'no-pmu'")" 2
EOT
test_expect_success "no hardware value stored as 0" - <<-\EOT
	test_is \
	"$(sqlite3 "$db" "SELECT COUNT(*) FROM value WHERE event IN ('cycles','instructions','dTLB-loads','dTLB-load-misses','iTLB-load-misses') AND value IS NOT NULL")" 0
EOT
test_expect_success "run_metric view gives NULL for the missing total" - <<-\EOT
	test_is \
	"$(sqlite3 "$db" "SELECT COALESCE(value, 'NULL') || ' ' || missing FROM run_metric WHERE name = 'dTLB-load-misses'")" "NULL no-pmu"
EOT

# libpfm4 names go through pfm_get_os_event_encoding; its perf:: PMU exists on
# every CPU, so this path is testable here.
run_sga run --tasks 1 --sga-size 8m --page-size 4k --rounds 20 --measure first-touch --no-store --json \
	--events perf::PERF_COUNT_SW_PAGE_FAULTS,perf::PERF_COUNT_SW_TASK_CLOCK
test_expect_success "libpfm4 names: the run succeeds" 'test_is "$rc" 0'
test_expect_success "libpfm4 perf::PERF_COUNT_SW_PAGE_FAULTS counts the 2048 first-touch faults" - <<-\EOT
	test_is \
	"$(json '$.tasks[0].events."perf::PERF_COUNT_SW_PAGE_FAULTS".raw')" 2048
EOT
test_expect_success "libpfm4 perf::PERF_COUNT_SW_TASK_CLOCK counts" - <<-\EOT
	test "$(json '$.tasks[0].events."perf::PERF_COUNT_SW_TASK_CLOCK".raw')" -gt 0
EOT
run_sga run --tasks 1 --sga-size 8m --page-size 4k --no-store --events NO_SUCH_EVENT_ANYWHERE
test_expect_success "an event libpfm4 does not know: exit 3" 'test_is "$rc" 3'

run_sga run --tasks 1 --sga-size 8m --page-size 4k --rounds 1 --no-store
test_expect_success "human output says it in one line" 'grep -qx "  dTLB-load-misses: not counted: this machine has no hardware PMU" "$TMPD/out"'

run_sga run --tasks 2 --sga-size 8m --page-size 4k --rounds 1 --db "$db" --require dTLB-load-misses
test_expect_success "--require of an uncountable event exits 3" 'test_is "$rc" 3'
test_expect_success "and says why" - <<-\EOT
	grep -q "required event 'dTLB-load-misses' not counted: this machine has no hardware PMU" "$TMPD/err"
EOT
test_expect_success "the run is stored only as a failed row, without values" - <<-\EOT
	test_is \
	"$(sqlite3 "$db" "SELECT status || ' ' || (SELECT COUNT(*) FROM value v WHERE v.run_id = run.id) FROM run ORDER BY id DESC LIMIT 1")" "failed 0"
EOT
run_sga run --tasks 1 --sga-size 8m --page-size 4k --rounds 1 --no-store --require task-clock
test_expect_success "--require of a software event succeeds" 'test_is "$rc" 0'
run_sga run --tasks 1 --sga-size 8m --page-size 4k --no-store --events page-faults --require cycles
test_expect_success "--require of an event not in --events is a usage error" 'test_is "$rc" 2'

# Unprivileged: with perf_event_paranoid >= 2 the scheduler events (which must
# count kernel-side) are refused: missing with reason "permission". The task
# clock must still count (it once read 0 as a member of the faults group).
# As root the binary runs as user 65534 from a copy that user can reach.
test_expect_success UNPRIVILEGED_REACH,PERF_PARANOID2 "unprivileged run succeeds" - <<-\EOT
	reach_copy bench/sgabench &&
	rc=0 &&
	{ as_nobody "$REACH/bench/sgabench" run --tasks 2 --sga-size 8m \
		--page-size 4k --rounds 50 --no-store --json >"$TMPD/out" 2>"$TMPD/err" || rc=$?; } &&
	test_is "$rc" 0
EOT
test_expect_success UNPRIVILEGED_REACH,PERF_PARANOID2 "unprivileged: context-switches missing with reason permission" - <<-\EOT
	test_is "$(json '$.missing."context-switches"')" permission
EOT
test_expect_success UNPRIVILEGED_REACH,PERF_PARANOID2 "unprivileged: task-clock counted in every task" - <<-\EOT
	test "$(json '$.tasks[1].events."task-clock".raw')" -gt 0
EOT
test_expect_success !ROOT,PERF_PARANOID2 "not root: context-switches missing with reason permission" - <<-\EOT
	run_sga run --tasks 2 --sga-size 8m --page-size 4k --rounds 50 --no-store --json &&
	test_is "$(json '$.missing."context-switches"')" permission
EOT
test_done
