#!/bin/sh
# t0581: Valgrind's cachegrind stands in for one level of a run with two
# page sizes: Skylake's 4K L1 (64 entries, 16 sets x 4) sees only the
# heap's 4k accesses of a run whose area is in 2m pages, so its misses are
# those of a 4096-line, 4-way, 16-set cache on the heap's stream alone,
# which build/micro/tlbreplay writes as loads (the stream of task 0 of the
# heap: the pattern over the heap's pages, seeded with the run's seed
# XOR 0x68656170, model_heap_params()). The STLB, which both sizes share,
# has no such stand-in: cachegrind has one line size per cache. The
# harness's accesses are excluded as in t0570 (a two-pass run less a
# one-pass run).
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

replay=$top/build/micro/tlbreplay
[ -x "$replay" ] || skip_all "build/micro/tlbreplay not built (make all)"
[ "$(uname -m)" = x86_64 ] || skip_all "the replay code is x86-64 only"

# d1mr ARGS...: the measured pass's loads and D1 read misses (two lines)
# of tlbreplay ARGS with D1 = Skylake's 4K L1.
d1mr() {
	for mode in w b; do
		valgrind --tool=cachegrind --cache-sim=yes --I1=1048576,256,4096 --D1=262144,4,4096 \
			--LL=8388608,16,4096 --cachegrind-out-file="$TMPD/cg.out" "$replay" "$@" "$mode" \
			>"$TMPD/cg.n" 2>"$TMPD/cg.err" || return 1
		sed -n 's/^summary: //p' "$TMPD/cg.out" | tr ' ' '\n' >"$TMPD/cg.$mode"
	done
	paste "$TMPD/cg.b" "$TMPD/cg.w" | awk '{ print $1 - $2 }' | sed -n '4p;5p'
}

# The area: 32 pages of 2m for 128 rounds, 4096 accesses; at a share of
# 50 % the heap gets as many: two rounds of its 2048 pages of 4k.
seed=7
hseed=$((seed ^ 0x68656170))
for pat in random zipf; do
	test_expect_success VALGRIND "skylake, $pat: l1d-4k of a 2m area with a 4k heap = cachegrind on the heap's stream" "
		d1mr $pat 2048 2 $hseed 0.99 >\"$TMPD/vg\" &&
		run_sga sim --machine intel-skylake --tasks 1 --pattern $pat --page-size 2m --working-set 64m \
			--rounds 128 --seed $seed --heap-size 8m --heap-page-size 4k --heap-share 50 --no-store --json &&
		test_is \"\$rc\" 0 &&
		{ echo 4096; json '\$.totals.\"model-l1d-4k-misses\"'; } >\"$TMPD/model\" &&
		echo \"cachegrind: \$(tr '\n' ' ' <\"$TMPD/vg\")model: \$(tr '\n' ' ' <\"$TMPD/model\")\" &&
		test_is \"\$(cat \"$TMPD/vg\")\" \"\$(cat \"$TMPD/model\")\" &&
		test \"\$(sed -n 2p \"$TMPD/model\")\" -gt 100
	"
done
test_done
