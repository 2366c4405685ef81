#!/bin/sh
# t0703: every counted event says in the JSON how far its estimate can be
# trusted (machine/perf_mux.h; the decision itself is unit-tested with
# synthetic times in t_perfmux). Software events are never multiplexed:
# they are exact, counted the whole time. Where the machine has a core PMU
# its multiplexing interval is read from sysfs; without one it is null.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

run_sga run --tasks 2 --sga-size 16m --page-size 4k --rounds 1 --events page-faults,task-clock \
	--no-store --json
test_expect_success "runs" 'test_is "$rc" 0'
test_expect_success "the threshold is in the JSON" 'test_is "$(json "\$.multiplexing.min_rotations")" 10'
for e in page-faults task-clock; do
	test_expect_success "$e: exact, running/enabled 1" - <<-EOT
		test_is "\$(json '\$.multiplexing.events."$e".trust')" exact &&
		test_is "\$(json '\$.multiplexing.events."$e".running_ratio')" 1
	EOT
done
test_expect_success "no warning about rotations for exact counts" '! grep -q rotations "$TMPD/err"'
[ -n "$(core_pmus)" ] && test_set_prereq CORE_PMU
test_expect_success !CORE_PMU "no core PMU: the interval is unknown (null)" 'test -z "$(json "\$.multiplexing.interval_ms")"'
test_expect_success CORE_PMU "a core PMU: its interval from sysfs" - <<-\EOT
	# shellcheck disable=SC2046 # one word per PMU
	set -- $(core_pmus)
	want=$(cat "/sys/bus/event_source/devices/$1/perf_event_mux_interval_ms")
	awk -v a="$(json '$.multiplexing.interval_ms')" -v b="$want" 'BEGIN { exit !(a == b) }'
EOT
test_done
