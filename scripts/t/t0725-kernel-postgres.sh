#!/bin/sh
# t0725: the kernel queries on PostgreSQL (pg-lib.sh's throw-away server):
# fixtures/kernels.sql merged into the server gives the same compare
# kernel:V1 kernel:V2 and history --by kernel as on SQLite, and a run
# stored there records its kernel variant (schema 5 on the server).
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=scripts/t/pg-lib.sh
. "$(dirname "$0")/pg-lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
command -v sqlite3 >/dev/null 2>&1 || skip_all "sqlite3 not installed"
pg_start || skip_all "$pg_why"
db=$TMPD/k.db
# the parts of the JSON that are the stored runs', not the command's or the engine's
keep='del(.time, .machine, .command, .version)'

test_expect_success 'the fixture merges into the server' - <<\EOT
	"$SGABENCH" db init --db "$db" >/dev/null && sqlite3 "$db" <"$FIXTURES/kernels.sql" &&
	run_sga db merge "$db" -o "$PG_URI" && test_is "$rc" 0 &&
	test_is "$(psql_pg "SELECT COUNT(*) || ' ' || COUNT(kernel_variant) FROM run" sgabench)" "62 55"
EOT

test_expect_success 'compare kernel:V1 kernel:V2: the same rows as on SQLite' - <<\EOT
	for d in "$db" "$PG_URI"; do
		"$SGABENCH" compare --db "$d" --machine lab-arm64 --baseline kernel:6.1.172-1 \
			--candidate kernel:6.1.192-1 --metric startup-s --json | jq -S "$keep | .rows"
	done >"$TMPD/both" &&
	test_is "$(jq -s '.[0] == .[1]' "$TMPD/both")" true &&
	test_is "$(jq -rs '.[1][0].verdict' "$TMPD/both")" regression
EOT

test_expect_success 'a label kernel:V selects on the server too' - <<\EOT
	run_sga compare --db "$PG_URI" --machine lab-arm64 --baseline kernel:6.1.174-1 \
		--candidate kernel:6.1.192-3 --metric startup-s --json &&
	test_is "$(jq -r '.rows[0].n_base' "$TMPD/out")" 6
EOT

test_expect_success 'kernel:V1|V2 on the server: both variants, the same rows as on SQLite' - <<\EOT
	for d in "$db" "$PG_URI"; do
		"$SGABENCH" compare --db "$d" --machine lab-arm64 --baseline 'kernel:6.1.170-3|6.1.172-1' \
			--candidate kernel:6.1.192-1 --metric startup-s --json | jq -S "$keep | .rows"
	done >"$TMPD/two" &&
	test_is "$(jq -s '.[0] == .[1]' "$TMPD/two")" true &&
	test_is "$(jq -rs '.[1][0].n_base' "$TMPD/two")" 12
EOT

test_expect_success 'history --by kernel: the same series and change point as on SQLite' - <<\EOT
	for d in "$db" "$PG_URI"; do
		"$SGABENCH" history --db "$d" --by kernel --metric startup-s --json | jq -S "$keep"
	done >"$TMPD/hist" &&
	test_is "$(jq -s '.[0] == .[1]' "$TMPD/hist")" true &&
	test_is "$(jq -rs '.[1].change_points[0].label' "$TMPD/hist")" 6.1.192-1
EOT

test_expect_success 'a run stored on the server records its kernel variant' - <<\EOT
	SGABENCH_KERNEL_VARIANT=6.1.192-3-rt run_sga sim --tasks 2 --rounds 2 --db "$PG_URI" &&
	test_is "$rc" 0 &&
	test_is "$(psql_pg "SELECT kernel_variant FROM run WHERE backend LIKE 'model%'" sgabench)" 6.1.192-3-rt
EOT

test_done
