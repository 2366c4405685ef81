# test-lib.sh - sourced by every shell test (scripts/t/tNNNN-*.sh): git-style
# test blocks, prerequisites, cleanup and TAP output with a plan. POSIX sh.
# shellcheck shell=sh
#
#   . "$(dirname "$0")/test-lib.sh"
#
#   test_expect_success 'name' 'body'          # body is eval'd in this shell
#   test_expect_success ROOT,HYPERFINE 'name' 'body'
#   test_expect_success 'name' - <<\EOT        # body from a here-document,
#   test_is "$(sqlite3 "$db" "SELECT 'x'")" x  # so it may hold any quote
#   EOT
#   test_done                                  # the plan; exit 1 if a test failed
#
# A test passes when its body exits 0. Its output is kept and shown (as TAP
# comments) only when it fails, or always with -v / TEST_VERBOSE=1.
# Variables a body sets stay set for the next test, as in git's test-lib.
#
# Prerequisites (a test whose prerequisite is missing is skipped, and the
# skip line says which one and why):
#   ROOT               running as root
#   SETPRIV            setpriv(1) exists, so root can run a command as another user
#   UNPRIVILEGED_REACH root, setpriv, and user 65534 can reach $REACH, a
#                      world-readable scratch directory: tests that switch to
#                      that user run copies from there (reach_copy), never
#                      from the checkout, which may sit in a private directory
#   HUGEPAGES          set by the test itself after need_hugepages N succeeds
#   HYPERFINE SQLITE3 FLOCK GNUPLOT CHROMIUM SHELLCHECK VALGRIND   the tool is installed
#   NO_PMU             this machine has no hardware PMU
#   PERF_PARANOID2     kernel.perf_event_paranoid >= 2
# test_set_prereq NAME sets one; test_lazy_prereq NAME 'script' 'reason'
# defines one, evaluated once on first use. "!NAME" asks for its absence.
#
# Cleanup: test_when_finished 'cmd' (inside a body) runs cmd after that test,
# pass or fail; test_atexit 'cmd' runs cmd when the script ends (restoring a
# sysctl, say). A whole file that cannot run here calls skip_all 'reason'.
#
# Helpers the tests share (kept from tap.sh): run_sga (sgabench with stdout
# in $TMPD/out, stderr in $TMPD/err, status in $rc), json, hp_free,
# hp_rsvd, need_hugepages, shm_count, $top, $SGABENCH, $TMPD, $FIXTURES.

top=$(cd "$(dirname "$0")/../.." && pwd)
# A developer's SGABENCH_DB (a fleet server, say) must not catch the
# tests' default-path runs: tests that want it set it themselves.
unset SGABENCH_DB
# One collation and one decimal point for sort, awk and the tools tested.
LC_ALL=C
export LC_ALL
SGABENCH=${SGABENCH_BIN:-"$top/bench/sgabench"}
FIXTURES="$top/scripts/t/fixtures"
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/sgabench-t.XXXXXX")
test_count=0
test_failed=0
test_cleanup=""
test_atexit_cmds=""
test_in_body=""
test_prereqs_set=" "
test_prereqs_unset=" "
test_verbose=${TEST_VERBOSE:-0}
for test_arg in "$@"; do
	case "$test_arg" in
	-v | --verbose) test_verbose=1 ;;
	esac
done

# test_atexit CMD: run CMD (eval'd) when the script exits, latest first.
test_atexit() {
	test_atexit_cmds="$1
$test_atexit_cmds"
}
# at_exit CMD: the old name of test_atexit.
at_exit() { test_atexit "$1"; }

test_exit_() {
	eval "$test_atexit_cmds"
	rm -rf "$TMPD"
}
trap test_exit_ EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- reporting -------------------------------------------------------------

# test_ok_ NAME / test_failure_ NAME [OUTPUT-FILE]: one TAP result line.
test_ok_() {
	test_count=$((test_count + 1))
	echo "ok $test_count - $1"
}
test_failure_() {
	test_count=$((test_count + 1))
	test_failed=$((test_failed + 1))
	echo "not ok $test_count - $1"
	[ -z "${2:-}" ] || sed 's/^/#   /' "$2" | head -n 40
}
# test_skip_ NAME REASON
test_skip_() {
	test_count=$((test_count + 1))
	echo "ok $test_count # SKIP $1 ($2)"
}

