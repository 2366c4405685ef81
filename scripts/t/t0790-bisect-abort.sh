#!/bin/sh
# t0790: the bisect oracle's errors stop 'git bisect run' instead of
# steering it. git marks a commit bad on any status from 1 to 127 but 125
# and stops on 128 or more (git-bisect(1)), so the oracle (scripts/bisect's
# first form) exits 128 plus the table's code: 130 for a usage error, 131
# for a missing resource, 129 when it fails itself; the kernel walk keeps
# 2 and 3. A real 'git bisect run' over a throwaway repository (the
# candidate is the deterministic TLB model, as in t0730) must stop with
# its marks as they were: no commit marked bad by an error. SIGTERM and
# SIGINT end the command being measured, with its children (a native
# run's SysV segment included), and remove the oracle's temporary
# databases.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
command -v git >/dev/null 2>&1 || skip_all "git not installed"
command -v pgrep >/dev/null 2>&1 || skip_all "pgrep not installed"
bisect=$top/scripts/bisect
sim="$SGABENCH sim --tasks 2 --rounds 4 --sga-size 64m --working-set 2m --page-size 64k --cores 1 --tag asid"
big="$sim --tlb dtlb:128,full,lru"
repo=$TMPD/repo

# oracle [VAR=VALUE...] ARGS...: run scripts/bisect with the environment
# given; its status in $rc
oracle() {
	rc=0
	env "$@" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
}

test_expect_success 'oracle errors exit 128 + code: usage 130, resource 131, its own failure 129' - <<\EOT
	oracle "$bisect" --baseline-cmd "$big" --candidate-cmd "$big" && test_is "$rc" 130 &&
	grep -q "error: --metric is required" "$TMPD/err" &&
	grep -q "the bisection must stop here (exit 130)" "$TMPD/err" &&
	oracle "$bisect" --bogus && test_is "$rc" 130 &&
	oracle "$bisect" --baseline label:good --db "$TMPD/none.db" --candidate-cmd "$big" --metric dtlb-walks &&
	test_is "$rc" 131 && grep -q "no database at '$TMPD/none.db'" "$TMPD/err" &&
	oracle SGABENCH_BIN="$TMPD/no-sgabench" "$bisect" --baseline-cmd "$big" --candidate-cmd "$big" \
		--metric dtlb-walks &&
	test_is "$rc" 131 && grep -q "no sgabench at '$TMPD/no-sgabench'" "$TMPD/err" &&
	oracle TMPDIR="$TMPD/no-such-dir" "$bisect" --baseline-cmd "$big" --candidate-cmd "$big" \
		--metric dtlb-walks &&
	test_is "$rc" 129 && grep -q "the oracle could not judge this commit" "$TMPD/err"
EOT

test_expect_success 'a stored baseline with no runs: 131 at the first comparison' - <<\EOT
	SGABENCH_DB=$TMPD/base.db sh -c "$big --label good" >/dev/null 2>&1 &&
	oracle "$bisect" --baseline label:nosuch --db "$TMPD/base.db" --candidate-cmd "$big" --metric dtlb-walks &&
	test_is "$rc" 131 && grep -q "no successful runs match the baseline 'label:nosuch'" "$TMPD/err"
EOT

test_expect_success 'the kernel walk keeps the table: usage 2, resource 3' - <<\EOT
	oracle "$bisect" --kernels "6.1.170-3" --machine m --metric startup-s --db "$TMPD/base.db" && test_is "$rc" 2 &&
	oracle "$bisect" --kernels "6.1.170-3 6.1.172-1" --machine m --metric startup-s --db "$TMPD/base.db" &&
	test_is "$rc" 3
EOT

# A repository of 5 commits whose "build" writes the TLB size the
# candidate simulates (always 128); bisect_marks prints the bisection's
# good and bad marks, one a line, in git's order.
test_expect_success 'a throwaway repository under git bisect' - <<\EOT
	mkdir "$repo" && (
		cd "$repo" && git init -q && git config user.email t@example.invalid && git config user.name t &&
		echo tlb.out >.gitignore && printf 'echo 128 >tlb.out\n' >build && git add build .gitignore &&
		for i in 1 2 3 4 5; do
			echo "$i" >n && git add n && git commit -q -m "commit $i"
		done
	)
EOT
bisect_marks() { git -C "$repo" bisect log | grep '^# \(good\|bad\|skip\):' | sort; }
# test_cmp_marks: the bisection's marks are the ones it started with
test_cmp_marks() { test_is "$(cat "$TMPD/marks.after")" "$(cat "$TMPD/marks.before")"; }

# under_bisect ORACLE-ARGS...: start a bisection of commit 1 (good) to 5
# (bad), run the oracle with ARGS under 'git bisect run'; git's status in
# $grc, its output in $TMPD/bisect.log, the marks before and after in
# $TMPD/marks.before and .after.
under_bisect() {
	(cd "$repo" && git bisect start HEAD "$(git log --format=%H --grep='^commit 1$')" >/dev/null) &&
	bisect_marks >"$TMPD/marks.before" &&
	grc=0 &&
	(cd "$repo" && git bisect run "$bisect" "$@") >"$TMPD/bisect.log" 2>&1 || grc=$?
	bisect_marks >"$TMPD/marks.after"
	git -C "$repo" bisect reset >/dev/null 2>&1
}

