#!/bin/sh
# t0150: runs writing one database at the same time all land (WAL and a
# busy timeout), including the very first open that creates the schema.
# shellcheck source=scripts/t/tap.sh
. "$(dirname "$0")/tap.sh"

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
is "four concurrent runs all exit 0" "$fails" 0
is "four runs stored" "$(sqlite3 "$db" "SELECT COUNT(*) FROM run WHERE status = 'ok'")" 4
is "each with its own label" "$(sqlite3 "$db" "SELECT group_concat(label) FROM (SELECT label FROM run ORDER BY label)")" "c1,c2,c3,c4"
is "one machine row" "$(sqlite3 "$db" "SELECT COUNT(*) FROM machine")" 1
is "eight task rows" "$(sqlite3 "$db" "SELECT COUNT(*) FROM task")" 8
is "database is in WAL mode" "$(sqlite3 "$db" "PRAGMA journal_mode")" wal
is "integrity check passes" "$(sqlite3 "$db" "PRAGMA integrity_check")" ok
done_testing