# test_is GOT WANT: succeed when the strings are equal, else show both.
test_is() {
	[ "$1" = "$2" ] && return 0
	printf "got:  '%s'\nwant: '%s'\n" "$1" "$2"
	return 1
}

# ---- prerequisites ---------------------------------------------------------

# test_set_prereq NAME: NAME holds from now on.
test_set_prereq() {
	test_prereqs_set="$test_prereqs_set$1 "
}

# test_lazy_prereq NAME SCRIPT REASON: NAME holds if SCRIPT (eval'd once, on
# first use, in a subshell) exits 0; REASON says what is missing otherwise.
test_lazy_prereq() {
	eval "test_lazy_script_$1=\$2"
	eval "test_lazy_reason_$1=\$3"
}

# test_prereq_if NAME REASON CMD [ARGS]: run CMD in this shell (so what it
# registers with test_atexit stays registered); NAME holds if it succeeds,
# else REASON is what a skipped test says.
test_prereq_if() {
	test_pname_=$1
	eval "test_lazy_reason_$1=\$2"
	shift 2
	if "$@"; then
		test_set_prereq "$test_pname_"
	else
		test_prereqs_unset="$test_prereqs_unset$test_pname_ "
	fi
}

# test_have_prereq LIST: every prerequisite of the comma-separated LIST
# holds ("!NAME": does not hold). On failure test_missing_ says which and why.
test_have_prereq() {
	test_missing_=""
	for test_p_ in $(printf '%s\n' "$1" | tr ',' ' '); do
		test_want_=yes
		case "$test_p_" in !*) test_want_=no; test_p_=${test_p_#!} ;; esac
		test_prereq_eval_ "$test_p_"
		case "$test_prereqs_set" in *" $test_p_ "*) test_got_=yes ;; *) test_got_=no ;; esac
		[ "$test_got_" = "$test_want_" ] && continue
		if [ "$test_want_" = yes ]; then
			test_why_=""
			eval "test_why_=\${test_lazy_reason_$test_p_:-not set by this test}"
			test_missing_="${test_missing_:+$test_missing_; }missing $test_p_: $test_why_"
		else
			test_missing_="${test_missing_:+$test_missing_; }runs only without $test_p_"
		fi
	done
	[ -z "$test_missing_" ]
}

# test_prereq_eval_ NAME: evaluate a lazy prerequisite once.
test_prereq_eval_() {
	case "$test_prereqs_set$test_prereqs_unset" in *" $1 "*) return 0 ;; esac
	eval "test_script_=\${test_lazy_script_$1:-}"
	[ -n "$test_script_" ] || return 0
	if (eval "$test_script_") >/dev/null 2>&1; then
		test_set_prereq "$1"
	else
		test_prereqs_unset="$test_prereqs_unset$1 "
	fi
}

test_lazy_prereq ROOT '[ "$(id -u)" -eq 0 ]' "needs root"
test_lazy_prereq SETPRIV 'command -v setpriv' "setpriv not installed (apt-get install util-linux)"
test_lazy_prereq HYPERFINE 'command -v hyperfine' "hyperfine not installed (apt-get install hyperfine)"
test_lazy_prereq SQLITE3 'command -v sqlite3' "sqlite3 not installed (apt-get install sqlite3)"
test_lazy_prereq FLOCK 'command -v flock' "flock not installed (apt-get install util-linux)"
test_lazy_prereq GNUPLOT 'command -v gnuplot' "gnuplot not installed (apt-get install gnuplot-nox)"
test_lazy_prereq CHROMIUM 'command -v chromium || command -v chromium-browser' \
	"chromium not installed (apt-get install chromium)"
