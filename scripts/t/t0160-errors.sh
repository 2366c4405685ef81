#!/bin/sh
# t0160: every documented error path gives its exit code and a clear
# message, and leaves nothing behind.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

shm_before=$(shm_orphans)
# usage errors: exit 2, one line and a hint
expect_usage() {
	name=$1
	msg=$2
	shift 2
	run_sga "$@"
	test_expect_success "$name: exit 2" 'test_is "$rc" 2'
	test_expect_success "$name: says '$msg'" 'grep -q -- "$msg" "$TMPD/err"'
}
expect_usage "no command" "usage: sgabench"
expect_usage "unknown command" "unknown command 'frobnicate'" frobnicate
expect_usage "zero tasks" "--tasks '0': out of range 1..4096" run --tasks 0 --no-store
expect_usage "too many tasks" "out of range 1..4096" run --tasks 5000 --no-store
expect_usage "bad size" "not a size" run --sga-size 12q --no-store
expect_usage "size below minimum" "out of range" run --sga-size 100 --no-store
expect_usage "bad rounds" "not a count" run --rounds many --no-store
expect_usage "unknown pattern" "unknown --pattern 'sweep'" run --pattern sweep --no-store
expect_usage "unknown page size" "must be one of 4k|2m|1g|thp" run --page-size 64k --no-store
expect_usage "unknown option" "unknown option '--taks'" run --taks 3
expect_usage "size not a page multiple" "not a multiple of the 2 MiB page size" run --sga-size 3m --no-store
expect_usage "working set larger than the SGA" "--working-set" run --page-size 4k --sga-size 8m --working-set 16m --no-store
expect_usage "bad CPU list" "cpus" run --page-size 4k --sga-size 8m --cpus 3-1 --no-store
expect_usage "CPU out of range" "cpus" run --page-size 4k --sga-size 8m --cpus 9999 --no-store
expect_usage "bad placement" "--place" run --page-size 4k --sga-size 8m --place everywhere --no-store
expect_usage "NUMA node out of range" "--mem-node '7'" run --page-size 4k --sga-size 8m --mem-node 7 --no-store
expect_usage "--json with --csv" "exclude each other" run --json --csv --no-store
expect_usage "duplicate event" "given twice" run --page-size 4k --sga-size 8m --events task-clock,task-clock --no-store
expect_usage "stride not a power of two" "--stride must be a power of two" run --page-size 4k --sga-size 8m --stride 12k --no-store

# missing resources: exit 3 with the exact fix
run_sga run --page-size 4k --sga-size 8m --events NO_SUCH_EVENT_XYZ --no-store
test_expect_success "unknown event: exit 3" 'test_is "$rc" 3'
test_expect_success "unknown event: names it" - <<-\EOT
	grep -q "unknown event 'NO_SUCH_EVENT_XYZ'" "$TMPD/err"
EOT
run_sga run --sga-size 8m --page-size 2m --sharedctx --no-store
test_expect_success "--sharedctx off sparc64: exit 3" 'test_is "$rc" 3'
test_expect_success "--sharedctx: says not supported here and why" 'grep -q "not supported here: the sparc64 shared context needs" "$TMPD/err"'
test_expect_success ROOT "no hugepages: exit 3" - <<-\EOT
	old=$(cat /proc/sys/vm/nr_hugepages) &&
	test_atexit "echo $old > /proc/sys/vm/nr_hugepages" &&
	test_when_finished "echo $old > /proc/sys/vm/nr_hugepages" &&
	echo 0 > /proc/sys/vm/nr_hugepages &&
	run_sga run --sga-size 1g --page-size 2m --no-store &&
	test_is "$rc" 3
EOT
test_expect_success ROOT "no hugepages: gives the sysctl to run" 'grep -q "need 512 free 2 MiB hugepages, 0 free; as root: sysctl vm.nr_hugepages=512" "$TMPD/err"'
# An occupied address: with ASLR off, the binary itself sits at 0x555555554000.
addr=0x555555554000
rc=0; setarch "$(uname -m)" -R "$SGABENCH" run --page-size 4k --sga-size 8m --address "$addr" --no-store >"$TMPD/out" 2>"$TMPD/err" || rc=$?
test_expect_success "occupied --address: exit 3" 'test_is "$rc" 3'
test_expect_success "occupied --address: says so" 'grep -q "is occupied" "$TMPD/err"'
mkdir -p "$TMPD/ro"
chmod 500 "$TMPD/ro"
test_expect_success !ROOT "unwritable database: exit 1" - <<-\EOT
	run_sga run --page-size 4k --sga-size 8m --db "$TMPD/ro/x.db" &&
	test_is "$rc" 1
