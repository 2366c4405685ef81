#!/bin/sh
# t0501: SWEEP_EXCLUDE as the sweep says it: an exclusion word that leaves
# out nothing is refused (exit 2, the word named); the header and --dry-run
# say how many of the cross product's cells run and what each word left
# out; words that leave out every cell of a value (a word of two pairs
# written unquoted) are allowed with a warning that shows the quotes.
# Copies of tlb-designs (6 machines x off/on x 3 task counts = 36 cells).
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# design EXCLUDE: a copy of tlb-designs with SWEEP_EXCLUDE set to EXCLUDE
# (a config line's value, quotes included), at $TMPD/cfg
design() {
	grep -v '^SWEEP_EXCLUDE=' "$top/scripts/configs/tlb-designs" >"$TMPD/cfg" &&
	printf 'SWEEP_EXCLUDE=%s\n' "$1" >>"$TMPD/cfg"
}
# dry: scripts/sweep --dry-run on $TMPD/cfg; status in $rc
dry() {
	rc=0
	"$top/scripts/sweep" --dry-run --seed 1 --db "$TMPD/none.db" "$TMPD/cfg" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
}

test_expect_success "the shipped exclusions: 27 of 36 cells, each word's 3 said, no warning" - <<-\EOT
	cp "$top/scripts/configs/tlb-designs" "$TMPD/cfg" && dry &&
	test_is "$rc" 0 &&
	grep -qF "invocations of 27 of 36 cells (9 excluded by SWEEP_EXCLUDE: $(
		)3 by 'machine=intel-skylake sharedctx=on', 3 by 'machine=amd-zen2 sharedctx=on', $(
		)3 by 'machine=arm-neoverse-n1 sharedctx=on'), order seed 1" "$TMPD/out" &&
	test_is "$(grep -c ' sim ' "$TMPD/out")" 27 &&
	test ! -s "$TMPD/err"
EOT

test_expect_success "two pairs unquoted: allowed (15 of 36), each word's cells said" - <<-\EOT
	design '"machine=intel-skylake sharedctx=on"' && dry &&
	test_is "$rc" 0 &&
	grep -qF "invocations of 15 of 36 cells (21 excluded by SWEEP_EXCLUDE: $(
		)6 by 'machine=intel-skylake', 18 by 'sharedctx=on'), order seed 1" "$TMPD/out"
EOT
test_expect_success "and each value left out whole is a warning on stderr" - <<-\EOT
	test_is "$(grep -c 'warning: ' "$TMPD/err")" 2 &&
	grep -q "warning: SWEEP_EXCLUDE leaves out every cell of machine=intel-skylake" "$TMPD/err" &&
	grep -q "warning: SWEEP_EXCLUDE leaves out every cell of sharedctx=on" "$TMPD/err"
EOT
test_expect_success "whose hint is the quoted word of two pairs, in the axes' order" - <<-\EOT
	test_is "$(grep -c "hint: .*SWEEP_EXCLUDE=\"'machine=intel-skylake sharedctx=on'\"" "$TMPD/err")" 2
EOT
test_expect_success "a word of two pairs that leaves out a whole value warns too" - <<-\EOT
	sed -i 's/^SWEEP_TASKS=.*/SWEEP_TASKS="8"/' "$TMPD/cfg" &&
	sed -i "s/^SWEEP_EXCLUDE=.*/SWEEP_EXCLUDE=\"'machine=sparc-m7 tasks=8'\"/" "$TMPD/cfg" && dry &&
	test_is "$rc" 0 &&
	grep -qF "invocations of 10 of 12 cells (2 excluded by SWEEP_EXCLUDE: 2 by 'machine=sparc-m7 tasks=8'), order seed 1" "$TMPD/out" &&
	grep -q "warning: SWEEP_EXCLUDE leaves out every cell of machine=sparc-m7" "$TMPD/err"
EOT

test_expect_success "two values of one axis in one word match no cell: exit 2, nothing run" - <<-\EOT
	design "\"'tasks=2 tasks=8'\"" && dry &&
	test_is "$rc" 2 &&
	test ! -s "$TMPD/out"
EOT
test_expect_success "the refusal names the word and the axis, and shows two words" - <<-\EOT
	grep -q "error: config '.*': SWEEP_EXCLUDE 'tasks=2 tasks=8' matches no cell (a cell holds one value of axis 'tasks')" "$TMPD/err" &&
	grep -q 'hint: .*SWEEP_EXCLUDE="tasks=2 tasks=8"' "$TMPD/err"
EOT
test_expect_success "a word whose cells another word leaves out already: exit 2, named" - <<-\EOT
	design "\"machine=amd-zen2 'machine=amd-zen2 sharedctx=on'\"" && dry &&
	test_is "$rc" 2 &&
	grep -q "error: config '.*': SWEEP_EXCLUDE 'machine=amd-zen2 sharedctx=on' leaves out no cell that another of its words does not" "$TMPD/err"
EOT
test_expect_success "a word given twice: refused as well" - <<-\EOT
	design "\"sharedctx=on sharedctx=on\"" && dry &&
	test_is "$rc" 2 &&
	grep -q "SWEEP_EXCLUDE 'sharedctx=on' leaves out no cell" "$TMPD/err"
EOT
test_expect_success "no exclusion: the dry run says the cells" - <<-\EOT
	design '""' && dry &&
	test_is "$rc" 0 &&
	grep -qF "invocations of 36 cells, order seed 1" "$TMPD/out" &&
	test ! -s "$TMPD/err"
EOT

test_expect_success HYPERFINE,SQLITE3,FLOCK "the sweep's header says the cells too" - <<-\EOT
	design '"machine=intel-skylake sharedctx=on"' &&
	cat >>"$TMPD/cfg" <<-\CFG &&
	SWEEP_MACHINE="sparc-t4 intel-skylake"
	SWEEP_TASKS="2"
	SWEEP_ARGS="--pattern rounds --rounds 2 --working-set 8m"
	SWEEP_NOISE=0
	CFG
	rc=0
	"$top/scripts/sweep" --seed 1 --db "$TMPD/s.db" "$TMPD/cfg" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
	test_is "$rc" 0 &&
	grep -q "^sweep: sweep 'cfg' (.*): 1 invocations of 1 of 4 cells (3 excluded by SWEEP_EXCLUDE: $(
		)2 by 'machine=intel-skylake', 2 by 'sharedctx=on'), order seed 1" "$TMPD/err" &&
	grep -q "warning: SWEEP_EXCLUDE leaves out every cell of machine=intel-skylake" "$TMPD/err"
EOT
test_done