test_lazy_prereq SHELLCHECK 'command -v shellcheck' "shellcheck not installed (apt-get install shellcheck)"
test_lazy_prereq VALGRIND 'command -v valgrind' "valgrind not installed (apt-get install valgrind)"
test_lazy_prereq PERF_PARANOID2 '[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ]' \
	"kernel.perf_event_paranoid is below 2, so nothing is refused"
test_lazy_prereq NO_PMU '[ -z "$(core_pmus)" ]' "this machine has a hardware PMU"
test_lazy_prereq UNPRIVILEGED_REACH 'reach_check' \
	"needs root and setpriv to switch to user 65534, and a scratch directory under TMPDIR=${TMPDIR:-/tmp} that user 65534 can enter"

# core_pmus: the hardware PMUs the kernel lists (none in most VMs).
core_pmus() {
	for d in /sys/bus/event_source/devices/*; do
		case ${d##*/} in
		software|tracepoint|breakpoint|msr|uprobe|kprobe|power|cstate_*|amd_iommu*|intel_pt|i915|'*') ;;
		*) printf ' %s' "${d##*/}" ;;
		esac
	done
}

# ---- tests -----------------------------------------------------------------

# test_run_body_: the body of the current test, in a function of its own,
# so that a "return 1" in the body (out of a loop) fails the test instead of
# returning from test_expect_success unreported.
test_run_body_() {
	eval "$test_body_"
}

