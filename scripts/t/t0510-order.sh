#!/bin/sh
# t0510: the randomised interleaved order is seeded and reproducible, every
# pass runs every cell once, and A/B runs in ABBA order.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"

seq 1 50 >"$TMPD/in"
a=$(shuffle 12345 <"$TMPD/in" | tr '\n' ' ')
b=$(shuffle 12345 <"$TMPD/in" | tr '\n' ' ')
c=$(shuffle 12346 <"$TMPD/in" | tr '\n' ' ')
test_expect_success "same seed, same order" 'test_is "$a" "$b"'
test_expect_success "another seed, another order" 'test "$a" != "$c"'
test_expect_success "the order is shuffled" - <<-\EOT
	test "$a" != "$(tr '\n' ' ' <"$TMPD/in")"
EOT
test_expect_success "a shuffle is a permutation" - <<-\EOT
	test_is "$(shuffle 777 <"$TMPD/in" | sort -n | tr '\n' ' ')" "$(tr '\n' ' ' <"$TMPD/in")"
EOT
# The generator is exact integer arithmetic, so the order is the same with
# every awk: seed 1 on 1..5, by hand: MINSTD gives x1..x4 = 48271,
# 182605794, 1291394886, 1914720637; Fisher-Yates swaps i=4 with 48271 % 5 = 1,
# i=3 with x2 % 4 = 2, i=2 with x3 % 3 = 0, i=1 with x4 % 2 = 1: 4 5 1 3 2.
test_expect_success "seed 1 gives the documented order" - <<-\EOT
	test_is "$(seq 1 5 | shuffle 1 | tr '\n' ' ')" "4 5 1 3 2 "
EOT

config_load "$top/scripts/configs/sga-scaling"
plan_order 99 >"$TMPD/plan"
test_expect_success "$SWEEP_PASSES passes x 21 cells" 'test_is "$(wc -l <"$TMPD/plan")" $((SWEEP_PASSES * 21))'
for p in $(seq 1 "$SWEEP_PASSES"); do
	test_expect_success "pass $p runs every cell once" - <<-\EOT
		test_is "$(awk -F'	' -v p="$p" '$1 == p { print $2 }' "$TMPD/plan" | sort | tr '\n' ,)" "$(config_cells | sort | tr '\n' ,)"
	EOT
done
test_expect_success "passes are shuffled differently" - <<-\EOT
	test "$(awk -F'	' '$1 == 1 { print $2 }' "$TMPD/plan")" != "$(awk -F'	' '$1 == 2 { print $2 }' "$TMPD/plan")"
EOT
test_expect_success "plan_order is reproducible" 'test_is "$(plan_order 99 | cksum)" "$(cksum <"$TMPD/plan")"'

s1=$("$top/scripts/sweep" --dry-run --seed 4242 --label t --db "$TMPD/x.db" configs/sga-scaling)
s2=$("$top/scripts/sweep" --dry-run --seed 4242 --label t --db "$TMPD/x.db" configs/sga-scaling)
s3=$("$top/scripts/sweep" --dry-run --seed 4243 --label t --db "$TMPD/x.db" configs/sga-scaling)
test_expect_success "sweep --dry-run: same seed, same invocations" 'test_is "$s1" "$s2"'
test_expect_success "sweep --dry-run: another seed, another order" 'test "$s1" != "$s3"'
test_expect_success "sweep --dry-run states the seed" - <<-\EOT
	sh -c "printf '%s\n' '$s1' | head -n 1 | grep -q 'order seed 4242'"
EOT
test_expect_success "the commands carry the label and the database" - <<-\EOT
	sh -c "printf '%s\n' '$s1' | sed -n 2p | grep -q -- '--label t --db $TMPD/x.db --json'"
EOT
printf 'SWEEP_ORDER_SEED=31\nSWEEP_AXES="tasks"\nSWEEP_TASKS="1 2 3 4"\n' >"$TMPD/fixed"
test_expect_success "a config can fix the order seed" - <<-\EOT
	test_is "$("$top/scripts/sweep" --dry-run "$TMPD/fixed" | head -n 1 | sed 's/.*order seed \([0-9]*\).*/\1/')" 31
EOT

"$top/scripts/sweep" --dry-run --seed 5 --ab /bin/A /bin/B configs/smoke >"$TMPD/ab"
test_expect_success "A/B: twice the invocations" 'test_is "$(grep -c "^[0-9]" "$TMPD/ab")" 8'
arms=$(awk -F'	' '/^[0-9]/ { printf "%s", $2 }' "$TMPD/ab")
test_expect_success "A/B: ABBA order (AB on odd passes, BA on even)" 'test_is "$arms" "ABABBABA"'
test_expect_success "A/B: the arms run their own binary" - <<-\EOT
	sh -c "grep '	A	' '$TMPD/ab' | grep -q '/bin/A run' && grep '	B	' '$TMPD/ab' | grep -q '/bin/B run'"
EOT
test_expect_success "A/B: the arms have their own label" - <<-\EOT
	sh -c "grep '	B	' '$TMPD/ab' | grep -q -- '-B --db'"
EOT
awk -F'	' '/^[0-9]/ { print $1, $3 }' "$TMPD/ab" | uniq -c | awk '{ print $1 }' | sort -u >"$TMPD/pairs"
test_expect_success "A/B: each cell's A and B are adjacent" 'test_is "$(cat "$TMPD/pairs")" 2'
test_done
