#!/bin/sh
# t0510: the randomised interleaved order is seeded and reproducible, every
# pass runs every cell once, and A/B runs in ABBA order.
# shellcheck source=scripts/t/tap.sh
. "$(dirname "$0")/tap.sh"
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"

seq 1 50 >"$TMPD/in"
a=$(shuffle 12345 <"$TMPD/in" | tr '\n' ' ')
b=$(shuffle 12345 <"$TMPD/in" | tr '\n' ' ')
c=$(shuffle 12346 <"$TMPD/in" | tr '\n' ' ')
is "same seed, same order" "$a" "$b"
ok "another seed, another order" test "$a" != "$c"
ok "the order is shuffled" test "$a" != "$(tr '\n' ' ' <"$TMPD/in")"
is "a shuffle is a permutation" "$(shuffle 777 <"$TMPD/in" | sort -n | tr '\n' ' ')" "$(tr '\n' ' ' <"$TMPD/in")"
# The generator is exact integer arithmetic, so the order is the same with
# every awk: seed 1 on 1..5, by hand: MINSTD gives x1..x4 = 48271,
# 182605794, 1291394886, 1914720637; Fisher-Yates swaps i=4 with 48271 % 5 = 1,
# i=3 with x2 % 4 = 2, i=2 with x3 % 3 = 0, i=1 with x4 % 2 = 1: 4 5 1 3 2.
is "seed 1 gives the documented order" "$(seq 1 5 | shuffle 1 | tr '\n' ' ')" "4 5 1 3 2 "

config_load "$top/scripts/configs/sga-scaling"
plan_order 99 >"$TMPD/plan"
is "$SWEEP_PASSES passes x 21 cells" "$(wc -l <"$TMPD/plan")" $((SWEEP_PASSES * 21))
for p in $(seq 1 "$SWEEP_PASSES"); do
	is "pass $p runs every cell once" "$(awk -F'	' -v p="$p" '$1 == p { print $2 }' "$TMPD/plan" | sort | tr '\n' ,)" "$(config_cells | sort | tr '\n' ,)"
done
ok "passes are shuffled differently" test "$(awk -F'	' '$1 == 1 { print $2 }' "$TMPD/plan")" != "$(awk -F'	' '$1 == 2 { print $2 }' "$TMPD/plan")"
is "plan_order is reproducible" "$(plan_order 99 | cksum)" "$(cksum <"$TMPD/plan")"

s1=$("$top/scripts/sweep" --dry-run --seed 4242 --label t --db "$TMPD/x.db" configs/sga-scaling)
s2=$("$top/scripts/sweep" --dry-run --seed 4242 --label t --db "$TMPD/x.db" configs/sga-scaling)
s3=$("$top/scripts/sweep" --dry-run --seed 4243 --label t --db "$TMPD/x.db" configs/sga-scaling)
is "sweep --dry-run: same seed, same invocations" "$s1" "$s2"
ok "sweep --dry-run: another seed, another order" test "$s1" != "$s3"
ok "sweep --dry-run states the seed" sh -c "printf '%s\n' '$s1' | head -n 1 | grep -q 'order seed 4242'"
ok "the commands carry the label and the database" sh -c "printf '%s\n' '$s1' | sed -n 2p | grep -q -- '--label t --db $TMPD/x.db --json'"
printf 'SWEEP_ORDER_SEED=31\nSWEEP_AXES="tasks"\nSWEEP_TASKS="1 2 3 4"\n' >"$TMPD/fixed"
is "a config can fix the order seed" "$("$top/scripts/sweep" --dry-run "$TMPD/fixed" | head -n 1 | sed 's/.*order seed \([0-9]*\).*/\1/')" 31

"$top/scripts/sweep" --dry-run --seed 5 --ab /bin/A /bin/B configs/smoke >"$TMPD/ab"
is "A/B: twice the invocations" "$(grep -c '^[0-9]' "$TMPD/ab")" 8
arms=$(awk -F'	' '/^[0-9]/ { printf "%s", $2 }' "$TMPD/ab")
is "A/B: ABBA order (AB on odd passes, BA on even)" "$arms" "ABABBABA"
ok "A/B: the arms run their own binary" sh -c "grep '	A	' '$TMPD/ab' | grep -q '/bin/A run' && grep '	B	' '$TMPD/ab' | grep -q '/bin/B run'"
ok "A/B: the arms have their own label" sh -c "grep '	B	' '$TMPD/ab' | grep -q -- '-B --db'"
awk -F'	' '/^[0-9]/ { print $1, $3 }' "$TMPD/ab" | uniq -c | awk '{ print $1 }' | sort -u >"$TMPD/pairs"
is "A/B: each cell's A and B are adjacent" "$(cat "$TMPD/pairs")" 2
done_testing