# test_expect_success [PREREQS] NAME BODY: run BODY (or, when BODY is "-",
# the here-document on stdin) as one test, unless a prerequisite is missing.
test_expect_success() {
	test_prereq_=""
	[ $# -eq 3 ] && { test_prereq_=$1; shift; }
	[ $# -eq 2 ] || { echo "bug in the test script: test_expect_success takes [PREREQS] NAME BODY" >&2; exit 1; }
	test_name_=$1
	test_body_=$2
	[ "$test_body_" = - ] && test_body_=$(cat)
	if [ -n "$test_prereq_" ] && ! test_have_prereq "$test_prereq_"; then
		test_skip_ "$test_name_" "$test_missing_"
		return 0
	fi
	test_cleanup=""
	test_in_body=1
	set --
	test_rc_=0
	test_run_body_ </dev/null >"$TMPD/.test.out" 2>&1 || test_rc_=$?
	test_in_body=""
	if [ -n "$test_cleanup" ]; then
		eval "$test_cleanup" </dev/null >>"$TMPD/.test.out" 2>&1 ||
			{ echo "test_when_finished cleanup failed" >>"$TMPD/.test.out"; test_rc_=1; }
		test_cleanup=""
	fi
	if [ "$test_rc_" -eq 0 ]; then
		test_ok_ "$test_name_"
		[ "$test_verbose" -eq 0 ] || sed 's/^/#   /' "$TMPD/.test.out"
	else
		printf 'body:%s\n' "$(printf '%s\n' "$test_body_" | sed 's/^/  /')" >>"$TMPD/.test.out"
		test_failure_ "$test_name_" "$TMPD/.test.out"
	fi
	return 0
}

# test_when_finished CMD: inside a test body, run CMD after the test.
test_when_finished() {
	[ -n "$test_in_body" ] || { echo "bug in the test script: test_when_finished outside a test" >&2; exit 1; }
	test_cleanup="$1
$test_cleanup"
}

# skip_all REASON: nothing (more) in this file can run here; say why and
# stop. Before any test that is a plan of 0; after some, one skipped test.
skip_all() {
	if [ "$test_count" -eq 0 ]; then
		echo "1..0 # SKIP $1"
		exit 0
	fi
	test_skip_ "the rest of this file" "$1"
	test_done
}

# test_done: print the plan; exit 1 if any test failed.
test_done() {
	if [ "$test_count" -eq 0 ]; then
		echo "1..0 # SKIP no test ran"
		exit 0
	fi
	echo "1..$test_count"
	[ "$test_failed" -eq 0 ] || exit 1
	exit 0
}

# The one-line forms of tap.sh, for tests not yet written as blocks:
# ok NAME CMD..., is NAME GOT WANT, skip NAME REASON, done_testing.
ok() {
	test_name_=$1
	shift
	if "$@" >"$TMPD/.test.out" 2>&1; then
		test_ok_ "$test_name_"
	else
		echo "command: $*" >>"$TMPD/.test.out"
		test_failure_ "$test_name_" "$TMPD/.test.out"
	fi
}
is() {
	if test_is "$2" "$3" >"$TMPD/.test.out"; then test_ok_ "$1"; else test_failure_ "$1" "$TMPD/.test.out"; fi
}
skip() { test_skip_ "$1" "$2"; }
done_testing() { test_done; }

# ---- helpers ---------------------------------------------------------------

# Run sgabench, capturing stdout in $TMPD/out, stderr in $TMPD/err; sets $rc.
# shellcheck disable=SC2034 # rc is read by the test scripts
run_sga() {
	rc=0
	"$SGABENCH" "$@" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
}

# refuse RC ERR ARGS...: whether sgabench ARGS exits RC and says ERR on
# stderr (its output in $TMPD/r.out and $TMPD/r.err); sets $rc.
refuse() {
	want=$1 msg=$2
	shift 2
	rc=0
	"$SGABENCH" "$@" >"$TMPD/r.out" 2>"$TMPD/r.err" || rc=$?
	test_is "$rc" "$want" && grep -q -- "$msg" "$TMPD/r.err"
}

# json PATH: extract a value from $TMPD/out with SQLite's JSON functions.
json() {
	sqlite3 :memory: "SELECT json_extract(readfile('$TMPD/out'), '$1')"
}

# with_named_args NAME CMD...: run CMD... NAME ARG..., the named query NAME
# (sgabench db query --list) with each of its arguments taken from a
# variable the caller set: nq_sweep (SWEEP_UUID), nq_sweep_name (SWEEP_NAME,
# NAME), nq_label (LABEL), nq_backend (BACKEND), nq_machine (MACHINE_ID),
# nq_base, nq_cand, nq_time (BASELINE CANDIDATE TIME); N is 5, STATUS ok,
# PATTERN model:%, METRIC first-touch-faults. An argument with no value
# fails, so a new query cannot pass untested.
with_named_args() {
	wna_name=$1
	shift
	wna_spec=$("$SGABENCH" db query --list | awk -v n="$wna_name" '$1 == n' | cut -c24-64)
	set -- "$@" "$wna_name"
	for wna_a in $wna_spec; do
		case $wna_a in
		SWEEP_UUID) set -- "$@" "${nq_sweep?}" ;;
		SWEEP_NAME | NAME) set -- "$@" "${nq_sweep_name?}" ;;
		N) set -- "$@" 5 ;;
		LABEL) set -- "$@" "${nq_label?}" ;;
		STATUS) set -- "$@" ok ;;
		BACKEND) set -- "$@" "${nq_backend?}" ;;
		PATTERN) set -- "$@" "model:%" ;;
		MACHINE_ID) set -- "$@" "${nq_machine?}" ;;
		MACHINE) set -- "$@" "" ;;	# a machine name; empty: any machine
		METRIC) set -- "$@" first-touch-faults ;;
		BASELINE) set -- "$@" "${nq_base?}" ;;
		CANDIDATE) set -- "$@" "${nq_cand?}" ;;
		TIME) set -- "$@" "${nq_time?}" ;;
		*) echo "# no test value for $wna_a of $wna_name" >&2; return 1 ;;
		esac
	done
	"$@"
}

# Reserved-but-unfaulted 2 MiB hugepages right now (they still count as free).
hp_rsvd() {
	awk '/^HugePages_Rsvd:/ { print $2 }' /proc/meminfo
}

# Free 2 MiB hugepages right now.
hp_free() {
	awk '/^HugePages_Free:/ { print $2 }' /proc/meminfo
}

