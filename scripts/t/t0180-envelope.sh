#!/bin/sh
# t0180: every command's JSON starts with the same envelope, from one
# function (output/envelope.c): tool, version, schema_version, command,
# host, kernel, time, fingerprint.
# shellcheck source=scripts/t/tap.sh
. "$(dirname "$0")/tap.sh"

db=$TMPD/e.db
version=$("$SGABENCH" --version | cut -d' ' -f2)
fp=$("$SGABENCH" sysinfo --json >"$TMPD/si.json" && sqlite3 :memory: "SELECT json_extract(readfile('$TMPD/si.json'), '\$.fingerprint')")

# check_envelope NAME COMMAND: the envelope of $TMPD/out.
check_envelope() {
	is "$1: tool" "$(json '$.tool')" sgabench
	is "$1: version" "$(json '$.version')" "$version"
	is "$1: schema_version" "$(json '$.schema_version')" "$(sqlite3 "$db" 'PRAGMA user_version')"
	is "$1: command" "$(json '$.command')" "$2"
	is "$1: host" "$(json '$.host')" "$(uname -n)"
	is "$1: kernel" "$(json '$.kernel')" "$(uname -r)"
	ok "$1: time is ISO 8601 UTC" sh -c "printf '%s' '$(json '$.time')' | grep -Eq '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$'"
	is "$1: fingerprint is this machine's" "$(json '$.fingerprint')" "$fp"
}

for label in a a a b b b; do
	run_sga run --tasks 1 --sga-size 4m --page-size 4k --rounds 1 --events page-faults --db "$db" --label "$label" --json
done
check_envelope run run
is "run: machine_fingerprint is the run's machine" "$(json '$.machine_fingerprint')" "$fp"
uuid=$(json '$.uuid')
run_sga sim --rounds 2 --db "$db" --json
check_envelope sim sim
run_sga show "$uuid" --db "$db" --json
check_envelope show show
run_sga sysinfo --json
check_envelope sysinfo sysinfo
run_sga table --seeds 1 --no-store --json
check_envelope table table
run_sga compare --db "$db" --baseline label:a --candidate label:b --json
check_envelope compare compare
run_sga history --db "$db" --metric first-touch-faults --json
check_envelope history history
run_sga db check --db "$db" --json
check_envelope "db check" "db check"
run_sga db merge "$db" -o "$TMPD/m.db" --json
check_envelope "db merge" "db merge"
done_testing
