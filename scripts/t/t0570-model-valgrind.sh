#!/bin/sh
# t0570: an independent simulator checks the TLB model. Valgrind's
# cachegrind, with 4096-byte lines and a level's sets and ways (D1 the
# L1 TLB, LL the L2), replays the model's exact stream of a one-task LRU
# run (build/micro/tlbreplay: the stream as straight-line loads, one per
# access, page p at base + p * 4096). The harness's own accesses are
# excluded exactly: a first pass and the harness come before the measured
# second pass (older lines never change an LRU hit), and the second pass's
# counts are a two-pass run's less a one-pass run's. So cachegrind's D1
# read misses must equal the model's l1-dtlb-misses and its LL read
# misses the model's dtlb-walks, exactly (within 1 % is the issue's bar),
# on random and zipf streams, for Skylake's 4K path (64 x 4-way L1, 1536 x
# 12-way STLB) and N1's (48 fully associative, 1280 x 5-way).
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

replay=$top/build/micro/tlbreplay
[ -x "$replay" ] || skip_all "build/micro/tlbreplay not built (make all)"
[ "$(uname -m)" = x86_64 ] || skip_all "the replay code is x86-64 only"

# cg D1 LL ARGS...: cachegrind's summary counts of tlbreplay ARGS, one per
# line: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw.
cg() {
	d1=$1 ll=$2
	shift 2
	valgrind --tool=cachegrind --cache-sim=yes --I1=1048576,256,4096 --D1="$d1" --LL="$ll" \
		--cachegrind-out-file="$TMPD/cg.out" "$replay" "$@" >"$TMPD/cg.n" 2>"$TMPD/cg.err" &&
	sed -n 's/^summary: //p' "$TMPD/cg.out" | tr ' ' '\n'
}

# check MACHINE D1 LL PATTERN PAGES ROUNDS SEED: the measured pass's Dr,
# D1mr and DLmr, then the model's accesses, l1-dtlb-misses and dtlb-walks
# (one line each), into $TMPD/vg and $TMPD/model.
check() {
	cg "$2" "$3" "$4" "$5" "$6" "$7" 0.99 w >"$TMPD/one" &&
	cg "$2" "$3" "$4" "$5" "$6" "$7" 0.99 b >"$TMPD/two" &&
	paste "$TMPD/two" "$TMPD/one" | awk '{ print $1 - $2 }' | sed -n '4p;5p;6p' >"$TMPD/vg" &&
	run_sga sim --machine "$1" --tasks 1 --pattern "$4" --page-size 4k --working-set "$(($5 * 4))k" \
		--rounds "$6" --seed "$7" --no-store --json && test_is "$rc" 0 &&
	for ev in dTLB-loads l1-dtlb-misses dtlb-walks; do
		json "\$.totals.$ev"
	done >"$TMPD/model"
}

# Skylake's dTLB-loads is every load; N1's too (their Linux drivers' maps).
for c in "intel-skylake 262144,4,4096 6291456,12,4096" "arm-neoverse-n1 196608,48,4096 5242880,5,4096"; do
	# shellcheck disable=SC2086 # c is three words on purpose
	set -- $c
	for pat in random zipf; do
		test_expect_success VALGRIND "$1 $pat over 2048 pages: cachegrind equals the model exactly" "
			check $1 $2 $3 $pat 2048 12 7 &&
			echo \"cachegrind: \$(tr '\n' ' ' <\"\$TMPD/vg\")model: \$(tr '\n' ' ' <\"\$TMPD/model\")\" &&
			test_is \"\$(cat \"\$TMPD/vg\")\" \"\$(cat \"\$TMPD/model\")\" &&
			test \"\$(sed -n 3p \"\$TMPD/model\")\" -gt 100
		"
	done
done
test_done