# no_hugepage_users: no process maps hugetlb pages now. The pool's free and
# reserved counts are the whole machine's: when another job maps hugepages
# (a PostgreSQL server, another benchmark), they cannot tell whether this
# test's own runs gave theirs back.
no_hugepage_users() {
	for f in /proc/[0-9]*/smaps_rollup; do
		if awk '/^(Shared|Private)_Hugetlb:/ && $2 > 0 { u = 1 } END { exit !u }' "$f" 2>/dev/null; then
			f=${f#/proc/}
			echo "# process ${f%%/*} maps hugepages"
			return 1
		fi
	done
}

# hp_alone NAME: set prerequisite NAME (a new name at each use) when
# no_hugepage_users holds now, for a check of the pool's counts.
hp_alone() {
	test_prereq_if "$1" "another process maps hugepages: the pool's counts are not this test's" no_hugepage_users
}

# Make at least $1 free 2 MiB hugepages available for this test; restore the
# pool at exit. Returns 1 (so the caller skips) when that is impossible.
need_hugepages() {
	want=$1
	[ "$(id -u)" -eq 0 ] || return 1
	[ -w /proc/sys/vm/nr_hugepages ] || return 1
	old=$(cat /proc/sys/vm/nr_hugepages)
	free_now=$(hp_free)
	[ "$free_now" -ge "$want" ] && return 0
	test_atexit "echo $old > /proc/sys/vm/nr_hugepages"
	echo $((old + want - free_now)) > /proc/sys/vm/nr_hugepages
	[ "$(hp_free)" -ge "$want" ]
}

# Count SysV shared memory segments (of everyone on the machine).
shm_count() {
	tail -n +2 /proc/sysvipc/shm | wc -l
}

# shm_orphans: SysV segments whose creator is gone, a leak's signature
# (sgabench marks its segment for removal once attached, so it vanishes with
# its last user). Other jobs' live segments do not move this count.
shm_orphans() {
	awk 'NR > 1 { print $5 }' /proc/sysvipc/shm | {
		n=0
		while read -r pid; do
			[ -d "/proc/$pid" ] || n=$((n + 1))
		done
		echo "$n"
	}
}

# shm_count_by PID: the SysV segments process PID created that still exist;
# unlike shm_count, not moved by other processes on the machine.
shm_count_by() {
	awk -v pid="$1" 'NR > 1 && $5 == pid { n++ } END { print n + 0 }' /proc/sysvipc/shm
}

# shm_attached_by PID: how many processes have the segments PID created
# attached (0 when it created none).
shm_attached_by() {
	awk -v pid="$1" 'NR > 1 && $5 == pid { n += $7 } END { print n + 0 }' /proc/sysvipc/shm
}

# wait_until CMD...: run CMD every 0.1 s until it succeeds; 1 if it still
# fails after TEST_WAIT_S (default 300) seconds. The bound only stops a
# test that would hang: it is not a time the condition is expected within,
# so a slow or loaded machine passes too.
wait_until() {
	wu_n=$((${TEST_WAIT_S:-300} * 10))
	until "$@"; do
		wu_n=$((wu_n - 1))
		[ "$wu_n" -gt 0 ] || return 1
		sleep 0.1
	done
}

# ---- running as another user -------------------------------------------------

# $REACH: a scratch directory user 65534 can enter and read (the checkout may
# be in a directory only its owner can enter: mktemp -d makes mode 0700).
REACH="$TMPD/reach"

# as_nobody CMD [ARGS]: run CMD as user and group 65534, without groups.
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# reach_check: root, setpriv, and user 65534 can list $REACH.
reach_check() {
	[ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 || return 1
	mkdir -p "$REACH" && chmod 755 "$TMPD" "$REACH" && : >"$REACH/.probe" &&
		chmod 644 "$REACH/.probe" && as_nobody test -r "$REACH/.probe"
}

# reach_copy PATH...: copy PATHs (relative to the checkout: scripts,
# bench/sgabench, ...) under $REACH, readable and executable by everyone.
# bench/sgabench is the binary under test, $SGABENCH.
reach_copy() {
	for p in "$@"; do
		mkdir -p "$REACH/$(dirname "$p")"
		if [ "$p" = bench/sgabench ]; then
			cp "$SGABENCH" "$REACH/$p"
		else
			cp -R "$top/$p" "$REACH/$p"
		fi
	done
	chmod -R a+rX "$REACH"
}
