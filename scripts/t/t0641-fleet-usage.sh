#!/bin/sh
# t0641: the performance team's usage and exit items: a bare config NAME
# (read as the config, the night then ending on its missing database: 3),
# whole --help texts, SGABENCH_DB against an explicit --db, a missing
# database directory refused with its mkdir (and not made), no password in
# sweep --dry-run, runs --json's envelope, the schema version results/
# README.md states, compare --metric repeated, a machine name given to a
# second fingerprint, and Ctrl-C of the nightly mid-sweep: its own message,
# no partial night under tonight's label, no error from a removed work
# directory. Runs use the model (sim) or the fleet run double: no
# hugepages, nothing timed.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

for tool in hyperfine sqlite3 flock jq setsid; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "fleet usage: '$tool' not installed"
done

cat >"$TMPD/cfg" <<'EOF'
SWEEP_AXES="tasks"
SWEEP_TASKS="1 4"
SWEEP_PASSES=2
SWEEP_RUNS=1
SWEEP_WARMUP=0
SWEEP_METRICS="first-touch-faults accesses-per-cpu-s-best"
EOF
mkdir "$TMPD/state"

test_expect_success 'scripts/nightly nightly: the bare NAME is the config, not the script' '
	rc=0 && "$top/scripts/nightly" --no-sweep --db "$TMPD/none.db" nightly >"$TMPD/out" 2>"$TMPD/err" || rc=$? &&
	test_is "$rc" 3 && grep -q "no database at" "$TMPD/err" &&
	grep -q "^nightly: machine .*, config .nightly., label" "$TMPD/out" &&
	! grep -q "not a plain SWEEP" "$TMPD/err"
'

test_expect_success '--help prints the whole exit text' '
	"$top/scripts/nightly" --help >"$TMPD/out" &&
	grep -q "^built sgabench; the message gives the fix). 2 and 3 are never a pass or a$" "$TMPD/out" &&
	grep -q "^regression.$" "$TMPD/out" &&
	"$top/scripts/sweep" --help >"$TMPD/out" && grep -q "130 interrupted" "$TMPD/out"
'

test_expect_success 'an explicit --db wins over SGABENCH_DB, even the default path' '
	mkdir -p "$TMPD/co/results" &&
	"$SGABENCH" sim --tasks 1 --rounds 1 --db "$TMPD/co/results/sgabench.db" --label local >/dev/null &&
	"$SGABENCH" sim --tasks 1 --rounds 1 --db "$TMPD/env.db" --label env >/dev/null &&
	(cd "$TMPD/co" && SGABENCH_DB=$TMPD/env.db "$SGABENCH" runs --db results/sgabench.db --json) >"$TMPD/out" &&
	test_is "$(jq -r ".runs[].label" "$TMPD/out")" local &&
	(cd "$TMPD/co" && SGABENCH_DB=$TMPD/env.db "$SGABENCH" runs --json) >"$TMPD/out" &&
	test_is "$(jq -r ".runs[].label" "$TMPD/out")" env
'

test_expect_success 'runs --json starts with the envelope, then the runs' '
	"$SGABENCH" runs --db "$TMPD/env.db" --json >"$TMPD/out" &&
	test_is "$(jq -r "[.tool, .command, (.schema_version | tostring), (.runs | length | tostring)] | join(\" \")" "$TMPD/out")" \
		"sgabench runs $("$SGABENCH" db schema --json | jq -r .schema_version) 1"
'

test_expect_success 'results/README.md states the schema version this sgabench writes' '
	v=$("$SGABENCH" db schema --json | jq -r .schema_version) &&
	grep -q "schema version $v (" "$top/results/README.md"
'

test_expect_success 'compare --metric a --metric b compares both' '
	"$SGABENCH" sim --tasks 1 --rounds 1 --db "$TMPD/env.db" --label e1 >/dev/null &&
	"$SGABENCH" sim --tasks 1 --rounds 1 --db "$TMPD/env.db" --label e2 >/dev/null &&
	rc=0 && "$SGABENCH" compare --db "$TMPD/env.db" --baseline label:e1 --candidate label:e2 \
		--metric est-translation-s --metric model-accesses --json >"$TMPD/out" 2>"$TMPD/err" || rc=$? &&
	test_is "$rc" 0 &&
	test_is "$(jq -r "[.rows[].metric] | unique | join(\",\")" "$TMPD/out")" "est-translation-s,model-accesses"
'

