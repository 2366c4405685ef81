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
is "db init: exit 0" "$rc" 0
is "db init: the schema version is set" "$(sqlite3 "$db" 'PRAGMA user_version')" "$("$SGABENCH" db check --db "$db" --json | jq -r .schema_version)"

run_sga db schema
is "db schema: exit 0" "$rc" 0
is "db schema: the columns are those of the migrated database" \
	"$(cut -f1,2 "$TMPD/out" | tr '\t' .)" \
	"$(for t in $(cut -f1 "$TMPD/out" | uniq); do sqlite3 "$db" "SELECT '$t.' || name FROM pragma_table_info('$t')"; done)"
run_sga db schema --json
is "db schema --json: the same tables" "$(jq -r '.tables[].name' "$TMPD/out" | tr '\n' ' ')" "$("$SGABENCH" db schema | cut -f1 | uniq | tr '\n' ' ')"

run_sga db exec --db "$db" -- sweep-start s1 "it's a sweep" 2026-12-03T00:00:00Z 7 "planned	a
planned	b" "# config"
is "db exec: exit 0" "$rc" 0
is "db exec: quotes and newlines arrive as they are" "$(sqlite3 "$db" "SELECT name || '|' || order_seed || '|' || cell_order FROM sweep")" "it's a sweep|7|planned	a
planned	b"
run_sga db query --db "$db" -- sweep-label s1
is "db query: TSV" "$(cat "$TMPD/out")" "it's a sweep, 2026-12-03T00:00:00Z, order seed 7"
run_sga db query --db "$db" --json -- sweeps-table
is "db query --json: typed values" "$(jq -r '.[0] | [.[]] | map(tostring) | join(",")' "$TMPD/out")" "it's a sweep,2026-12-03T00:00:00Z,7,0,s1"
printf 'timing-add\t\ts1\tcell-a\tcmd\t0\t0.5\t0\ntiming-add\t\ts1\tcell-a\tcmd\t1\t0.25\t\n' >"$TMPD/rows"
"$SGABENCH" db exec --db "$db" --stdin <"$TMPD/rows" >"$TMPD/out" 2>"$TMPD/err"
is "db exec --stdin: exit 0" "$?" 0
is "db exec --stdin: both rows, NULL for empty" "$(sqlite3 "$db" "SELECT group_concat(iteration || ':' || wall_s || ':' || COALESCE(exit_code, 'null') || ':' || (run_uuid IS NULL), ' ') FROM timing")" "0:0.5:0:1 1:0.25:null:1"
printf 'timing-add\t\ts1\tcell-b\tcmd\t0\t0.5\t0\nno-such\tx\n' >"$TMPD/rows"
rc=0
"$SGABENCH" db exec --db "$db" --stdin <"$TMPD/rows" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
is "db exec --stdin: an unknown statement is a usage error" "$rc" 2
is "and nothing of the batch is written" "$(sqlite3 "$db" "SELECT COUNT(*) FROM timing WHERE cell = 'cell-b'")" 0
ok "and the line is named" grep -q "standard input line 2" "$TMPD/err"
run_sga db query --db "$db" -- no-such-query
is "db query: an unknown name: exit 2" "$rc" 2
ok "with the hint to list them" grep -q "db query --list" "$TMPD/err"
run_sga db query --db "$db" -- sweep-label
is "db query: a missing argument: exit 2" "$rc" 2
ok "says how many it takes" grep -q "takes 1 argument (SWEEP_UUID), not 0" "$TMPD/err"
run_sga db query --db "$db" -- sweep-start s2 n t 1 o c
is "db query refuses a write statement: exit 2" "$rc" 2
run_sga db query --db "$TMPD/none.db" -- machine-count
is "db query on no database: exit 3" "$rc" 3
run_sga db exec --db "$db" -- sweep-start s1 dup 2026-12-03T00:00:00Z 7 o c
is "db exec: a constraint failure is a database error: exit 1" "$rc" 1
ok "and says nothing was written" grep -q "nothing written" "$TMPD/err"
run_sga db query --list
is "db query --list: exit 0" "$rc" 0
ok "lists the report's queries" grep -q '^labels-table' "$TMPD/out"
done_testing
