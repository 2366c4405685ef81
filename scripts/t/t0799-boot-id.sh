#!/bin/sh
# t0799: each native run keeps the boot it ran in (schema 8: run.boot_id,
# the kernel's /proc/sys/kernel/random/boot_id), a model run none; show,
# runs, db merge and sysinfo give it. compare takes two sides for interleaved
# (their drift shared) only when they interleave in time within one boot:
# runs of two boots side by side (the lab's guests) are judged as two
# sessions. A schema 7 database reads as it is, its boots unknown (NULL),
# and migrates on the next store. 4 KiB pages: no hugepages.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
[ -r /proc/sys/kernel/random/boot_id ] || skip_all "no /proc/sys/kernel/random/boot_id"
boot=$(cat /proc/sys/kernel/random/boot_id)
db=$TMPD/b.db
schema=$("$SGABENCH" db schema --json | jq -r .schema_version)

# nrun DB LABEL [ARGS]: a small native run; sets rc
nrun() {
	n_db=$1 n_label=$2
	shift 2
	rc=0
	"$SGABENCH" run --sga-size 16m --rounds 1 --tasks 2 --page-size 4k --events page-faults \
		--db "$n_db" --label "$n_label" "$@" >"$TMPD/run.out" 2>"$TMPD/run.err" || rc=$?
}

# q [DB] SQL: one value from $db (or DB)
q() {
	if [ $# -eq 2 ]; then sqlite3 "$1" "$2"; else sqlite3 "$db" "$1"; fi
}

nrun "$db" a --json
uuid=$(jq -r .uuid "$TMPD/run.out")
test_expect_success "a native run: its JSON and the database keep this boot's id" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(jq -r .boot_id "$TMPD/run.out")" "$boot" &&
	test_is "$(q "SELECT boot_id FROM run WHERE uuid = '$uuid'")" "$boot"
EOT
test_expect_success "show --json, runs --json and sysinfo give it" - <<-\EOT
	run_sga show "$uuid" --db "$db" --json && test_is "$rc" 0 &&
	test_is "$(jq -r .boot_id "$TMPD/out")" "$boot" &&
	run_sga runs --db "$db" --json && test_is "$rc" 0 &&
	test_is "$(jq -r .runs[0].boot_id "$TMPD/out")" "$boot" &&
	run_sga sysinfo --json && test_is "$rc" 0 &&
	test_is "$(jq -r .machine.boot_id "$TMPD/out")" "$boot" &&
	run_sga sysinfo && test_is "$rc" 0 &&
	grep -q "^boot id  *$boot\$" "$TMPD/out"
EOT
test_expect_success "a model run has no boot: null in its JSON, NULL in the database" - <<-\EOT
	run_sga sim --tasks 2 --rounds 2 --db "$db" --label model --json && test_is "$rc" 0 &&
	test_is "$(jq -r .boot_id "$TMPD/out")" null &&
	test_is "$(q "SELECT COALESCE(boot_id, 'NULL') FROM run WHERE label = 'model'")" NULL
EOT
test_expect_success "db merge keeps each run's boot" - <<-\EOT
	run_sga db merge "$db" -o "$TMPD/merged.db" && test_is "$rc" 0 &&
	test_is "$(q "$TMPD/merged.db" "SELECT label || ' ' || COALESCE(boot_id, 'NULL') FROM run ORDER BY label")" \
		"$(printf 'a %s\nmodel NULL' "$boot")"
EOT

# Arms a and b, alternately, three runs each (a's first run above): one boot.
for i in 1 2 3; do
	nrun "$db" b || break
	[ "$i" -eq 3 ] || nrun "$db" a || break
done
test_expect_success "arms a and b stored, alternately" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(q "SELECT group_concat(label, '') FROM (SELECT label FROM run WHERE label IN ('a', 'b') ORDER BY id)")" ababab
EOT
# rows FILE: "interleaved baseline_sessions" of each row, distinct
rows() { jq -r '[.rows[] | "\(.interleaved) \(.baseline_sessions)"] | unique | join(",")' "$1"; }
test_expect_success "one boot: the arms interleave, their drift shared" - <<-\EOT
	run_sga compare --db "$db" --baseline label:a --candidate label:b --json &&
	test_is "$(rows "$TMPD/out")" "true 1"
EOT
test_expect_success "the same runs as two boots side by side: not interleaved" - <<-\EOT
	q "UPDATE run SET boot_id = '00000000-0000-4000-8000-000000000001' WHERE label = 'b'" &&
	run_sga compare --db "$db" --baseline label:a --candidate label:b --json &&
	test_is "$(rows "$TMPD/out")" "false 1" &&
	q "UPDATE run SET boot_id = '$boot' WHERE label = 'b'"
EOT

# A schema 7 database: the runs so far, without the column.
cp "$db" "$TMPD/v7.db"
sqlite3 "$TMPD/v7.db" <"$top/scripts/t/fixtures/boot-v7.sql"
sqlite3 "$TMPD/v7.db" "PRAGMA user_version = 7"
test_expect_success "a schema 7 database reads as it is: boot unknown, file unchanged" - <<-\EOT
	run_sga show "$uuid" --db "$TMPD/v7.db" --json && test_is "$rc" 0 &&
	test_is "$(jq -r .boot_id "$TMPD/out")" null &&
	run_sga compare --db "$TMPD/v7.db" --baseline label:a --candidate label:b --json &&
	test_is "$(rows "$TMPD/out")" "true 1" &&
	test_is "$(sqlite3 "$TMPD/v7.db" "PRAGMA user_version")" 7
EOT
test_expect_success "merged into a new file, its runs' boots are NULL" - <<-\EOT
	run_sga db merge "$TMPD/v7.db" -o "$TMPD/m7.db" && test_is "$rc" 0 &&
	test_is "$(q "$TMPD/m7.db" "SELECT COUNT(*) || ' ' || COUNT(boot_id) FROM run")" "7 0"
EOT
test_expect_success "and it migrates on the next store: old runs NULL, the new one its boot" - <<-\EOT
	nrun "$TMPD/v7.db" after && test_is "$rc" 0 &&
	test_is "$(sqlite3 "$TMPD/v7.db" "PRAGMA user_version")" "$schema" &&
	test_is "$(q "$TMPD/v7.db" "SELECT COUNT(*) || ' ' || COUNT(boot_id) || ' ' || MAX(boot_id) FROM run")" "8 1 $boot"
EOT

test_done