EOT
test_expect_success "database in a missing directory: exit 3, with the mkdir that fixes it" - <<-\EOT
	run_sga run --page-size 4k --sga-size 8m --db "$TMPD/not-a-dir/deeper/x.db" &&
	test_is "$rc" 3 &&
	grep -q "mkdir -p '$TMPD/not-a-dir/deeper'" "$TMPD/err"
EOT
test_expect_success ROOT "database error names the path" 'grep -q "cannot open database" "$TMPD/err"'
test_expect_success "run on a database from a newer sgabench: exit 3, as runs does" - <<-\EOT
	run_sga run --page-size 4k --sga-size 8m --tasks 1 --rounds 1 --db "$TMPD/newer.db" &&
	test_is "$rc" 0 &&
	sqlite3 "$TMPD/newer.db" "PRAGMA user_version = 999" &&
	run_sga run --page-size 4k --sga-size 8m --tasks 1 --rounds 1 --db "$TMPD/newer.db" &&
	test_is "$rc" 3 &&
	grep -q "newer than this sgabench" "$TMPD/err" &&
	run_sga runs --db "$TMPD/newer.db" &&
	test_is "$rc" 3 &&
	run_sga sim --rounds 1 --db "$TMPD/newer.db" &&
	test_is "$rc" 3
EOT
echo "not sqlite" > "$TMPD/junk.db"
test_expect_success "a file that is not a database: exit 3 from run, sim and runs alike" - <<-\EOT
	for c in "run --page-size 4k --sga-size 8m" "sim --rounds 1" "runs"; do
		# shellcheck disable=SC2086
		run_sga $c --db "$TMPD/junk.db" &&
		test_is "$rc:$(head -n 1 "$TMPD/err")" "3:sgabench: error: '$TMPD/junk.db' is not an SQLite database" ||
		return 1
	done
EOT
mkdir -p "$TMPD/adir"
test_expect_success "a directory as --db: exit 2, nothing made in it" - <<-\EOT
	for c in "sim --rounds 1" "runs"; do
		# shellcheck disable=SC2086
		run_sga $c --db "$TMPD/adir" &&
		test_is "$rc:$(head -n 1 "$TMPD/err")" "2:sgabench: error: '$TMPD/adir' is a directory, not a database" ||
		return 1
	done &&
	test_is "$(ls -A "$TMPD/adir")" ""
EOT
test_expect_success "a misspelt server address is refused, never made a local file" - <<-\EOT
	for u in "postgressql://u@127.0.0.1:1/db" "postgresql:/db"; do
		run_sga sim --rounds 1 --db "$u" &&
		test_is "$rc:$(head -n 1 "$TMPD/err")" "2:sgabench: error: '$u' is not a database address" &&
		grep -q "^hint: a server is postgresql://" "$TMPD/err" || return 1
	done &&
	! test -e postgressql: && ! test -e postgresql:
EOT
test_expect_success "a run stored under a bad SGABENCH_MACHINE: exit 2, nothing stored" - <<-\EOT
	for c in "run --page-size 4k --sga-size 8m --tasks 1" "sim --rounds 1"; do
		rc=0
		# shellcheck disable=SC2086
		SGABENCH_MACHINE="box 1" "$SGABENCH" $c --db "$TMPD/named.db" >/dev/null 2>"$TMPD/err" || rc=$?
		test_is "$rc:$(head -n 1 "$TMPD/err")" "2:sgabench: error: ${c%% *}: SGABENCH_MACHINE 'box 1' $(
			)is not a machine name" || return 1
	done &&
	! test -e "$TMPD/named.db"
EOT
run_sga runs --db "$TMPD/absent.db"
test_expect_success "runs on a missing database: exit 3" 'test_is "$rc" 3'
test_expect_success "no SysV segment left by any of these" 'test_is "$(shm_orphans)" "$shm_before"'
test_done
