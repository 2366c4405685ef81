#!/bin/sh
# t0530: scripts/hugepages reserves a pool and restores the previous size
# after the command succeeds, fails or is killed; 'restore' uses the state
# 'reserve' recorded; a non-root user gets the exact sysctl and exit 3.
# On fake pools and a fake meminfo (test knobs): what others hold, in use
# or reserved, is not counted as free, and the pool grows on top of it.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

hp="$top/scripts/hugepages"
pool=/sys/kernel/mm/hugepages/hugepages-2048kB
rc=0
"$hp" reserve >/dev/null 2>&1 || rc=$?
test_expect_success "reserve without a count is a usage error" 'test_is "$rc" 2'
rc=0
"$hp" reserve 4 3m >/dev/null 2>&1 || rc=$?
test_expect_success "an unknown size is a usage error" 'test_is "$rc" 2'
test_expect_success "status lists the 2 MiB pool" - <<-\EOT
	sh -c "'$hp' status | grep -q '^2048kB: total [0-9]*, free [0-9]*'"
EOT

# fake_pool TOTAL FREE RSVD: a 2 MiB pool under $TMPD/sysfs as the kernel shows it
fake_pool() {
	mkdir -p "$TMPD/sysfs/hugepages-2048kB" &&
	echo "$1" >"$TMPD/sysfs/hugepages-2048kB/nr_hugepages" &&
	echo "$2" >"$TMPD/sysfs/hugepages-2048kB/free_hugepages" &&
	echo "$3" >"$TMPD/sysfs/hugepages-2048kB/resv_hugepages" &&
	echo 0 >"$TMPD/sysfs/hugepages-2048kB/surplus_hugepages"
}
fake_hp() {
	SGABENCH_TEST_HUGEPAGES_SYSFS="$TMPD/sysfs" SGABENCH_STATE_DIR="$TMPD/fstate" "$hp" "$@"
}

test_expect_success "free for a new mapping: HugePages_Free less the reserved (fake meminfo)" - <<-\EOT
	printf 'HugePages_Total:     100\nHugePages_Free:      100\nHugePages_Rsvd:       40\n' >"$TMPD/meminfo" &&
	test_is "$(SGABENCH_TEST_MEMINFO="$TMPD/meminfo" sh -c "top='$top' && . '$top/scripts/lib.sh' && hugepages_free")" 60 &&
	rc=0 &&
	{ why=$(SGABENCH_TEST_MEMINFO="$TMPD/meminfo" sh -c "top='$top' && . '$top/scripts/lib.sh' && hugepages_short job 64") || rc=$?; } &&
	test_is "$rc" 1 &&
	test_is "$why" "job needs 64 free 2 MiB hugepages, 60 are free; as root: scripts/hugepages reserve 64"
EOT

test_expect_success "enough free beside what others hold: the pool is left alone (fake pool)" - <<-\EOT
	fake_pool 10 8 3 &&
	test_is "$(fake_hp reserve 4 2m 2>"$TMPD/ferr")" 10 &&
	test_is "$(cat "$TMPD/sysfs/hugepages-2048kB/nr_hugepages")" 10 &&
	test ! -e "$TMPD/fstate/hugepages-2m"
EOT

test_expect_success "5 in use and 3 reserved by others of 10: 4 more makes 12 (fake pool)" - <<-\EOT
	fake_pool 10 5 3 &&
	rc=0 &&
	{ fake_hp reserve 4 2m >/dev/null 2>"$TMPD/ferr" || rc=$?; } &&
	test_is "$rc" 3 &&
	grep -q "nr_hugepages=12\$\|hugepages=12 on the kernel command line" "$TMPD/ferr"
EOT

test_expect_success "a pool the kernel did not grow is put back, no state is left (fake pool)" - <<-\EOT
	test_is "$(cat "$TMPD/sysfs/hugepages-2048kB/nr_hugepages")" 10 &&
	test ! -e "$TMPD/fstate/hugepages-2m"
EOT

