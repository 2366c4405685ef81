#!/bin/sh
# t0420: the database subcommands the scripts use instead of SQL: db init,
# db schema (the column descriptors, equal to the migrated tables), db query
# and db exec (named statements, TSV and JSON, one transaction for --stdin),
# and their errors with exit codes.
# shellcheck source=scripts/t/tap.sh
. "$(dirname "$0")/tap.sh"

command -v sqlite3 >/dev/null 2>&1 || { skip "db-named" "sqlite3 is not installed"; done_testing; exit; }
db=$TMPD/n.db
run_sga db init --db "$db"
test_expect_success "db init: exit 0" - <<-\EOT
	test_is "$rc" 0
EOT
test_expect_success "db init: the schema version is set" - <<-\EOT
	test_is "$(sqlite3 "$db" 'PRAGMA user_version')" "$("$SGABENCH" db check --db "$db" --json | jq -r .schema_version)"
EOT

run_sga db schema
test_expect_success "db schema: exit 0" - <<-\EOT
	test_is "$rc" 0
EOT
test_expect_success "db schema: the columns are those of the migrated database" - <<-\EOT
	test_is "$(cut -f1,2 "$TMPD/out" | tr '\t' .)" \
		"$(for t in $(cut -f1 "$TMPD/out" | uniq); do sqlite3 "$db" "SELECT '$t.' || name FROM pragma_table_info('$t')"; done)"
EOT
run_sga db schema --json
test_expect_success "db schema --json: the same tables" - <<-\EOT
	test_is "$(jq -r '.tables[].name' "$TMPD/out" | tr '\n' ' ')" "$("$SGABENCH" db schema | cut -f1 | uniq | tr '\n' ' ')"
EOT

run_sga db exec --db "$db" -- sweep-start s1 "it's a sweep" 2026-12-03T00:00:00Z 7 "planned	a
planned	b" "# config"
test_expect_success "db exec: exit 0" - <<-\EOT
	test_is "$rc" 0
EOT
test_expect_success "db exec: quotes and newlines arrive as they are" - <<-\EOT
	test_is "$(sqlite3 "$db" "SELECT name || '|' || order_seed || '|' || cell_order FROM sweep")" "it's a sweep|7|planned	a
planned	b"
EOT
run_sga db query --db "$db" -- sweep-label s1
test_expect_success "db query: TSV" - <<-\EOT
	test_is "$(cat "$TMPD/out")" "it's a sweep, 2026-12-03T00:00:00Z, order seed 7"
EOT
run_sga db query --db "$db" --json -- sweeps-table
test_expect_success "db query --json: typed values" - <<-\EOT
	test_is "$(jq -r '.[0] | [.[]] | map(tostring) | join(",")' "$TMPD/out")" "it's a sweep,2026-12-03T00:00:00Z,7,0,s1"
EOT
printf 'timing-add\t\ts1\tcell-a\tcmd\t0\t0.5\t0\ntiming-add\t\ts1\tcell-a\tcmd\t1\t0.25\t\n' >"$TMPD/rows"
"$SGABENCH" db exec --db "$db" --stdin <"$TMPD/rows" >"$TMPD/out" 2>"$TMPD/err"
status_=$?
test_expect_success "db exec --stdin: exit 0" - <<-\EOT
	test_is "$status_" 0
EOT
test_expect_success "db exec --stdin: both rows, NULL for empty" - <<-\EOT
	test_is "$(sqlite3 "$db" "SELECT group_concat(iteration || ':' || wall_s || ':' || COALESCE(exit_code, 'null') || ':' || (run_uuid IS NULL), ' ') FROM timing")" "0:0.5:0:1 1:0.25:null:1"
EOT
printf 'timing-add\t\ts1\tcell-b\tcmd\t0\t0.5\t0\nno-such\tx\n' >"$TMPD/rows"
rc=0
"$SGABENCH" db exec --db "$db" --stdin <"$TMPD/rows" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
test_expect_success "db exec --stdin: an unknown statement is a usage error" - <<-\EOT
	test_is "$rc" 2
EOT
test_expect_success "and nothing of the batch is written" - <<-\EOT
	test_is "$(sqlite3 "$db" "SELECT COUNT(*) FROM timing WHERE cell = 'cell-b'")" 0
EOT
test_expect_success "and the line is named" - <<-\EOT
	grep -q "standard input line 2" "$TMPD/err"
EOT
run_sga db query --db "$db" -- no-such-query
test_expect_success "db query: an unknown name: exit 2" - <<-\EOT
	test_is "$rc" 2
EOT
test_expect_success "with the hint to list them" - <<-\EOT
	grep -q "db query --list" "$TMPD/err"
EOT
run_sga db query --db "$db" -- sweep-label
test_expect_success "db query: a missing argument: exit 2" - <<-\EOT
	test_is "$rc" 2
EOT
test_expect_success "says how many it takes" - <<-\EOT
	grep -q "takes 1 argument (SWEEP_UUID), not 0" "$TMPD/err"
EOT
run_sga db query --db "$db" -- sweep-start s2 n t 1 o c
test_expect_success "db query refuses a write statement: exit 2" - <<-\EOT
	test_is "$rc" 2
EOT
run_sga db query --db "$TMPD/none.db" -- machine-count
test_expect_success "db query on no database: exit 3" - <<-\EOT
	test_is "$rc" 3
EOT
run_sga db exec --db "$db" -- sweep-start s1 dup 2026-12-03T00:00:00Z 7 o c
test_expect_success "db exec: a constraint failure is a database error: exit 1" - <<-\EOT
	test_is "$rc" 1
EOT
test_expect_success "and says nothing was written" - <<-\EOT
	grep -q "nothing written" "$TMPD/err"
EOT
run_sga db query --list
test_expect_success "db query --list: exit 0" - <<-\EOT
	test_is "$rc" 0
EOT
test_expect_success "lists the report's queries" - <<-\EOT
	grep -q '^labels-table' "$TMPD/out"
EOT
done_testing
