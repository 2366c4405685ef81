#!/bin/sh
# t0798: t0797's multiplexing caveats from a real PostgreSQL server
# (pg-lib.sh starts it and stops it): runs with few-rotations estimates
# made in an SQLite file as t0797 makes them, merged into the server,
# give the same compare notes and row objects, the same KCIDB misc, the
# same stored verdict methods and the same report tables (the multiplexed
# runs, the glance's caveat) read from the server as from the file.
# 4 KiB pages: no hugepages.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=scripts/t/pg-lib.sh
. "$(dirname "$0")/pg-lib.sh"

for tool in jq sqlite3; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "'$tool' not installed"
done
pg_start || skip_all "$pg_why"
db=$TMPD/m.db
echo 4 >"$TMPD/interval"

# mux_runs LABEL N: N small native runs labelled LABEL into $db; fails on the first failure
mux_runs() {
	i=0
	while [ "$i" -lt "$2" ]; do
		SGABENCH_TEST_MUX_INTERVAL=$TMPD/interval "$SGABENCH" run --sga-size 16m --rounds 1 \
			--tasks 2 --page-size 4k --events page-faults,task-clock --db "$db" --label "$1" \
			>/dev/null 2>"$TMPD/run.err" || return 1
		i=$((i + 1))
	done
}

test_expect_success "the file: A (2 of 3 over 3 rotations), B exact; merged into the server" - <<-\EOT
	mux_runs A 3 && mux_runs B 3 &&
	sqlite3 "$db" "UPDATE value SET enabled = 200000000, running = 12000000, value = raw * 200000000.0 / 12000000
		WHERE event = 'task-clock' AND task = 0 AND run_id IN (SELECT id FROM run WHERE label = 'A' ORDER BY id LIMIT 2)" &&
	"$SGABENCH" db merge "$db" -o "$PG_URI" >"$TMPD/merge.out" 2>&1
EOT

# both NAME ARGS...: sgabench ARGS... --db on the file into NAME.file, on the server into NAME.pg
both() {
	name=$1
	shift
	"$SGABENCH" "$@" --db "$db" >"$TMPD/$name.file" 2>"$TMPD/err" &&
		"$SGABENCH" "$@" --db "$PG_URI" >"$TMPD/$name.pg" 2>"$TMPD/err"
}

test_expect_success "compare --json from the server: the file's note and row object" - <<-\EOT
	both cmp compare --baseline label:A --candidate label:B --metric task-clock,page-faults --json &&
	jq -c '[.notes[] | select(test("rotations"))], [.rows[] | .multiplexing]' "$TMPD/cmp.file" >"$TMPD/cmp.f" &&
	jq -c '[.notes[] | select(test("rotations"))], [.rows[] | .multiplexing]' "$TMPD/cmp.pg" >"$TMPD/cmp.p" &&
	grep -q "baseline estimates scaled from 3.0 rotations (few-rotations, under 10) in 2 of 3 runs: treat the verdict with care" "$TMPD/cmp.f" &&
	test_is "$(cat "$TMPD/cmp.p")" "$(cat "$TMPD/cmp.f")"
EOT
test_expect_success "KCIDB from the server: every test's multiplexing as from the file" - <<-\EOT
	both k export kcidb --origin sgabench_test &&
	jq -c '[.tests[] | [.id, .misc.multiplexing]] | sort' "$TMPD/k.file" >"$TMPD/k.f" &&
	jq -c '[.tests[] | [.id, .misc.multiplexing]] | sort' "$TMPD/k.pg" >"$TMPD/k.p" &&
	test_is "$(jq '[.[] | select(.[1].trust == "few-rotations")] | length' "$TMPD/k.f")" 2 &&
	test_is "$(cat "$TMPD/k.p")" "$(cat "$TMPD/k.f")"
EOT
test_expect_success "--store-verdicts on the server keeps the row's multiplexing object, as the file" - <<-\EOT
	both sv compare --baseline label:A --candidate label:B --metric task-clock,page-faults --store-verdicts &&
	test_is "$(psql_pg "SELECT metric || ' ' || COALESCE(method::json->'multiplexing'->'baseline'->>'few_rotations_runs',
		'none') FROM verdict ORDER BY metric COLLATE \"C\"" sgabench)" "$(printf 'page-faults none\ntask-clock 2')"
EOT
if command -v gnuplot >/dev/null 2>&1; then test_set_prereq GNUPLOT; fi
test_expect_success GNUPLOT "the report from the server: the file's table of multiplexed runs" - <<-\EOT
	"$top/report/mkreport" --db "$db" --out "$TMPD/rf" >"$TMPD/rep.out" 2>&1 &&
	"$top/report/mkreport" --db "$PG_URI" --out "$TMPD/rp" >"$TMPD/rep.out" 2>&1 &&
	test_is "$(cut -f4- "$TMPD/rf/data/mux.tsv")" "$(printf 'task-clock\tfew-rotations\t6 %%\t3\ntask-clock\tfew-rotations\t6 %%\t3')" &&
	test_is "$(cat "$TMPD/rp/data/mux.tsv")" "$(cat "$TMPD/rf/data/mux.tsv")" &&
	test_is "$(cut -f3,9 "$TMPD/rf/data/glance-rows.tsv")" "$(printf 'page-faults\t\ntask-clock\t2 / 0')" &&
	test_is "$(cut -f3,9 "$TMPD/rp/data/glance-rows.tsv")" "$(cut -f3,9 "$TMPD/rf/data/glance-rows.tsv")"
EOT
test_done
