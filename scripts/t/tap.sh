# tap.sh - sourced by scripts/t/t*.sh: TAP output and helpers (POSIX sh).
#
#   . "$(dirname "$0")/tap.sh"
#   ok "name" test -f x          # runs the command; ok if it succeeds
#   is "name" "$got" "$want"     # string equality, shows both on failure
#   skip "name" "reason"
#   done_testing                 # prints the plan, exits 1 if anything failed

top=$(cd "$(dirname "$0")/../.." && pwd)
SGABENCH=${SGABENCH_BIN:-"$top/bench/sgabench"}
tap_n=0
tap_failed=0
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/sgabench-t.XXXXXX")
tap_cleanup_hooks=""

# Register a command to run at exit (restoring sysctls, killing leftovers).
at_exit() {
	tap_cleanup_hooks="$1
$tap_cleanup_hooks"
}

tap_exit() {
	eval "$tap_cleanup_hooks"
	rm -rf "$TMPD"
}
trap tap_exit EXIT
trap 'exit 130' INT TERM

ok() {
	name=$1
	shift
	tap_n=$((tap_n + 1))
	if "$@" >"$TMPD/ok.out" 2>&1; then
		echo "ok $tap_n - $name"
	else
		echo "not ok $tap_n - $name"
		echo "#   command: $*"
		sed 's/^/#   /' "$TMPD/ok.out" | head -20
		tap_failed=$((tap_failed + 1))
	fi
}

is() {
	tap_n=$((tap_n + 1))
	if [ "$2" = "$3" ]; then
		echo "ok $tap_n - $1"
	else
		echo "not ok $tap_n - $1"
		echo "#   got:  '$2'"
		echo "#   want: '$3'"
		tap_failed=$((tap_failed + 1))
	fi
}

skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP $1: $2"
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

# Run sgabench, capturing stdout in $TMPD/out, stderr in $TMPD/err; sets $rc.
# shellcheck disable=SC2034 # rc is read by the test scripts
run_sga() {
	rc=0
	"$SGABENCH" "$@" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
}

# json PATH: extract a value from $TMPD/out with SQLite's JSON functions.
json() {
	sqlite3 :memory: "SELECT json_extract(readfile('$TMPD/out'), '$1')"
}

# Reserved-but-unfaulted 2 MiB hugepages right now (they still count as free).
hp_rsvd() {
	awk '/^HugePages_Rsvd:/ { print $2 }' /proc/meminfo
}

# Free 2 MiB hugepages right now.
hp_free() {
	awk '/^HugePages_Free:/ { print $2 }' /proc/meminfo
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
	at_exit "echo $old > /proc/sys/vm/nr_hugepages"
	echo $((old + want - free_now)) > /proc/sys/vm/nr_hugepages
	[ "$(hp_free)" -ge "$want" ]
}

# Count SysV shared memory segments.
shm_count() {
	tail -n +2 /proc/sysvipc/shm | wc -l
}
