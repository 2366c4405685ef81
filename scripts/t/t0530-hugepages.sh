#!/bin/sh
# t0530: scripts/hugepages reserves a pool and restores the previous size
# after the command succeeds, fails or is killed; 'restore' uses the state
# 'reserve' recorded; a non-root user gets the exact sysctl and exit 3.
# shellcheck source=scripts/t/tap.sh
. "$(dirname "$0")/tap.sh"

hp="$top/scripts/hugepages"
pool=/sys/kernel/mm/hugepages/hugepages-2048kB
rc=0
"$hp" reserve >/dev/null 2>&1 || rc=$?
is "reserve without a count is a usage error" "$rc" 2
rc=0
"$hp" reserve 4 3m >/dev/null 2>&1 || rc=$?
is "an unknown size is a usage error" "$rc" 2
ok "status lists the 2 MiB pool" sh -c "'$hp' status | grep -q '^2048kB: total [0-9]*, free [0-9]*'"

if [ "$(id -u)" -ne 0 ] || [ ! -w "$pool/nr_hugepages" ]; then
	skip "reserve and restore" "needs root"
	done_testing
	exit
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
is "reserve -- COMMAND: the command's status" "$rc" 0
ok "inside the command at least $want pages were free" test "$(cat "$TMPD/inside")" -ge "$want"
is "afterwards the pool is back" "$(cat "$pool/nr_hugepages")" "$before"

fresh
rc=0
reserve_cmd "$want" -- sh -c 'exit 5' || rc=$?
is "a failing command: its status" "$rc" 5
is "and the pool is back" "$(cat "$pool/nr_hugepages")" "$before"

fresh
# In its own process group, as a job run from a terminal or cron is: the
# group gets the signal, as with Ctrl-C.
setsid "$hp" reserve "$want" -- sleep 30 2>/dev/null &
pid=$!
n=0
while [ "$(cat "$pool/nr_hugepages")" = "$before" ] && [ "$n" -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
ok "while it runs the pool is larger" test "$(cat "$pool/nr_hugepages")" -gt "$before"
sleep 0.2
kill -TERM "-$pid"
rc=0
wait "$pid" || rc=$?
is "killed (SIGTERM to its group): status 143" "$rc" 143
is "and the pool is back" "$(cat "$pool/nr_hugepages")" "$before"

state="$TMPD/state"
fresh
old=$(SGABENCH_STATE_DIR="$state" "$hp" reserve "$want" 2>/dev/null)
is "reserve prints the previous size" "$old" "$before"
ok "the pool grew" test "$(cat "$pool/nr_hugepages")" -gt "$before"
is "the state file holds it" "$(cat "$state/hugepages-2m")" "$before"
SGABENCH_STATE_DIR="$state" "$hp" restore 2>/dev/null
is "restore puts it back" "$(cat "$pool/nr_hugepages")" "$before"
ok "and removes the state file" test ! -e "$state/hugepages-2m"

if command -v setpriv >/dev/null 2>&1; then
	fresh
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups "$hp" reserve "$want" >/dev/null 2>"$TMPD/err" || rc=$?
	is "not root: exit 3" "$rc" 3
	ok "with the exact sysctl" grep -q "as root: sysctl -w vm.nr_hugepages=[0-9][0-9]*\$" "$TMPD/err"
	is "and the pool untouched" "$(cat "$pool/nr_hugepages")" "$before"
else
	skip "not root" "setpriv not installed"
fi
done_testing
