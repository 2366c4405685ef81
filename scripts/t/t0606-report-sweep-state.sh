#!/bin/sh
# t0606: a sweep cut short is reported as such. The synthetic sweep
# (scripts/t/fixtures/synthetic.sql) is 3 layouts x 4 task counts x 3
# passes, one run each: 36 runs. Given the config it ran (mkreport
# --config), the report and both summaries say how many of the planned
# runs are stored and whether the sweep completed; a sweep interrupted
# (its runs relabelled by the named statement scripts/sweep uses) or
# stopped by a failed run says so even without the config.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"

for tool in sqlite3 gnuplot jq; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "mkreport: '$tool' not installed"
done
db="$TMPD/syn.db"
cfg="$TMPD/sga-scaling"

# report DB OUT [ARG...]: mkreport of DB into OUT.
report() {
	rdb=$1 rout=$2
	shift 2
	"$top/report/mkreport" --db "$rdb" --out "$rout" "$@" >/dev/null 2>"$TMPD/err"
}
# cut DB: DB without the third pass (the runs scal-*-2 and their timings).
cut_pass() {
	sqlite3 "$1" "DELETE FROM timing WHERE run_uuid LIKE 'scal-%-2';
		DELETE FROM metric WHERE run_id IN (SELECT id FROM run WHERE uuid LIKE 'scal-%-2');
		DELETE FROM run WHERE uuid LIKE 'scal-%-2'"
}

test_expect_success 'the synthetic database and the config of its sweep' - <<-\EOT
	db_ensure "$db" &&
	sqlite3 "$db" <"$FIXTURES/synthetic.sql" &&
	cat >"$cfg" <<-\EOF &&
	SWEEP_AXES="layout tasks"
	SWEEP_TASKS="1 2 4 8"
	SWEEP_LAYOUT="4k 2m-pud 2m-pmd"
	SWEEP_PASSES=3
	SWEEP_RUNS=1
	EOF
	test_is "$(sqlite3 "$db" "SELECT COUNT(DISTINCT run_uuid) FROM timing WHERE sweep_uuid = 'sweep-1'")" 36
EOT
test_expect_success 'a complete sweep: 36 of 36 planned runs' - <<-\EOT
	report "$db" "$TMPD/full" --config "$cfg" &&
	sed -n 1p "$TMPD/full/summary.txt" | grep -q '; sweep sga-scaling: complete: 36 of 36 planned runs stored$' &&
	grep -q '^<p>Runs of this sweep: complete: 36 of 36 planned runs stored.</p>$' "$TMPD/full/index.html"
EOT
test_expect_success 'without the config: what is stored, and that the plan is not known' - <<-\EOT
	report "$db" "$TMPD/nocfg" &&
	sed -n 1p "$TMPD/nocfg/summary.txt" | grep -q '; sweep sga-scaling: 36 runs stored, none stored as failed or relabelled interrupted (planned runs not known: mkreport --config CONFIG)$'
EOT
test_expect_success 'interrupted after two passes: 24 of 36, labelled interrupted' - <<-\EOT
	cp "$db" "$TMPD/int.db" &&
	cut_pass "$TMPD/int.db" &&
	sqlite3 "$TMPD/int.db" "UPDATE run SET machine_name = 'm1' WHERE uuid LIKE 'scal-%'" &&
	"$SGABENCH" db exec --db "$TMPD/int.db" runs-interrupted sga-scaling-20261121 m1 2026-11-21T00:00:00Z >/dev/null &&
	report "$TMPD/int.db" "$TMPD/int" --config "$cfg" &&
	s="NOT complete: 24 of 36 planned runs stored; 24 labelled interrupted:sga-scaling-20261121 (the sweep was interrupted)" &&
	sed -n 1p "$TMPD/int/summary.txt" | grep -qF "; sweep sga-scaling: $s" &&
	grep -qF "$s" "$TMPD/int/summary.md" &&
	grep -qF "<p class=\"broken\">Runs of this sweep: $s.</p>" "$TMPD/int/index.html"
EOT
test_expect_success 'interrupted, without the config: still NOT complete' - <<-\EOT
	report "$TMPD/int.db" "$TMPD/int2" &&
	sed -n 1p "$TMPD/int2/summary.txt" | grep -qF "; sweep sga-scaling: NOT complete: 24 runs stored; 24 labelled interrupted:sga-scaling-20261121 (the sweep was interrupted)"
EOT
test_expect_success 'stopped by a failed run: the failure and the runs missing' - <<-\EOT
	cp "$db" "$TMPD/fail.db" &&
	cut_pass "$TMPD/fail.db" &&
	sqlite3 "$TMPD/fail.db" "UPDATE run SET status = 'failed' WHERE uuid = 'scal-4k-8-1'" &&
	report "$TMPD/fail.db" "$TMPD/fail" --config "$cfg" &&
	sed -n 1p "$TMPD/fail/summary.txt" | grep -qF "; sweep sga-scaling: NOT complete: 24 of 36 planned runs stored; 1 failed (the sweep stops at a failed run)"
EOT
test_expect_success 'fewer runs than planned, none failed or interrupted: NOT complete' - <<-\EOT
	cp "$db" "$TMPD/short.db" &&
	cut_pass "$TMPD/short.db" &&
	report "$TMPD/short.db" "$TMPD/short" --config "$cfg" &&
	sed -n 1p "$TMPD/short/summary.txt" | grep -qF "; sweep sga-scaling: NOT complete: 24 of 36 planned runs stored"
EOT
test_expect_success 'a config that does not exist is refused (exit 2)' - <<-\EOT
	rc=0 && report "$db" "$TMPD/bad" --config "$TMPD/none" || rc=$?
	test_is "$rc" 2
EOT
test_done
