#!/bin/sh
# t0440: a fleet on one database: 8 writers at once, each presenting its
# own machine fingerprint (the test-only SGABENCH_TEST_FINGERPRINT), every
# run lands exactly once; db merge in both directions (machines into the
# fleet database, the fleet into an offline copy) without duplicates; an
# input with fewer columns (an older schema) merges with the columns it
# has; compare --cross-machine reads across the machines. SQLite engine.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

for tool in jq sqlite3; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "'$tool' not installed"
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
test_expect_success "8 concurrent writers all exit 0" - <<-\EOT
	test_is "$fails" 0
EOT
cat "$TMPD"/uuids.* | sort >"$TMPD/uuids"
test_expect_success "32 runs reported" - <<-\EOT
	test_is "$(sort -u "$TMPD/uuids" | grep -c .)" 32
EOT
test_expect_success "every reported run stored exactly once" - <<-\EOT
	test_is "$(sqlite3 "$db" "SELECT uuid FROM run ORDER BY uuid" | sort | tr '\n' ' ')" "$(tr '\n' ' ' <"$TMPD/uuids")"
EOT
test_expect_success "one machine row per fingerprint" - <<-\EOT
	test_is "$(sqlite3 "$db" "SELECT COUNT(*) || ' ' || COUNT(DISTINCT fingerprint) FROM machine")" "8 8"
EOT
test_expect_success "4 runs per machine" - <<-\EOT
	test_is "$(sqlite3 "$db" "SELECT group_concat(n) FROM (SELECT COUNT(*) AS n FROM run GROUP BY machine_id)")" "4,4,4,4,4,4,4,4"
EOT
test_expect_success "no partial run: every run has its 2 tasks" - <<-\EOT
	test_is "$(sqlite3 "$db" "SELECT COUNT(*) FROM run r WHERE (SELECT COUNT(*) FROM task t WHERE t.run_id = r.id) <> 2")" 0
EOT

# The model's counts are deterministic; its own clocks (model-wall-s, ...)
# are this machine's speed, so they are not asked about.
run_sga compare --db "$db" --baseline label:fleet-a --candidate label:fleet-b --cross-machine --json \
	--metric dTLB-load-misses,dtlb-walks,dtlb-misses-per-round
test_expect_success "compare --cross-machine across the fleet: exit 0 (the model's counts are deterministic)" - <<-\EOT
	test_is "$rc" 0
EOT
test_expect_success "it pairs the runs of all 8 machines" - <<-\EOT
	test_is "$(jq '[.rows[] | .n_base] | max' "$TMPD/out")" 16
EOT

# Two more machines write a local database; merge it into the fleet's.
writer 9 "$TMPD/local.db" local local >/dev/null 2>&1
writer 10 "$TMPD/local.db" local >/dev/null 2>&1
run_sga db merge "$TMPD/local.db" -o "$db" --json
test_expect_success "merge into the fleet database: exit 0" - <<-\EOT
	test_is "$rc" 0
EOT
test_expect_success "3 runs and 2 machines added" - <<-\EOT
	test_is "$(jq -r '.total | "\(.runs_added) \(.machines_added)"' "$TMPD/out")" "3 2"
EOT
run_sga db merge "$TMPD/local.db" -o "$db" --json
test_expect_success "merging it again adds nothing" - <<-\EOT
	test_is "$(jq -r '.total | "\(.runs_added) \(.runs_skipped) \(.machines_added)"' "$TMPD/out")" "0 3 0"
EOT

# The other direction: the fleet into an offline copy that already has some runs.
run_sga db merge "$db" -o "$TMPD/local.db" --json
test_expect_success "merge the fleet into a local copy: exit 0" - <<-\EOT
	test_is "$rc" 0
EOT
test_expect_success "32 runs added, 3 already there" - <<-\EOT
	test_is "$(jq -r '.total | "\(.runs_added) \(.runs_skipped)"' "$TMPD/out")" "32 3"
EOT
test_expect_success "both now hold the same runs" - <<-\EOT
	test_is "$(sqlite3 "$TMPD/local.db" "SELECT group_concat(uuid) FROM (SELECT uuid FROM run ORDER BY uuid)")" \
		"$(sqlite3 "$db" "SELECT group_concat(uuid) FROM (SELECT uuid FROM run ORDER BY uuid)")"
EOT
test_expect_success "and the same machines, once each" - <<-\EOT
	test_is "$(sqlite3 "$TMPD/local.db" "SELECT COUNT(*) || ' ' || COUNT(DISTINCT fingerprint) FROM machine")" "10 10"
EOT
test_expect_success "values carried with their runs" - <<-\EOT
	test_is "$(sqlite3 "$TMPD/local.db" "SELECT COUNT(*) FROM value")" "$(sqlite3 "$db" "SELECT COUNT(*) FROM value")"