test_expect_success 'a machine name given to a second fingerprint is a warning' '
	SGABENCH_MACHINE=lab1 SGABENCH_TEST_FINGERPRINT=aaaaaaaaaaaaaaaa \
		"$SGABENCH" sim --tasks 1 --rounds 1 --db "$TMPD/w.db" >/dev/null 2>"$TMPD/err" &&
	! grep -q warning "$TMPD/err" &&
	SGABENCH_MACHINE=lab1 SGABENCH_TEST_FINGERPRINT=bbbbbbbbbbbbbbbb \
		"$SGABENCH" sim --tasks 1 --rounds 1 --db "$TMPD/w.db" >/dev/null 2>"$TMPD/err" &&
	grep -q "warning: machine .lab1. ran on fingerprint aaaaaaaaaaaa before, now on bbbbbbbbbbbb" "$TMPD/err" &&
	test_is "$(sqlite3 "$TMPD/w.db" "SELECT group_concat(machine_name, \",\") FROM run")" "lab1,lab1"
'

REAL_SGABENCH=$SGABENCH
SGABENCH_BIN=$FIXTURES/sgabench-run-fleet-double
DOUBLE_STATE=$TMPD/state
SGABENCH_MACHINE=m1
SGABENCH_TEST_FINGERPRINT=00000000000000c3
export REAL_SGABENCH SGABENCH_BIN DOUBLE_STATE SGABENCH_MACHINE SGABENCH_TEST_FINGERPRINT

test_expect_success 'sweep into a directory that does not exist: exit 3, the mkdir, nothing made' '
	rc=0 && "$top/scripts/sweep" -q --db "$TMPD/no/such/x.db" "$TMPD/cfg" >"$TMPD/out" 2>"$TMPD/err" || rc=$? &&
	test_is "$rc" 3 &&
	grep -q "hint: create it first: mkdir -p .$TMPD/no/such." "$TMPD/err" &&
	test ! -e "$TMPD/no"
'

test_expect_success 'a misspelt server address: sweep and nightly exit 2, no file or directory made' '
	cd "$TMPD" &&
	for s in sweep nightly; do
		rc=0 && "$top/scripts/$s" --db postgressql://u@127.0.0.1:1/x "$TMPD/cfg" >/dev/null 2>"$TMPD/err" || rc=$?
		test_is "$rc" 2 && grep -q "error: .postgressql://u@127.0.0.1:1/x. is not a database address" "$TMPD/err" ||
			return 1
	done &&
	test ! -e "$TMPD/postgressql:" && cd "$top"
'

test_expect_success 'sweep --dry-run: the password masked in its header, left out of its commands' '
	"$top/scripts/sweep" --dry-run --db "postgresql://team:s3cret@/sgabench?host=/nowhere" "$TMPD/cfg" >"$TMPD/out" &&
	! grep -q s3cret "$TMPD/out" &&
	grep -q "database postgresql://team:\*\*\*@/sgabench" "$TMPD/out" &&
	test_is "$(grep -c -- "--db '"'"'postgresql://team@/sgabench?host=/nowhere'"'"' --json$" "$TMPD/out")" 4
'

test_expect_success 'sweep with no --db stores where SGABENCH_DB says, and says so' '
	SGABENCH_DB=$TMPD/team.db "$top/scripts/sweep" -q --label s1 "$TMPD/cfg" >"$TMPD/out" 2>"$TMPD/err" &&
	grep -q "stored in $TMPD/team.db$" "$TMPD/out" &&
	test_is "$(sqlite3 "$TMPD/team.db" "SELECT COUNT(*) FROM run WHERE label = '\''s1'\'' AND machine_name = '\''m1'\''")" 4
'

# A shell starts a background job with SIGINT ignored; Ctrl-C reaches a
# foreground job that has it: env --default-signal=INT gives it back.
test_expect_success 'Ctrl-C of the nightly mid-sweep: its own message, exit 2, no partial night' '
	echo 0 >"$TMPD/state/count"
	DOUBLE_NOW=1 DOUBLE_HANG=3 setsid env --default-signal=INT "$top/scripts/nightly" --db "$TMPD/c.db" --label nightly-20261130 --seed 3 \
		"$TMPD/cfg" >"$TMPD/out" 2>"$TMPD/err" &
	npid=$!
	test_when_finished "kill -KILL -$npid 2>/dev/null || :" &&
	wait_until test -e "$TMPD/state/hung" &&
	kill -INT "-$npid" &&
	rc=0 && wait "$npid" || rc=$? &&
	test_is "$rc" 2 &&
	grep -q "^nightly: error: interrupted: no verdict tonight" "$TMPD/err" &&
	grep -q "^sweep: error: interrupted: the runs this sweep stored are labelled .interrupted:nightly-20261130." "$TMPD/err" &&
	! grep -q "nonexistent\|No such file" "$TMPD/err" &&
	test_is "$(sqlite3 "$TMPD/c.db" "SELECT COUNT(*) FROM run WHERE label = '\''nightly-20261130'\''")" 0 &&
	test_is "$(sqlite3 "$TMPD/c.db" "SELECT COUNT(*) FROM run WHERE label = '\''interrupted:nightly-20261130'\''")" 2
'
test_done
