#!/bin/sh
# t0185: every command's JSON starts with the same envelope, from one
# function (output/envelope.c): tool, version, schema_version, command,
# host, kernel, time, fingerprint.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

db=$TMPD/e.db
version=$("$SGABENCH" --version | cut -d' ' -f2)
"$SGABENCH" sysinfo --json >"$TMPD/si.json"
fp=$(sqlite3 :memory: "SELECT json_extract(readfile('$TMPD/si.json'), '\$.fingerprint')")

# check_envelope COMMAND: the envelope of $TMPD/out (a test body).
check_envelope() {
	test_is "$(json '$.tool')" sgabench &&
	test_is "$(json '$.version')" "$version" &&
	test_is "$(json '$.schema_version')" "$(sqlite3 "$db" 'PRAGMA user_version')" &&
	test_is "$(json '$.command')" "$1" &&
	test_is "$(json '$.host')" "$(uname -n)" &&
	test_is "$(json '$.kernel')" "$(uname -r)" &&
	json '$.time' | grep -Eq '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$' &&
	test_is "$(json '$.fingerprint')" "$fp"
}

test_expect_success 'run: the envelope, and the run machine fingerprint' - <<-\EOT
	for label in a a a b b b; do
		run_sga run --tasks 1 --sga-size 4m --page-size 4k --rounds 1 --events page-faults \
			--db "$db" --label "$label" --json || return 1
	done &&
	check_envelope run &&
	test_is "$(json '$.machine_fingerprint')" "$fp" &&
	uuid=$(json '$.uuid')
EOT
test_expect_success 'sim' 'run_sga sim --rounds 2 --db "$db" --json && check_envelope sim'
test_expect_success 'show' 'run_sga show "$uuid" --db "$db" --json && check_envelope show'
test_expect_success 'sysinfo' 'run_sga sysinfo --json && check_envelope sysinfo'
test_expect_success 'table' 'run_sga table --seeds 1 --no-store --json && check_envelope table'
test_expect_success 'compare' - <<-\EOT
	run_sga compare --db "$db" --baseline label:a --candidate label:b --json &&
	check_envelope compare
EOT
test_expect_success 'history' 'run_sga history --db "$db" --metric first-touch-faults --json && check_envelope history'
test_expect_success 'db check' 'run_sga db check --db "$db" --json && check_envelope "db check"'
test_expect_success 'db merge' 'run_sga db merge "$db" -o "$TMPD/m.db" --json && check_envelope "db merge"'
test_done
