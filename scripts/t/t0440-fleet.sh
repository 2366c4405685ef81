#!/bin/sh
# t0440: a fleet on one database: 8 writers at once, each presenting its
# own machine fingerprint (the test-only SGABENCH_TEST_FINGERPRINT), every
# run lands exactly once; db merge in both directions (machines into the
# fleet database, the fleet into an offline copy) without duplicates; an
# input with fewer columns (an older schema) merges with the columns it
# has; compare --cross-machine reads across the machines. SQLite engine.
# shellcheck source=scripts/t/tap.sh
. "$(dirname "$0")/tap.sh"

for tool in jq sqlite3; do
	command -v "$tool" >/dev/null 2>&1 || { skip "fleet" "'$tool' not installed"; done_testing; exit; }
done
db=$TMPD/fleet.db

# writer I DB LABEL...: one machine (fingerprint ...0I) storing one model run
# per label, printing each run's uuid.
writer() {
	w=$1 wdb=$2
	shift 2
	for l in "$@"; do
		SGABENCH_TEST_FINGERPRINT=$(printf '%016x' "$((0xf1ee7000 + w))") \
			"$SGABENCH" sim --tasks 2 --rounds 2 --db "$wdb" --label "$l" --json | jq -r .uuid
	done
}

pids=""
for i in 1 2 3 4 5 6 7 8; do
	writer "$i" "$db" fleet-a fleet-a fleet-b fleet-b >"$TMPD/uuids.$i" 2>"$TMPD/err.$i" &
	pids="$pids $!"
done
fails=0
for p in $pids; do
	wait "$p" || fails=$((fails + 1))
done
is "8 concurrent writers all exit 0" "$fails" 0
cat "$TMPD"/uuids.* | sort >"$TMPD/uuids"
is "32 runs reported" "$(sort -u "$TMPD/uuids" | grep -c .)" 32
is "every reported run stored exactly once" "$(sqlite3 "$db" "SELECT uuid FROM run ORDER BY uuid" | sort | tr '\n' ' ')" "$(tr '\n' ' ' <"$TMPD/uuids")"
is "one machine row per fingerprint" "$(sqlite3 "$db" "SELECT COUNT(*) || ' ' || COUNT(DISTINCT fingerprint) FROM machine")" "8 8"
is "4 runs per machine" "$(sqlite3 "$db" "SELECT group_concat(n) FROM (SELECT COUNT(*) AS n FROM run GROUP BY machine_id)")" "4,4,4,4,4,4,4,4"
is "no partial run: every run has its 2 tasks" "$(sqlite3 "$db" "SELECT COUNT(*) FROM run r WHERE (SELECT COUNT(*) FROM task t WHERE t.run_id = r.id) <> 2")" 0

run_sga compare --db "$db" --baseline label:fleet-a --candidate label:fleet-b --cross-machine --json
is "compare --cross-machine across the fleet: exit 0 (the model is deterministic)" "$rc" 0
is "it pairs the runs of all 8 machines" "$(jq '[.rows[] | .n_base] | max' "$TMPD/out")" 16

# Two more machines write a local database; merge it into the fleet's.
writer 9 "$TMPD/local.db" local local >/dev/null 2>&1
writer 10 "$TMPD/local.db" local >/dev/null 2>&1
run_sga db merge "$TMPD/local.db" -o "$db" --json
is "merge into the fleet database: exit 0" "$rc" 0
is "3 runs and 2 machines added" "$(jq -r '.total | "\(.runs_added) \(.machines_added)"' "$TMPD/out")" "3 2"
run_sga db merge "$TMPD/local.db" -o "$db" --json
is "merging it again adds nothing" "$(jq -r '.total | "\(.runs_added) \(.runs_skipped) \(.machines_added)"' "$TMPD/out")" "0 3 0"

# The other direction: the fleet into an offline copy that already has some runs.
run_sga db merge "$db" -o "$TMPD/local.db" --json
is "merge the fleet into a local copy: exit 0" "$rc" 0
is "32 runs added, 3 already there" "$(jq -r '.total | "\(.runs_added) \(.runs_skipped)"' "$TMPD/out")" "32 3"
is "both now hold the same runs" "$(sqlite3 "$TMPD/local.db" "SELECT group_concat(uuid) FROM (SELECT uuid FROM run ORDER BY uuid)")" \
	"$(sqlite3 "$db" "SELECT group_concat(uuid) FROM (SELECT uuid FROM run ORDER BY uuid)")"
is "and the same machines, once each" "$(sqlite3 "$TMPD/local.db" "SELECT COUNT(*) || ' ' || COUNT(DISTINCT fingerprint) FROM machine")" "10 10"
is "values carried with their runs" "$(sqlite3 "$TMPD/local.db" "SELECT COUNT(*) FROM value")" "$(sqlite3 "$db" "SELECT COUNT(*) FROM value")"
run_sga db check --db "$TMPD/local.db"
is "the merged copy passes db check" "$rc" 0

# An input with fewer columns than this build's schema (as an older
# schema would be) merges with the columns it has.
cp "$TMPD/local.db" "$TMPD/old.db"
sqlite3 "$TMPD/old.db" "ALTER TABLE run DROP COLUMN reason"
run_sga db merge "$TMPD/old.db" -o "$TMPD/new.db" --json
is "an input lacking a column merges: exit 0" "$rc" 0
is "all its runs, the missing column NULL" "$(sqlite3 "$TMPD/new.db" "SELECT COUNT(*) || ' ' || COUNT(reason) FROM run")" "35 0"
done_testing
