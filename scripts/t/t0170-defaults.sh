#!/bin/sh
# t0170: defaults come from the option tables, and `run` and `sim` follow one
# rule: the working set is the SGA unless given (issue: sim's working set
# used to stay 276m when only --sga-size was given).
# shellcheck source=scripts/t/tap.sh
. "$(dirname "$0")/tap.sh"

run_sga sim --machine intel-skylake --sga-size 60m --page-size 2m --rounds 2 --no-store --json
is "sim --sga-size 60m alone: exit 0" "$rc" 0
is "sim: the working set defaults to the SGA" "$(json '$.config.working_set')" $((60 << 20))
is "sim: the SGA is as given" "$(json '$.config.sga_size')" $((60 << 20))

run_sga sim --rounds 2 --no-store --json
is "sim with no sizes: exit 0" "$rc" 0
is "sim with no sizes: the table's 276m working set" "$(json '$.config.working_set')" $((276 << 20))
is "sim with no sizes: the SGA is the working set" "$(json '$.config.sga_size')" $((276 << 20))

run_sga sim --working-set 8m --rounds 2 --no-store --json
is "sim --working-set alone: the SGA is the working set" "$(json '$.config.sga_size')" $((8 << 20))

run_sga sim --sga-size 6m --no-store
is "sim --sga-size 6m on 4m pages: exit 2" "$rc" 2
ok "the message names the value and the default page size that caused it" \
	grep -q "sga-size 6 MiB is not a multiple of the page size 4m (the machine's default; set --page-size)" "$TMPD/err"

run_sga sim --sga-size 4m --working-set 8m --no-store
is "sim --working-set above --sga-size: exit 2" "$rc" 2
ok "the message names both values" grep -q "working-set 8 MiB is larger than --sga-size 4 MiB" "$TMPD/err"

run_sga run --sga-size 4m --page-size 4k --rounds 1 --tasks 1 --events page-faults --no-store --json
is "run --sga-size alone: exit 0" "$rc" 0
is "run: the working set defaults to the SGA (as sim)" "$(json '$.config.working_set')" 0
is "run: and it first-touches all of it (4 MiB / 4 KiB = 1024 pages)" "$(json '$.metrics."first-touch-faults"')" 1024

# Every default in every table parses: each command's --help and a bare
# run of the defaults would fail with exit 2 if one did not.
for cmd in run sim table runs show compare history sysinfo workloads; do
	run_sga "$cmd" --help
	is "sgabench $cmd --help: exit 0" "$rc" 0
done
run_sga run --help
ok "run --help shows the table's default events" grep -q '\[dTLB-load-misses,dTLB-loads' "$TMPD/out"
ok "run --help shows a default that is not a literal" grep -q 'working-set SIZE.*\[the SGA\]' "$TMPD/out"
run_sga sim --help
ok "sim --help: one zipf-theta range, the workload's" grep -q 'zipf' "$TMPD/out"
for cmd in run sim; do
	run_sga "$cmd" --zipf-theta 10.5 --no-store
	is "$cmd --zipf-theta 10.5: the one range 0.01..10 refuses it" "$rc" 2
	ok "$cmd: the message gives the range" grep -q "out of range 0.01..10" "$TMPD/err"
done
done_testing
