# pmu.sh - the counter path against a real kernel PMU driver (armv8_pmuv3)
# over QEMU's counters under -icount shift=0, where one instruction takes
# one virtual nanosecond: instructions and cycles are exact and
# deterministic, so the checks below are equalities, not tolerances
# (except for scaled multiplexed counts, which are estimates by nature).
# Sourced by scripts/lab/suite.sh in the aarch64 guest.
# shellcheck shell=sh
# shellcheck disable=SC2154 # rc, TMPD, top and SGABENCH come from scripts/t/test-lib.sh

ws="--tasks 1 --sga-size 16m --page-size 4k"

# --- exact linearity in rounds; cycles == instructions under shift=0 ---
for r in 100 200 300; do
	# shellcheck disable=SC2086 # $ws is a word list
	run_csv run $ws --rounds $r --events instructions,cycles
	test_expect_success "$r rounds: run exits 0" - <<-\EOT
		test_is "$rc" 0
	EOT
	eval "ins_$r=\$(csv 0 instructions raw)"
	test_expect_success "$r rounds: cycles equal instructions under shift=0" - <<-\EOT
		test_is "$(csv 0 cycles raw)" "$(csv 0 instructions raw)"
	EOT
done
# shellcheck disable=SC2154 # set by the eval above
note_ "instructions in the window at 100, 200, 300 rounds: $ins_100 $ins_200 $ins_300"
test_expect_success "instructions counted at 100 rounds ($ins_100)" - <<-\EOT
	test "${ins_100:-0}" -gt 0
EOT
# shellcheck disable=SC2154
test_expect_success "instructions are exactly linear in rounds: equal steps ($((ins_200 - ins_100)))" - <<-\EOT
	test_is "$((ins_300 - ins_200))" "$((ins_200 - ins_100))"
EOT

# --- identical work, identical counts ---
run_csv run --tasks 4 --sga-size 16m --page-size 4k --rounds 100 --events instructions
test_expect_success "4 tasks: run exits 0" - <<-\EOT
	test_is "$rc" 0
EOT
i0=$(csv 0 instructions raw)
note_ "4 tasks, 100 rounds each: $i0 $(csv 1 instructions raw) $(csv 2 instructions raw) $(csv 3 instructions raw)"
test_expect_success "4 tasks doing identical work count identical instructions" - <<-\EOT
	test_is "$(csv 1 instructions raw) $(csv 2 instructions raw) $(csv 3 instructions raw)" "$i0 $i0 $i0"
EOT

# --- more hardware events than counters: all counted, scaled, within 10% ---
# 3000 rounds is about 86 ms of virtual time: the kernel rotates the
# events every 4 ms (HZ 250), some twenty times in the window.
rounds=3000
# shellcheck disable=SC2086
run_csv run $ws --rounds $rounds --events instructions,cycles
exact=$(csv 0 instructions raw)
test_expect_success "exact run: not multiplexed (enabled == running)" - <<-\EOT
	test_is "$(csv 0 instructions running)" "$(csv 0 instructions enabled)"
EOT
note_ "exact count at $rounds rounds: $exact instructions, $(csv 0 cycles raw) cycles"
# INST_RETIRED (0x08) and CPU_CYCLES (0x11) under several spellings: 10 events, 7 counters
many="instructions,cycles,r8,r11,r08,r011,r008,r0011,r0008,r00011"
# shellcheck disable=SC2086
run_csv run $ws --rounds $rounds --events "$many"
test_expect_success "10 hardware events on 7 counters: run exits 0" - <<-\EOT
	test_is "$rc" 0
EOT
cp "$TMPD/out" "$TMPD/many.csv"
for e in $(echo "$many" | tr , ' '); do
	st=$(csv 0 "$e" missing)
	v=$(csv 0 "$e" value)
	en=$(csv 0 "$e" enabled)
	run=$(csv 0 "$e" running)
	note_ "$e: value $v raw $(csv 0 "$e" raw) enabled $en running $run ${st:+missing $st}"
	test_expect_success "over-committed $e is counted" - <<-\EOT
		test_is "$st" ""
	EOT
	test_expect_success "over-committed $e was multiplexed: running $run < enabled $en" - <<-\EOT
		test "${run:-0}" -lt "${en:-0}"
	EOT
	test_expect_success "over-committed $e scaled ($v) is within 10% of the exact count ($exact)" - <<-\EOT
		within 10 "${v:-0}" "$exact"
	EOT
done

# --- how far to trust them: the verdicts the JSON records ---
# 800 rounds is about 23 ms of virtual time, under 6 multiplexing
# intervals (4 ms): the kernel rotates the 10 events often enough that
# each gets a counter (3 rotations do), but none can be counted over the
# 10 rotations it takes to be trusted: each stays on a counter the whole
# window (exact) or is few-rotations, none scaled. The two events that
# fit are exact. What a run promises (machine/perf_mux.h), not where the
# line falls: that is scripts/lab/mux's table.
iv=$(cat /sys/bus/event_source/devices/armv8_pmuv3*/perf_event_mux_interval_ms 2>/dev/null | head -n 1)
# shellcheck disable=SC2086
run_sga run $ws --rounds 800 --events "$many" --no-store --json
cp "$TMPD/out" "$TMPD/mux.json"
cp "$TMPD/err" "$TMPD/mux.err"
note_ "$(grep -c '"trust": "exact"' "$TMPD/mux.json") exact, $(grep -c '"trust": "few-rotations"' "$TMPD/mux.json") few-rotations of 10 at 800 rounds; interval $iv ms"
test_expect_success "10 events at 800 rounds: run exits 0, every event counted" - <<-\EOT
	test_is "$rc $(grep -c '"trust": ' "$TMPD/mux.json")" "0 10"