EOT
run_sga db check --db "$TMPD/local.db"
test_expect_success "the merged copy passes db check" - <<-\EOT
	test_is "$rc" 0
EOT

# An input with fewer columns than this build's schema (as an older
# schema would be) merges with the columns it has.
cp "$TMPD/local.db" "$TMPD/old.db"
sqlite3 "$TMPD/old.db" "ALTER TABLE run DROP COLUMN reason"
run_sga db merge "$TMPD/old.db" -o "$TMPD/new.db" --json
test_expect_success "an input lacking a column merges: exit 0" - <<-\EOT
	test_is "$rc" 0
EOT
test_expect_success "all its runs, the missing column NULL" - <<-\EOT
	test_is "$(sqlite3 "$TMPD/new.db" "SELECT COUNT(*) || ' ' || COUNT(reason) FROM run")" "35 0"
EOT

# A schema 1 database (no per-window tables, no floor or MDE in verdicts,
# the working set and first-touch faults under their old column names, no
# reason of a missing metric) merges too: the tables it lacks are skipped,
# not read, and the renamed columns are read by their old names. Its tasks
# get first-touch faults (model runs have none) so that the renamed column
# has values to carry.
cp "$TMPD/local.db" "$TMPD/v1.db"
sqlite3 "$TMPD/v1.db" <"$top/scripts/t/fixtures/boot-v7.sql"
sqlite3 "$TMPD/v1.db" <"$top/scripts/t/fixtures/mux-v6.sql"
sqlite3 "$TMPD/v1.db" <"$top/scripts/t/fixtures/metric-v5.sql"
sqlite3 "$TMPD/v1.db" "DROP INDEX run_kernel_variant; ALTER TABLE run DROP COLUMN kernel_variant;
	DROP INDEX run_machine_name; ALTER TABLE run DROP COLUMN machine_name;
	ALTER TABLE verdict DROP COLUMN machine_name;
	DROP TABLE window_value; DROP TABLE run_window;
	ALTER TABLE verdict DROP COLUMN noise_floor; ALTER TABLE verdict DROP COLUMN mde;
	ALTER TABLE run RENAME COLUMN working_set_bytes TO ws_bytes;
	ALTER TABLE task RENAME COLUMN first_touch_faults TO ft_minflt;
	UPDATE task SET ft_minflt = 7 + task; PRAGMA user_version = 1"
v1_sums=$(sqlite3 "$TMPD/v1.db" "SELECT (SELECT SUM(ws_bytes) FROM run) || ' ' || (SELECT SUM(ft_minflt) FROM task)")
run_sga db merge "$TMPD/v1.db" -o "$TMPD/from-v1.db" --json
test_expect_success "a schema 1 input merges: exit 0" - <<-\EOT
	test_is "$rc" 0
EOT
test_expect_success "with all its runs, tasks and values" - <<-\EOT
	test_is "$(sqlite3 "$TMPD/from-v1.db" "SELECT (SELECT COUNT(*) FROM run) || ' ' || (SELECT COUNT(*) FROM task) || ' ' || (SELECT COUNT(*) FROM value)")" \
		"$(sqlite3 "$TMPD/v1.db" "SELECT (SELECT COUNT(*) FROM run) || ' ' || (SELECT COUNT(*) FROM task) || ' ' || (SELECT COUNT(*) FROM value)")"
EOT
test_expect_success "the renamed columns keep their values (working set, first-touch faults)" - <<-\EOT
	test_is "$(sqlite3 "$TMPD/from-v1.db" "SELECT (SELECT SUM(working_set_bytes) FROM run) || ' ' || (SELECT SUM(first_touch_faults) FROM task)")" \
		"$v1_sums"
EOT
test_expect_success "show reads the schema 1 file as it is (read-only)" - <<-\EOT
	run_sga show 1 --db "$TMPD/v1.db" --json &&
	test_is "$rc" 0 &&
	test_is "$(jq -r '[.tasks[].first_touch_faults] | join(",")' "$TMPD/out")" "7,8"
EOT
test_expect_success "storing into the schema 1 file migrates it, values kept" - <<-\EOT
	"$SGABENCH" sim --tasks 2 --rounds 2 --db "$TMPD/v1.db" --quiet &&
	test_is "$(sqlite3 "$TMPD/v1.db" "PRAGMA user_version")" "$("$SGABENCH" db schema --json | jq -r .schema_version)" &&
	test_is "$(sqlite3 "$TMPD/v1.db" "SELECT (SELECT SUM(working_set_bytes) FROM run WHERE id < (SELECT MAX(id) FROM run)) || ' ' || (SELECT SUM(first_touch_faults) FROM task)")" \
		"$v1_sums"
EOT
test_done
