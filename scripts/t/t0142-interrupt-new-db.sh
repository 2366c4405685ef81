#!/bin/sh
# t0142: a run or sim that ends without storing leaves --db as it found
# it. Interrupted (SIGINT: exit 130, SIGTERM: 143) or refused after the
# database was opened, the database this command created is removed with
# its -wal and -shm; one that was there before, empty or not, is kept.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# 64 tasks x 8192 pages x 100000 rounds: minutes of simulation, far longer
# than the test; interrupted at its first progress line, which comes after
# the database is open (SGABENCH_TEST_PROGRESS_AFTER=0: no guessed time)
long="--machine intel-skylake --tasks 64 --pattern random --sga-size 16g --working-set 16g --page-size 2m --rounds 100000"

progressing() {
	grep -q "^sim: [0-9]* of [0-9]* accesses" "$TMPD/bg.err"
}

# interrupt SIG DB: start the long sim storing into DB, wait until it
# simulates, send SIG; its exit status into $rc
interrupt() {
	: >"$TMPD/bg.err"
	# shellcheck disable=SC2086 # $long is a list of arguments
	SGABENCH_TEST_PROGRESS_AFTER=0 "$SGABENCH" sim $long --progress --db "$2" \
		>"$TMPD/bg.out" 2>"$TMPD/bg.err" &
	bg=$!
	wait_until progressing || return 1
	kill -s "$1" "$bg"
	rc=0
	wait "$bg" || rc=$?
}

# no_files DB: neither DB nor any of its companions is there
no_files() {
	for f in "$1" "$1-wal" "$1-shm" "$1-journal"; do
		! test -e "$f" || { echo "left behind: $f"; return 1; }
	done
}

runs_in() {
	sqlite3 "$1" "SELECT COUNT(*) FROM run"
}

test_expect_success SQLITE3 'SIGINT of a sim into a new database: exit 130, the database is gone' - <<-\EOT
	db=$TMPD/new-int.db &&
	interrupt INT "$db" &&
	test_is "$rc" 130 &&
	no_files "$db"
EOT

test_expect_success SQLITE3 'SIGTERM of a sim into a new database: exit 143, the database is gone' - <<-\EOT
	db=$TMPD/new-term.db &&
	interrupt TERM "$db" &&
	test_is "$rc" 143 &&
	no_files "$db"
EOT

test_expect_success SQLITE3 'SIGINT of a sim into a database holding a run: kept, the run alone' - <<-\EOT
	db=$TMPD/old.db &&
	"$SGABENCH" sim --machine intel-skylake --tasks 2 --rounds 1 --db "$db" --quiet &&
	test_is "$(runs_in "$db")" 1 &&
	interrupt INT "$db" &&
	test_is "$rc" 130 &&
	test_is "$(runs_in "$db")" 1 &&
	test_is "$(sqlite3 "$db" "PRAGMA integrity_check")" ok
EOT

test_expect_success SQLITE3 'SIGINT of a sim into an empty file that was there: kept' - <<-\EOT
	db=$TMPD/empty.db &&
	: >"$db" &&
	interrupt INT "$db" &&
	test_is "$rc" 130 &&
	test -e "$db" &&
	test_is "$(runs_in "$db")" 0
EOT

test_expect_success 'a run refused after opening a new database (a usage error): exit 2, no database' - <<-\EOT
	db=$TMPD/refused.db &&
	run_sga run --tasks 1 --sga-size 4m --page-size 4k --working-set 8m --db "$db" &&
	test_is "$rc" 2 &&
	grep -q "working-set must be" "$TMPD/err" &&
	no_files "$db" &&
	run_sga run --tasks 1 --sga-size 4m --page-size 4k --events cycles --require dTLB-loads --db "$db" &&
	test_is "$rc" 2 &&
	no_files "$db"
EOT

test_expect_success SQLITE3 'a run refused into a database that was there: kept as it was' - <<-\EOT
	db=$TMPD/old.db &&
	run_sga run --tasks 1 --sga-size 4m --page-size 4k --working-set 8m --db "$db" &&
	test_is "$rc" 2 &&
	test_is "$(runs_in "$db")" 1
EOT

test_expect_success SQLITE3 'a sim that completes into a new database keeps it, with its run' - <<-\EOT
	db=$TMPD/done.db &&
	"$SGABENCH" sim --machine intel-skylake --tasks 2 --rounds 1 --db "$db" --quiet &&
	test_is "$(runs_in "$db")" 1
EOT
test_done
