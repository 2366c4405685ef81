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
	is "$r rounds: run exits 0" "$rc" 0
	eval "ins_$r=\$(csv 0 instructions raw)"
	is "$r rounds: cycles equal instructions under shift=0" "$(csv 0 cycles raw)" "$(csv 0 instructions raw)"
done
# shellcheck disable=SC2154 # set by the eval above
note_ "instructions in the window at 100, 200, 300 rounds: $ins_100 $ins_200 $ins_300"
ok "instructions counted at 100 rounds ($ins_100)" test "${ins_100:-0}" -gt 0
# shellcheck disable=SC2154
is "instructions are exactly linear in rounds: equal steps ($((ins_200 - ins_100)))" \
	"$((ins_300 - ins_200))" "$((ins_200 - ins_100))"

# --- identical work, identical counts ---
run_csv run --tasks 4 --sga-size 16m --page-size 4k --rounds 100 --events instructions
is "4 tasks: run exits 0" "$rc" 0
i0=$(csv 0 instructions raw)
note_ "4 tasks, 100 rounds each: $i0 $(csv 1 instructions raw) $(csv 2 instructions raw) $(csv 3 instructions raw)"
is "4 tasks doing identical work count identical instructions" \
	"$(csv 1 instructions raw) $(csv 2 instructions raw) $(csv 3 instructions raw)" "$i0 $i0 $i0"

# --- more hardware events than counters: all counted, scaled, within 10% ---
# 3000 rounds is about 86 ms of virtual time: the kernel rotates the
# events every 4 ms (HZ 250), some twenty times in the window.
rounds=3000
# shellcheck disable=SC2086
run_csv run $ws --rounds $rounds --events instructions,cycles
exact=$(csv 0 instructions raw)
is "exact run: not multiplexed (enabled == running)" "$(csv 0 instructions running)" "$(csv 0 instructions enabled)"
note_ "exact count at $rounds rounds: $exact instructions, $(csv 0 cycles raw) cycles"
# INST_RETIRED (0x08) and CPU_CYCLES (0x11) under several spellings: 10 events, 7 counters
many="instructions,cycles,r8,r11,r08,r011,r008,r0011,r0008,r00011"
# shellcheck disable=SC2086
run_csv run $ws --rounds $rounds --events "$many"
is "10 hardware events on 7 counters: run exits 0" "$rc" 0
cp "$TMPD/out" "$TMPD/many.csv"
for e in $(echo "$many" | tr , ' '); do
	st=$(csv 0 "$e" missing)
	v=$(csv 0 "$e" value)
	en=$(csv 0 "$e" enabled)
	run=$(csv 0 "$e" running)
	note_ "$e: value $v raw $(csv 0 "$e" raw) enabled $en running $run ${st:+missing $st}"
	is "over-committed $e is counted" "$st" ""
	ok "over-committed $e was multiplexed: running $run < enabled $en" test "${run:-0}" -lt "${en:-0}"
	ok "over-committed $e scaled ($v) is within 10% of the exact count ($exact)" within 10 "${v:-0}" "$exact"
done

# --- an explicit group that fits is read as one ---
# shellcheck disable=SC2086
run_csv run $ws --rounds $rounds --events "{instructions,cycles},r8,r11,r08,r011,r008,r0011,r0008,r00011"
is "explicit group among 10 events: run exits 0" "$rc" 0
ok "the output names the group" grep -q '^# groups={instructions,cycles}' "$TMPD/out"
note_ "group: instructions enabled $(csv 0 instructions enabled) running $(csv 0 instructions running); cycles enabled $(csv 0 cycles enabled) running $(csv 0 cycles running)"
is "its members share enabled and running: read as one group" \
	"$(csv 0 cycles enabled) $(csv 0 cycles running)" "$(csv 0 instructions enabled) $(csv 0 instructions running)"
is "and, both counting every cycle, equal counts" "$(csv 0 cycles raw)" "$(csv 0 instructions raw)"
ok "the group is scaled to within 10% of the exact count" within 10 "$(csv 0 instructions value)" "$exact"

# --- an explicit group larger than the PMU: split, said, and still counted ---
big="{instructions,cycles,r8,r11,r08,r011,r008,r0011},r0008,r00011"
# shellcheck disable=SC2086
run_csv run $ws --rounds $rounds --events "$big"
is "a group of 8 on 7 counters: run exits 0" "$rc" 0
ok "a warning says the PMU cannot hold it whole" grep -q "cannot hold the group" "$TMPD/err"
note_ "$(cat "$TMPD/err")"
for e in $(echo "$big" | tr -d '{}' | tr , ' '); do
	v=$(csv 0 "$e" value)
	ok "split group: $e counted, $v within 10% of $exact" within 10 "${v:-0}" "$exact"
done

# --- the TLB events QEMU lacks: unsupported, and table says n/a with why ---
# shellcheck disable=SC2086
run_csv run $ws --rounds 10 --events dTLB-load-misses,dTLB-loads,iTLB-load-misses,instructions
is "TLB events: run exits 0" "$rc" 0
is "dTLB-load-misses, dTLB-loads, iTLB-load-misses are unsupported (QEMU has no such events)" \
	"$(csv 0 dTLB-load-misses missing) $(csv 0 dTLB-loads missing) $(csv 0 iTLB-load-misses missing)" \
	"unsupported unsupported unsupported"
ok "instructions still count beside them" test "$(csv 0 instructions raw)" -gt 0
if need_hugepages 140; then
	# A small model (2 TTEs, no jitter) keeps the model's half cheap under
	# TCG: only the native column is checked here, not the reproduction.
	run_sga table --native-normal --seeds 1 --working-set 8m --jitter 0 --no-store
	cp "$TMPD/out" "$TMPD/table"
	note_ "$(grep -E '^ *1 \||native normal' "$TMPD/table")"
	ok "table --native-normal: the native column is n/a" grep -q 'n/a *$' "$TMPD/table"
	ok "with the reason: unsupported" grep -q '^native normal: .*unsupported' "$TMPD/table"
else
	skip "table --native-normal" "cannot reserve 140 2 MiB hugepages"
fi

# --- the dead-PMU verdict never fires on a PMU that counts ---
is "no run of this guest reported pmu-reads-zero" "$(grep -c 'pmu-reads-zero' "$TMPD/all.csv")" 0
