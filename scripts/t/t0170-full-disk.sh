#!/bin/sh
# t0170: the disk fills up while a run is being stored. The run was
# measured, so its results are printed, but the header must not say it was
# stored, the last message says it was not (with the database's path), the
# exit status is 1 (a database error), and nothing of the run is left in the
# database. The database sits on a 1 MiB tmpfs that is filled up but for a
# little room, so opening it works and the insert of a 64-task run does not.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

test_have_prereq ROOT || skip_all "mounting a small tmpfs needs root"
mnt="$TMPD/full"
mkdir -p "$mnt"
mount -t tmpfs -o size=1m sgabench-t0170 "$mnt" || skip_all "cannot mount a tmpfs here"
test_atexit "umount '$mnt'"
db="$mnt/x.db"
shm_before=$(shm_orphans)

test_expect_success 'a first run is stored' - <<-\EOT
	run_sga run --tasks 1 --sga-size 8m --page-size 4k --rounds 1 --db "$db" --quiet &&
	test_is "$rc" 0 &&
	test_is "$(sqlite3 "$db" "SELECT COUNT(*) FROM run")" 1
EOT

# fill ROOM_KIB: fill the tmpfs, then give back ROOM_KIB KiB.
fill() {
	rm -f "$mnt/fill"
	dd if=/dev/zero of="$mnt/fill" bs=4k 2>/dev/null
	truncate -s "-$1k" "$mnt/fill"
}
# How much room is "a little" depends on SQLite's page and WAL sizes: take
# the first that lets the database open and the insert fail.
for room in 32 48 64 96; do
	fill "$room"
	run_sga run --tasks 64 --sga-size 8m --page-size 4k --rounds 1 --db "$db"
	grep -q 'database or disk is full' "$TMPD/err" && break
done
test_expect_success 'the insert hit the full disk' 'grep -q "database or disk is full" "$TMPD/err"'
test_expect_success 'exit 1 (a database error)' 'test_is "$rc" 1'
test_expect_success 'the results were printed' 'grep -q "^run .*  native  ok" "$TMPD/out" && grep -q "first-touch-faults" "$TMPD/out"'
test_expect_success 'the header does not say it was stored' '! grep -q "stored in" "$TMPD/out"'
test_expect_success 'the last message: measured and printed, not stored, with the path' - <<-\EOT
	tail -n 1 "$TMPD/err" | grep -q "measured and printed above, but not stored in '$db': nothing of this run was written"
EOT
test_expect_success 'no empty error line' '! grep -q "error: run: *$" "$TMPD/err"'

fill 48
test_expect_success 'JSON: no run id and no database for a run that was not stored' - <<-\EOT
	run_sga run --tasks 64 --sga-size 8m --page-size 4k --rounds 1 --db "$db" --json &&
	test_is "$rc" 1 &&
	test_is "$(json '$.run_id') $(json '$.db')" " "
EOT
rm -f "$mnt/fill"

test_expect_success 'the database is intact' 'test_is "$(sqlite3 "$db" "PRAGMA integrity_check")" ok'
test_expect_success 'no partial run: only the first run, with its one task' - <<-\EOT
	test_is "$(sqlite3 "$db" "SELECT COUNT(*) FROM run; SELECT COUNT(*) FROM task; SELECT COUNT(DISTINCT run_id) FROM value" | tr '\n' ' ')" "1 1 1 "
EOT
test_expect_success 'runs lists only the first run' - <<-\EOT
	run_sga runs --db "$db" &&
	test_is "$rc" 0 &&
	test_is "$(grep -c native "$TMPD/out")" 1
EOT
test_expect_success 'no SysV segment left' 'test_is "$(shm_orphans)" "$shm_before"'
test_done
