#!/bin/sh
# t0521: the sweep's label. The default is NAME-YYYYMMDDTHHMMSS (UTC), and
# one the database already has (two sweeps in one second) takes the first
# free suffix -2, -3, ..., so label:LABEL selects one sweep; an explicit
# --label that has runs is kept (the nightly run again adds to its night),
# with a warning. The clock is a test double (date) that always says one
# second, so the collisions are certain, not a race.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

for tool in hyperfine sqlite3 flock; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "sweep: '$tool' not installed"
done
real_date=$(command -v date)
mkdir "$TMPD/bin"
cat >"$TMPD/bin/date" <<EOF
#!/bin/sh
# date, stopped at 2026-12-05 10:15:00 UTC for the sweep's label alone
case "\$*" in
'-u +%Y%m%dT%H%M%S') echo 20261205T101500 ;;
*) exec '$real_date' "\$@" ;;
esac
EOF
chmod +x "$TMPD/bin/date"
cat >"$TMPD/lab" <<'CFG'
SWEEP_COMMAND=sim
SWEEP_AXES="machine"
SWEEP_MACHINE="amd-zen2"
SWEEP_ARGS="--tasks 2 --pattern rounds --rounds 2 --working-set 8m"
SWEEP_PASSES=1
SWEEP_RUNS=2
SWEEP_WARMUP=1
SWEEP_NOISE=0
SWEEP_METRICS="dtlb-walks"
CFG
db="$TMPD/l.db"
# sweep ARGS...: scripts/sweep on the config lab with the stopped clock;
# output in $TMPD/out and $TMPD/err, status in $rc
sweep() {
	rc=0
	PATH="$TMPD/bin:$PATH" "$top/scripts/sweep" --db "$db" --seed 1 "$@" "$TMPD/lab" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
}
# runs LABEL: how many ok runs carry LABEL
runs() { sqlite3 "$db" "SELECT COUNT(*) FROM run WHERE label = '$1' AND status = 'ok'"; }

test_expect_success "the default label is the second the sweep began (the dry run says it)" - <<-\EOT
	sweep --dry-run &&
	test_is "$rc" 0 &&
	grep -q "^# sweep lab: .*, label lab-20261205T101500, database" "$TMPD/out"
EOT
test_expect_success "with the real clock: NAME-YYYYMMDDTHHMMSS" - <<-\EOT
	rc=0
	"$top/scripts/sweep" --dry-run --db "$db" "$TMPD/lab" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
	test_is "$rc" 0 &&
	grep -q "label lab-[0-9]\{8\}T[0-9]\{6\}, database" "$TMPD/out"
EOT
test_expect_success "a first sweep takes the label as it is" - <<-\EOT
	sweep &&
	test_is "$rc" 0 &&
	test_is "$(runs lab-20261205T101500)" 2 &&
	test_is "$(grep -c 'label .* is taken\|warning' "$TMPD/err")" 0
EOT
test_expect_success "a second in the same second: -2, its runs apart, said on stderr" - <<-\EOT
	sweep &&
	test_is "$rc" 0 &&
	test_is "$(runs lab-20261205T101500)" 2 &&
	test_is "$(runs lab-20261205T101500-2)" 2 &&
	grep -q "^sweep: label 'lab-20261205T101500' is taken in '.*': this sweep's is 'lab-20261205T101500-2'" "$TMPD/err"
EOT
test_expect_success "a third: -3; the warm-ups follow their sweep's label" - <<-\EOT
	sweep &&
	test_is "$rc" 0 &&
	test_is "$(runs lab-20261205T101500-3)" 2 &&
	test_is "$(runs warmup:lab-20261205T101500-3)" 1
EOT
test_expect_success "the dry run names the label the sweep would take" - <<-\EOT
	sweep --dry-run &&
	grep -q "label lab-20261205T101500-4, database" "$TMPD/out"
EOT
test_expect_success "quiet: the suffix is taken without a word" - <<-\EOT
	sweep -q &&
	test_is "$rc" 0 &&
	test_is "$(runs lab-20261205T101500-4)" 2 &&
	test_is "$(grep -c 'is taken' "$TMPD/err")" 0
EOT

test_expect_success "an explicit label with runs: kept, the runs added, a warning" - <<-\EOT
	sweep --label lab-20261205T101500-2 &&
	test_is "$rc" 0 &&
	test_is "$(runs lab-20261205T101500-2)" 4 &&
	test_is "$(runs lab-20261205T101500-5)" 0 &&
	grep -q "^sweep: warning: label 'lab-20261205T101500-2' already has 3 runs in '.*': this sweep's runs are added to them, and label:lab-20261205T101500-2 selects them all" "$TMPD/err"
EOT
test_expect_success "as the nightly's night run again: exit 0, one label" - <<-\EOT
	sweep --label nightly-20261205 && test_is "$rc" 0 &&
	sweep --label nightly-20261205 && test_is "$rc" 0 &&
	test_is "$(runs nightly-20261205)" 4 &&
	grep -q "warning: label 'nightly-20261205' already has" "$TMPD/err"
EOT
test_expect_success "an explicit label not used yet: no warning" - <<-\EOT
	sweep --label fresh &&
	test_is "$rc" 0 &&
	test_is "$(grep -c warning "$TMPD/err")" 0
EOT

test_expect_success "an A/B sweep's arms and an interrupted sweep's runs take the label too" - <<-\EOT
	sqlite3 "$db" "UPDATE run SET label = 'interrupted:ab' WHERE label = 'fresh'" &&
	test_is "$("$SGABENCH" db query --db "$db" label-used ab)" 2 &&
	sqlite3 "$db" "UPDATE run SET label = 'ab-B' WHERE label = 'interrupted:ab'" &&
	test_is "$("$SGABENCH" db query --db "$db" label-used ab)" 2 &&
	test_is "$("$SGABENCH" db query --db "$db" label-used a)" 0
EOT
test_done
