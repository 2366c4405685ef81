#!/bin/sh
# t0150: runs writing one database at the same time all land (WAL and a
# busy timeout), including the very first open that creates the schema.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

db="$TMPD/conc.db"
pids=""
for i in 1 2 3 4; do
	"$SGABENCH" run --tasks 2 --sga-size 8m --page-size 4k --rounds 20 --db "$db" \
		--label "c$i" --quiet 2>"$TMPD/err$i" &
	pids="$pids $!"
done
fails=0
for p in $pids; do
	wait "$p" || fails=$((fails + 1))
done
test_expect_success "four concurrent runs all exit 0" 'test_is "$fails" 0'
test_expect_success "four runs stored" - <<-\EOT
	test_is "$(sqlite3 "$db" "SELECT COUNT(*) FROM run WHERE status = 'ok'")" 4
EOT
test_expect_success "each with its own label" 'test_is "$(sqlite3 "$db" "SELECT group_concat(label) FROM (SELECT label FROM run ORDER BY label)")" "c1,c2,c3,c4"'
test_expect_success "one machine row" 'test_is "$(sqlite3 "$db" "SELECT COUNT(*) FROM machine")" 1'
test_expect_success "eight task rows" 'test_is "$(sqlite3 "$db" "SELECT COUNT(*) FROM task")" 8'
test_expect_success "database is in WAL mode" 'test_is "$(sqlite3 "$db" "PRAGMA journal_mode")" wal'
test_expect_success "integrity check passes" 'test_is "$(sqlite3 "$db" "PRAGMA integrity_check")" ok'
test_done
