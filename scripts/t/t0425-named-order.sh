#!/bin/sh
# t0425: every named query (sgabench db query --list) gives its rows in one
# order, whatever order the engine reads them in. On the synthetic fixture
# plus fixtures/ties.sql, where sweeps, labels, model runs, noise floors and
# comparisons start in the same second, each query answers the same with
# SQLite's scans reversed (SGABENCH_TEST_REVERSE_SCANS, i.e. PRAGMA
# reverse_unordered_selects: this catches a query with no ORDER BY) as
# without, and the same on a PostgreSQL server given the same rows (its
# sorts and hash aggregates break ties otherwise than SQLite: this catches
# an ORDER BY that leaves ties).
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=scripts/t/pg-lib.sh
. "$(dirname "$0")/pg-lib.sh"

command -v sqlite3 >/dev/null 2>&1 || skip_all "sqlite3 is not installed"
db=$TMPD/ties.db
"$SGABENCH" db init --db "$db" >/dev/null 2>&1 || skip_all "db init failed"
if ! sqlite3 "$db" <"$FIXTURES/synthetic.sql" || ! sqlite3 "$db" <"$FIXTURES/ties.sql"; then
	skip_all "the fixtures did not load"
fi
nq_sweep=sweep-1 nq_sweep_name=sga-scaling nq_label="" nq_backend=model:niagara2 nq_machine=1
nq_base=last-7-nights nq_cand=tonight nq_time=2026-11-19T03:00:00Z
"$SGABENCH" db query --list | awk '{ print $1 }' >"$TMPD/names"

test_expect_success 'the fixture ties: two sga-scaling sweeps, two model presets, in one second' '
	test_is "$(sqlite3 "$db" "SELECT COUNT(DISTINCT uuid) FROM sweep WHERE name = '\''sga-scaling'\''
		GROUP BY started_at")" 2 &&
	test_is "$(sqlite3 "$db" "SELECT COUNT(DISTINCT backend) FROM run WHERE backend GLOB '\''model:*'\''
		GROUP BY started_at")" 2
'

# query_all TAG [ENV=VALUE]: every named query on database $qdb into
# $TMPD/TAG.NAME, with the environment given.
qdb=$db
query_all() {
	tag=$1
	shift
	while read -r name; do
		with_named_args "$name" env "$@" "$SGABENCH" db query --db "$qdb" -- \
			>"$TMPD/$tag.$name" 2>"$TMPD/$tag.$name.err" ||
			{ echo "# $name: $(head -n 1 "$TMPD/$tag.$name.err")"; return 1; }
	done <"$TMPD/names"
}

# same_all A B: the outputs of query_all A and B are equal, query by query;
# prints each query that differs.
same_all() {
	bad=0
	while read -r name; do
		diff "$TMPD/$1.$name" "$TMPD/$2.$name" >"$TMPD/$name.diff" ||
			{ echo "# $name: the order differs"; head -n 6 "$TMPD/$name.diff"; bad=1; }
	done <"$TMPD/names"
	return "$bad"
}

test_expect_success 'every named query answers on the fixture, 12 or more with two rows or more' '
	qdb=$db && query_all fwd &&
	many=0 &&
	while read -r name; do
		if [ "$(wc -l <"$TMPD/fwd.$name")" -ge 2 ]; then many=$((many + 1)); fi
	done <"$TMPD/names" &&
	echo "# $many queries return two rows or more" &&
	test "$many" -ge 12
'

test_expect_success 'every named query gives the same order with the scans reversed' '
	qdb=$db && query_all rev SGABENCH_TEST_REVERSE_SCANS=1 &&
	same_all fwd rev
'

test_expect_success 'the pragma reverses a scan with no ORDER BY on the fixture' '
	sqlite3 "$db" "SELECT uuid FROM sweep WHERE name = '\''sga-scaling'\''" >"$TMPD/a" &&
	sqlite3 "$db" "PRAGMA reverse_unordered_selects = ON;
		SELECT uuid FROM sweep WHERE name = '\''sga-scaling'\''" >"$TMPD/b" &&
	! diff -q "$TMPD/a" "$TMPD/b"
'

if pg_start; then
	test_set_prereq PG
else
	echo "# no PostgreSQL server: $pg_why"
fi
test_expect_success PG 'every named query gives the same rows in the same order on a server' '
	"$SGABENCH" db merge "$db" -o "$PG_URI" >/dev/null &&
	qdb=$PG_URI && query_all pg &&
	same_all fwd pg
'
test_done
