#!/bin/sh
# t0140: nothing is left behind when a run is killed: kill -9 of the parent,
# kill -9 of one task, SIGTERM and SIGINT, in the middle of a run. No SysV
# segment, no child process, no reserved hugepages, no partial run.
# shellcheck source=scripts/t/tap.sh
. "$(dirname "$0")/tap.sh"

db="$TMPD/c.db"
"$SGABENCH" run --tasks 1 --sga-size 4m --page-size 4k --rounds 1 --db "$db" --quiet
runs_before=$(sqlite3 "$db" "SELECT COUNT(*) FROM run")
shm_before=$(shm_count)
hp=no
if need_hugepages 64; then
	hp=yes
	args="--page-size 2m --sga-size 64m --rounds 1000000000"
else
	args="--page-size 4k --sga-size 64m --rounds 2000000"
fi

# Start a long run in the background; wait until its tasks are in the window.
start_run() {
	# shellcheck disable=SC2086 # $args holds several options
	"$SGABENCH" run --tasks 3 $args --db "$db" --timeout 120 >"$TMPD/bg.out" 2>"$TMPD/bg.err" &
	bg=$!
	i=0
	while [ "$(pgrep -c -P "$bg" 2>/dev/null || true)" -lt 3 ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 1
}

children_gone() {
	i=0
	while [ $i -lt 50 ]; do
		[ -z "$(pgrep -f "sgabench run --tasks 3 .*$db" || true)" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

free0=$(hp_free)
rsvd0=$(hp_rsvd)
start_run
kids=$(pgrep -P "$bg" | tr '\n' ' ')
ok "three tasks running ($kids)" test "$(echo "$kids" | wc -w)" -eq 3
kill -9 "$bg"
wait "$bg" 2>/dev/null || true
ok "kill -9 of the parent: no task survives" children_gone
is "kill -9 of the parent: no SysV segment left" "$(shm_count)" "$shm_before"
[ "$hp" = yes ] && ok "kill -9 of the parent: hugepages free again" test "$(hp_free)" -ge "$free0"
is "kill -9 of the parent: no run stored" "$(sqlite3 "$db" "SELECT COUNT(*) FROM run")" "$runs_before"
is "database integrity after kill -9" "$(sqlite3 "$db" "PRAGMA integrity_check")" ok

start_run
victim=$(pgrep -P "$bg" | sed -n 2p)
kill -9 "$victim"
rc=0
wait "$bg" || rc=$?
is "kill -9 of one task: the run fails with exit 1" "$rc" 1
ok "kill -9 of one task: the error names the killed task" grep -q "pid $victim) was killed by signal 9" "$TMPD/bg.err"
ok "kill -9 of one task: no task survives" children_gone
is "kill -9 of one task: no SysV segment left" "$(shm_count)" "$shm_before"
[ "$hp" = yes ] && ok "kill -9 of one task: hugepages free again" test "$(hp_free)" -ge "$free0"
is "kill -9 of one task: stored only as a failed row with its reason and no values" \
	"$(sqlite3 "$db" "SELECT status || '|' || (reason LIKE '%killed by signal 9%') || '|' || (SELECT COUNT(*) FROM value WHERE run_id = run.id) || '|' || (SELECT COUNT(*) FROM task WHERE run_id = run.id) FROM run ORDER BY id DESC LIMIT 1")" "failed|1|0|0"

for sig in TERM INT; do
	start_run
	kill -s $sig "$bg"
	rc=0
	wait "$bg" || rc=$?
	is "SIG$sig: the run ends with exit 1" "$rc" 1
	ok "SIG$sig: says it was interrupted" grep -q "interrupted by" "$TMPD/bg.err"
	ok "SIG$sig: no task survives" children_gone
	is "SIG$sig: no SysV segment left" "$(shm_count)" "$shm_before"
	[ "$hp" = yes ] && ok "SIG$sig: hugepages free again" test "$(hp_free)" -ge "$free0"
done
[ "$hp" = yes ] && ok "no hugepage reservation left behind (Rsvd $(hp_rsvd) <= $rsvd0)" test "$(hp_rsvd)" -le "$rsvd0"
is "database integrity at the end" "$(sqlite3 "$db" "PRAGMA integrity_check")" ok
is "no run has values unless it is ok" \
	"$(sqlite3 "$db" "SELECT COUNT(*) FROM run WHERE status <> 'ok' AND id IN (SELECT run_id FROM value)")" 0
done_testing