test_expect_success 'git bisect run stops on a usage error: no commit marked bad' - <<\EOT
	under_bisect --baseline-cmd "$big" --candidate-cmd "sh ./build && $big" --metric dtlb-walks --threshold x &&
	test "$grc" -ne 0 &&
	grep -q "bisect run failed: exit code 130" "$TMPD/bisect.log" &&
	! grep -q "is the first bad commit" "$TMPD/bisect.log" &&
	test_is "$(wc -l <"$TMPD/marks.before")" 2 &&
	test_cmp_marks
EOT

test_expect_success 'git bisect run stops on a missing baseline: no commit marked bad' - <<\EOT
	under_bisect --baseline label:nosuch --db "$TMPD/base.db" --candidate-cmd "sh ./build && $big" \
		--metric dtlb-walks &&
	test "$grc" -ne 0 &&
	grep -q "bisect run failed: exit code 131" "$TMPD/bisect.log" &&
	! grep -q "is the first bad commit" "$TMPD/bisect.log" &&
	test_cmp_marks
EOT

test_expect_success 'and still steps through good commits to an answer when nothing is wrong' - <<\EOT
	under_bisect --baseline-cmd "$big" --candidate-cmd "sh ./build && $big" --metric dtlb-walks &&
	test_is "$grc" 0 &&
	grep -q "is the first bad commit" "$TMPD/bisect.log" &&
	grep -q "commit 5" "$TMPD/bisect.log"
EOT

# ended PID: PID runs no more (gone, or a zombie that its new parent has
# not reaped yet: the orphaned child's reaper is not ours to wait for)
ended() {
	case $(ps -o stat= -p "$1" 2>/dev/null) in
	'' | Z*) return 0 ;;
	*) return 1 ;;
	esac
}

# all_ended PID...: none of them runs
all_ended() {
	for _p in "$@"; do
		ended "$_p" || return 1
	done
}

# interrupt SIGNAL STATUS: run the oracle in the background with a
# candidate that starts a child and waits on it, send SIGNAL once the
# child runs, and check the status, that both processes end and that the
# oracle's temporary directory is gone. A shell starts a background job
# with SIGINT ignored; env --default-signal gives the oracle a default one,
# as a terminal's Ctrl-C would find it.
interrupt() {
	rm -rf "$TMPD/otmp" "$TMPD"/cand.pid "$TMPD"/sleep.pid && mkdir "$TMPD/otmp" &&
	cand="echo \$\$ >'$TMPD/cand.pid.tmp'; sleep 600 & echo \$! >'$TMPD/sleep.pid';"
	cand="$cand mv '$TMPD/cand.pid.tmp' '$TMPD/cand.pid'; wait"
	TMPDIR=$TMPD/otmp env --default-signal=INT "$bisect" --baseline-cmd "$big" --candidate-cmd "$cand" \
		--metric dtlb-walks >"$TMPD/out" 2>"$TMPD/err" &
	opid=$!
	test_when_finished "kill \$(cat '$TMPD/sleep.pid' '$TMPD/cand.pid' 2>/dev/null) 2>/dev/null || :"
	wait_until test -s "$TMPD/cand.pid" &&
	kill "-$1" "$opid" &&
	orc=0 && { wait "$opid" || orc=$?; } &&
	test_is "$orc" "$2" &&
	grep -q "interrupted: no answer for this commit" "$TMPD/err" &&
	wait_until ended "$(cat "$TMPD/cand.pid")" &&
	wait_until ended "$(cat "$TMPD/sleep.pid")" &&
	test_is "$(ls -A "$TMPD/otmp")" ""
}

test_expect_success 'SIGTERM: 143, the measured command and its child ended, temporary databases removed' - <<\EOT
	interrupt TERM 143
EOT

test_expect_success 'SIGINT (Ctrl-C): 130, the same' - <<\EOT
	interrupt INT 130
EOT

# A native run as the candidate (4 KiB pages: no hugepage pool needed),
# long enough to be running when the signal comes: its SysV segment (the
# one whose creator is the run's pid) goes with it.
test_expect_success 'SIGTERM during a native run: its segment removed, no process left' - <<\EOT
	rm -rf "$TMPD/otmp" "$TMPD/cand.pid" && mkdir "$TMPD/otmp" &&
	cand="echo \$\$ >'$TMPD/cand.pid.tmp' && mv '$TMPD/cand.pid.tmp' '$TMPD/cand.pid' &&"
	cand="$cand exec $SGABENCH run --tasks 2 --sga-size 64m --page-size 4k --rounds 1000000"
	TMPDIR=$TMPD/otmp "$bisect" --baseline-cmd "$big" --candidate-cmd "$cand" --metric dtlb-walks \
		>"$TMPD/out" 2>"$TMPD/err" &
	opid=$!
	test_when_finished "kill \$(cat '$TMPD/cand.pid' 2>/dev/null) 2>/dev/null || :"
	wait_until test -s "$TMPD/cand.pid" &&
	run=$(cat "$TMPD/cand.pid") &&
	wait_until eval 'test "$(shm_count_by "$run")" -ge 1 && test "$(pgrep -P "$run" | wc -l)" -eq 2' &&
	tasks=$(pgrep -P "$run") &&
	kill -TERM "$opid" &&
	orc=0 && { wait "$opid" || orc=$?; } &&
	test_is "$orc" 143 &&
	wait_until all_ended $run $tasks &&
	test_is "$(shm_count_by "$run")" 0 &&
	test_is "$(ls -A "$TMPD/otmp")" ""
EOT

test_done
