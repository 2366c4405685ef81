#!/bin/sh
# t0175: defaults come from the option tables, and `run` and `sim` follow one
# rule: the working set is the SGA unless given (sim's working set used to
# stay 276m when only --sga-size was given).
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'sim --sga-size 60m alone: the working set is the SGA' - <<-\EOT
	run_sga sim --machine intel-skylake --sga-size 60m --page-size 2m --rounds 2 --no-store --json &&
	test_is "$rc" 0 &&
	test_is "$(json '$.config.working_set')" $((60 << 20)) &&
	test_is "$(json '$.config.sga_size')" $((60 << 20))
EOT
test_expect_success 'sim with no sizes: the table 276m, for both' - <<-\EOT
	run_sga sim --rounds 2 --no-store --json &&
	test_is "$rc" 0 &&
	test_is "$(json '$.config.working_set')" $((276 << 20)) &&
	test_is "$(json '$.config.sga_size')" $((276 << 20))
EOT
test_expect_success 'sim --working-set alone: the SGA is the working set' - <<-\EOT
	run_sga sim --working-set 8m --rounds 2 --no-store --json &&
	test_is "$(json '$.config.sga_size')" $((8 << 20))
EOT
test_expect_success 'sim --sga-size 6m on 4m pages: exit 2, naming the value and the default' - <<-\EOT
	run_sga sim --sga-size 6m --no-store &&
	test_is "$rc" 2 &&
	grep -q "sga-size 6 MiB is not a multiple of the page size 4m (the machine's default; set --page-size)" "$TMPD/err"
EOT
test_expect_success 'sim --working-set above --sga-size: exit 2, naming both' - <<-\EOT
	run_sga sim --sga-size 4m --working-set 8m --no-store &&
	test_is "$rc" 2 &&
	grep -q "working-set 8 MiB is larger than --sga-size 4 MiB" "$TMPD/err"
EOT
test_expect_success 'run --sga-size alone first-touches all of it (4 MiB / 4 KiB = 1024 pages)' - <<-\EOT
	run_sga run --sga-size 4m --page-size 4k --rounds 1 --tasks 1 --events page-faults --no-store --json &&
	test_is "$rc" 0 &&
	test_is "$(json '$.config.working_set')" 0 &&
	test_is "$(json '$.metrics."first-touch-faults"')" 1024
EOT
# Every default in every table parses: a .def that did not would make
# --help and every run fail with exit 2.
for cmd in run sim table runs show compare history sysinfo workloads; do
	test_expect_success "sgabench $cmd --help: exit 0" "run_sga $cmd --help && test_is \"\$rc\" 0"
done
test_expect_success 'run --help shows the defaults from the table' - <<-\EOT
	run_sga run --help &&
	grep -q '\[dTLB-load-misses,dTLB-loads' "$TMPD/out" &&
	grep -q 'working-set SIZE.*\[the SGA\]' "$TMPD/out"
EOT
for cmd in run sim; do
	test_expect_success "$cmd --zipf-theta 10.5: the one range 0.01..10 refuses it" \
		"run_sga $cmd --zipf-theta 10.5 --no-store && test_is \"\$rc\" 2 && grep -q 'out of range 0.01..10' \"\$TMPD/err\""
done
test_done
