#!/bin/sh
# t0140: nothing is left behind when a run is killed: kill -9 of the parent,
# kill -9 of one task, SIGTERM and SIGINT, in the middle of a run. No SysV
# segment, no child process, no reserved hugepages, no partial run.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

db="$TMPD/c.db"
"$SGABENCH" run --tasks 1 --sga-size 4m --page-size 4k --rounds 1 --db "$db" --quiet
runs_before=$(sqlite3 "$db" "SELECT COUNT(*) FROM run")

test_prereq_if HUGEPAGES "cannot reserve 64 free 2 MiB hugepages (needs root)" need_hugepages 64
if test_have_prereq HUGEPAGES; then
	args="--page-size 2m --sga-size 64m --rounds 1000000000"
else
	args="--page-size 4k --sga-size 64m --rounds 20000000"
fi

# three_attached: the background run has its 3 tasks, all attached to the SGA.
three_attached() {
	[ "$(pgrep -c -P "$bg" 2>/dev/null || true)" -ge 3 ] && [ "$(shm_attached_by "$bg")" -ge 3 ]
}

# Start a long run in the background (its window lasts far longer than the
# test: --rounds 1e9, --timeout 300); wait until its tasks have attached.
start_run() {
	# shellcheck disable=SC2086 # $args holds several options
	"$SGABENCH" run --tasks 3 $args --db "$db" --timeout 300 >"$TMPD/bg.out" 2>"$TMPD/bg.err" &
	bg=$!
	wait_until three_attached
}

no_task_left() {
	[ -z "$(pgrep -f "sgabench run --tasks 3 .*$db" || true)" ]
}

children_gone() {
	wait_until no_task_left
}

free0=$(hp_free)
rsvd0=$(hp_rsvd)
start_run
kids=$(pgrep -P "$bg" | tr '\n' ' ')
test_expect_success "three tasks running ($kids)" 'test "$(echo "$kids" | wc -w)" -eq 3'
# The check below can fail: while the run lives, its segment is there.
test_expect_success "while it runs, its one SysV segment exists" 'test_is "$(shm_count_by "$bg")" 1'
kill -9 "$bg"
wait "$bg" 2>/dev/null || true
test_expect_success "kill -9 of the parent: no task survives" 'children_gone'
test_expect_success "kill -9 of the parent: no SysV segment left" 'test_is "$(shm_count_by "$bg")" 0'
hp_alone HP_ALONE1
test_expect_success HUGEPAGES,HP_ALONE1 "kill -9 of the parent: hugepages free again" 'test "$(hp_free)" -ge "$free0"'
test_expect_success "kill -9 of the parent: no run stored" 'test_is "$(sqlite3 "$db" "SELECT COUNT(*) FROM run")" "$runs_before"'
test_expect_success "database integrity after kill -9" 'test_is "$(sqlite3 "$db" "PRAGMA integrity_check")" ok'

start_run
victim=$(pgrep -P "$bg" | sed -n 2p)
kill -9 "$victim"
rc=0
wait "$bg" || rc=$?
test_expect_success "kill -9 of one task: the run fails with exit 1" 'test_is "$rc" 1'
test_expect_success "kill -9 of one task: the error names the killed task" 'grep -q "pid $victim) was killed by signal 9" "$TMPD/bg.err"'
test_expect_success "kill -9 of one task: no task survives" 'children_gone'
test_expect_success "kill -9 of one task: no SysV segment left" 'test_is "$(shm_count_by "$bg")" 0'
hp_alone HP_ALONE2
test_expect_success HUGEPAGES,HP_ALONE2 "kill -9 of one task: hugepages free again" 'test "$(hp_free)" -ge "$free0"'
test_expect_success "kill -9 of one task: stored only as a failed row with its reason and no values" - <<-\EOT
	test_is \
	"$(sqlite3 "$db" "SELECT status || '|' || (reason LIKE '%killed by signal 9%') || '|' || (SELECT COUNT(*) FROM value WHERE run_id = run.id) || '|' || (SELECT COUNT(*) FROM task WHERE run_id = run.id) FROM run ORDER BY id DESC LIMIT 1")" "failed|1|0|0"
EOT

for sig in TERM INT; do
	start_run
	kill -s $sig "$bg"
	rc=0
	wait "$bg" || rc=$?
	test_expect_success "SIG$sig: the run ends with exit 1" 'test_is "$rc" 1'
	test_expect_success "SIG$sig: says it was interrupted" 'grep -q "interrupted by" "$TMPD/bg.err"'
	test_expect_success "SIG$sig: no task survives" 'children_gone'
	test_expect_success "SIG$sig: no SysV segment left" 'test_is "$(shm_count_by "$bg")" 0'
	hp_alone "HP_ALONE_$sig"
	test_expect_success "HUGEPAGES,HP_ALONE_$sig" "SIG$sig: hugepages free again" 'test "$(hp_free)" -ge "$free0"'
done
hp_alone HP_ALONE3
test_expect_success HUGEPAGES,HP_ALONE3 "no hugepage reservation left behind (Rsvd $(hp_rsvd) <= $rsvd0)" 'test "$(hp_rsvd)" -le "$rsvd0"'
test_expect_success "database integrity at the end" 'test_is "$(sqlite3 "$db" "PRAGMA integrity_check")" ok'
test_expect_success "no run has values unless it is ok" - <<-\EOT
	test_is \
	"$(sqlite3 "$db" "SELECT COUNT(*) FROM run WHERE status <> 'ok' AND id IN (SELECT run_id FROM value)")" 0
EOT
test_done