EOT
test_expect_success "the JSON records the PMU's multiplexing interval from sysfs ($iv ms)" - <<-\EOT
	test -n "$iv" && grep -q "^    \"interval_ms\": $iv,\$" "$TMPD/mux.json"
EOT
test_expect_success "a window of under 6 rotations: some estimates are few-rotations" - <<-\EOT
	test "$(grep -c '"trust": "few-rotations"' "$TMPD/mux.json")" -ge 1
EOT
test_expect_success "none is trusted as scaled, none unknown" - <<-\EOT
	test_is "$(grep -cE '"trust": "(scaled|unknown)"' "$TMPD/mux.json")" 0
EOT
test_expect_success "every few-rotations estimate rests on more than 0 and under 10 rotations" - <<-\EOT
	awk '/"rotations":/ { r = $2 + 0 } /"trust": "few-rotations"/ { n++; if (!(r > 0 && r < 10)) bad++ }
		END { exit !(n > 0 && !bad) }' "$TMPD/mux.json"
EOT
test_expect_success "and run warns that the window is too short for them" - <<-\EOT
	grep -q "is an estimate over .* rotations of the PMU .*at least 10 are needed" "$TMPD/mux.err"
EOT
# shellcheck disable=SC2086
run_sga run $ws --rounds 100 --events instructions,cycles --no-store --json
test_expect_success "the two events that fit: exact, and no warning" - <<-\EOT
	test_is "$rc $(grep -c '"trust": "exact"' "$TMPD/out")" "0 2" && ! grep -q rotations "$TMPD/err"
EOT

# --- an explicit group that fits is read as one ---
# shellcheck disable=SC2086
run_csv run $ws --rounds $rounds --events "{instructions,cycles},r8,r11,r08,r011,r008,r0011,r0008,r00011"
test_expect_success "explicit group among 10 events: run exits 0" - <<-\EOT
	test_is "$rc" 0
EOT
test_expect_success "the output names the group" - <<-\EOT
	grep -q '^# groups={instructions,cycles}' "$TMPD/out"
EOT
note_ "group: instructions enabled $(csv 0 instructions enabled) running $(csv 0 instructions running); cycles enabled $(csv 0 cycles enabled) running $(csv 0 cycles running)"
test_expect_success "its members share enabled and running: read as one group" - <<-\EOT
	test_is "$(csv 0 cycles enabled) $(csv 0 cycles running)" "$(csv 0 instructions enabled) $(csv 0 instructions running)"
EOT
test_expect_success "and, both counting every cycle, equal counts" - <<-\EOT
	test_is "$(csv 0 cycles raw)" "$(csv 0 instructions raw)"
EOT
test_expect_success "the group is scaled to within 10% of the exact count" - <<-\EOT
	within 10 "$(csv 0 instructions value)" "$exact"
EOT

# --- an explicit group larger than the PMU: split, said, and still counted ---
big="{instructions,cycles,r8,r11,r08,r011,r008,r0011},r0008,r00011"
# shellcheck disable=SC2086
run_csv run $ws --rounds $rounds --events "$big"
test_expect_success "a group of 8 on 7 counters: run exits 0" - <<-\EOT
	test_is "$rc" 0
EOT
test_expect_success "a warning says the PMU cannot hold it whole" - <<-\EOT
	grep -q "cannot hold the group" "$TMPD/err"
EOT
note_ "$(cat "$TMPD/err")"
for e in $(echo "$big" | tr -d '{}' | tr , ' '); do
	v=$(csv 0 "$e" value)
	test_expect_success "split group: $e counted, $v within 10% of $exact" - <<-\EOT
		within 10 "${v:-0}" "$exact"
	EOT
done

# --- the TLB events QEMU lacks: unsupported, and table says n/a with why ---
# shellcheck disable=SC2086
run_csv run $ws --rounds 10 --events dTLB-load-misses,dTLB-loads,iTLB-load-misses,instructions
test_expect_success "TLB events: run exits 0" - <<-\EOT
	test_is "$rc" 0
EOT
test_expect_success "dTLB-load-misses, dTLB-loads, iTLB-load-misses are unsupported (QEMU has no such events)" - <<-\EOT
	test_is "$(csv 0 dTLB-load-misses missing) $(csv 0 dTLB-loads missing) $(csv 0 iTLB-load-misses missing)" \
		"unsupported unsupported unsupported"
EOT
test_expect_success "instructions still count beside them" - <<-\EOT
	test "$(csv 0 instructions raw)" -gt 0
EOT
if need_hugepages 140; then
	# A small model (2 TTEs, no jitter) keeps the model's half cheap under
	# TCG: only the native column is checked here, not the reproduction.
	run_sga table --native-normal --seeds 1 --working-set 8m --jitter 0 --no-store
	cp "$TMPD/out" "$TMPD/table"
	note_ "$(grep -E '^ *1 \||native normal' "$TMPD/table")"
	test_expect_success "table --native-normal: the native column is n/a" - <<-\EOT
		grep -q 'n/a *$' "$TMPD/table"
	EOT
	test_expect_success "with the reason: unsupported" - <<-\EOT
		grep -q '^native normal: .*unsupported' "$TMPD/table"
	EOT
else
	skip "table --native-normal" "cannot reserve 140 2 MiB hugepages"
fi

# --- the dead-PMU verdict never fires on a PMU that counts ---
test_expect_success "no run of this guest reported pmu-reads-zero" - <<-\EOT
	test_is "$(grep -c 'pmu-reads-zero' "$TMPD/all.csv")" 0
EOT