if [ "$(id -u)" -ne 0 ] || [ ! -w "$pool/nr_hugepages" ]; then
	skip_all "reserve and restore: needs root"
fi
avail() { echo $(($(cat "$pool/free_hugepages") - $(cat "$pool/resv_hugepages"))); }
# Other tests may change the pool too: measure it right before each case.
fresh() {
	want=$(($(avail) + 8))
	before=$(cat "$pool/nr_hugepages")
}
fresh

# reserve_cmd ARGS: scripts/hugepages reserve, retried (up to 3 times) when
# another test took the pages between our look at the pool and our request.
reserve_cmd() {
	for _ in 1 2 3; do
		rc=0
		"$hp" reserve "$@" 2>"$TMPD/rerr" || rc=$?
		grep -q "the kernel supplied" "$TMPD/rerr" || return "$rc"
		sleep 1
		fresh
	done
	return "$rc"
}

rc=0
reserve_cmd "$want" -- sh -c "echo \$((\$(cat $pool/free_hugepages) - \$(cat $pool/resv_hugepages))) > '$TMPD/inside'" || rc=$?
test_expect_success "reserve -- COMMAND: the command's status" 'test_is "$rc" 0'
test_expect_success "inside the command at least $want pages were free" 'test "$(cat "$TMPD/inside")" -ge "$want"'
test_expect_success "afterwards the pool is back" 'test_is "$(cat "$pool/nr_hugepages")" "$before"'

fresh
rc=0
reserve_cmd "$want" -- sh -c 'exit 5' || rc=$?
test_expect_success "a failing command: its status" 'test_is "$rc" 5'
test_expect_success "and the pool is back" 'test_is "$(cat "$pool/nr_hugepages")" "$before"'

fresh
# In its own process group, as a job run from a terminal or cron is: the
# group gets the signal, as with Ctrl-C.
# The command outlives the test (the signal ends it); the test waits for
# it to start, by its marker file, not for a time.
setsid "$hp" reserve "$want" -- sh -c ": >'$TMPD/started'; exec sleep 600" 2>/dev/null &
pid=$!
started() { test -e "$TMPD/started"; }
wait_until started
test_expect_success "while it runs the pool is larger" 'test "$(cat "$pool/nr_hugepages")" -gt "$before"'
kill -TERM "-$pid"
rc=0
wait "$pid" || rc=$?
test_expect_success "killed (SIGTERM to its group): status 143" 'test_is "$rc" 143'
test_expect_success "and the pool is back" 'test_is "$(cat "$pool/nr_hugepages")" "$before"'

state="$TMPD/state"
fresh
old=$(SGABENCH_STATE_DIR="$state" "$hp" reserve "$want" 2>/dev/null)
test_expect_success "reserve prints the previous size" 'test_is "$old" "$before"'
test_expect_success "the pool grew" 'test "$(cat "$pool/nr_hugepages")" -gt "$before"'
test_expect_success "the state file holds it" 'test_is "$(cat "$state/hugepages-2m")" "$before"'
SGABENCH_STATE_DIR="$state" "$hp" restore 2>/dev/null
test_expect_success "restore puts it back" 'test_is "$(cat "$pool/nr_hugepages")" "$before"'
test_expect_success "and removes the state file" 'test ! -e "$state/hugepages-2m"'

# As user 65534, from a copy of scripts/ that user can reach: the checkout
# itself may be in a directory only root can enter.
test_expect_success UNPRIVILEGED_REACH "not root: exit 3" - <<-\EOT
	reach_copy scripts &&
	fresh &&
	rc=0 &&
	{ as_nobody "$REACH/scripts/hugepages" reserve "$want" >/dev/null 2>"$TMPD/err" || rc=$?; } &&
	test_is "$rc" 3
EOT
test_expect_success UNPRIVILEGED_REACH "with the exact sysctl" 'grep -q "as root: sysctl -w vm.nr_hugepages=[0-9][0-9]*\$" "$TMPD/err"'
test_expect_success UNPRIVILEGED_REACH "and the pool untouched" 'test_is "$(cat "$pool/nr_hugepages")" "$before"'
test_done
