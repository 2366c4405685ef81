#!/bin/sh
# t0587: `sim --ghz` and `--walk-cycles` price the est-* metrics. On the T2
# (128-entry DTLB, 4m pages) 4 tasks with private contexts over 16 pages
# each fill 64 entries: 64 cold walks, no more (and its DTLB's lookups cost
# nothing; amd-zen2's l2d lookups 7 cycles each). At W cycles a walk that is
# 64 x W cycles whatever the clock, and 64 x W / (G x 1e9) s at G GHz: the
# time scales exactly as 1/G, the cycles not. The run stores the clock and
# cost with its machine and `show` prints them; `--machine list` keeps the
# presets' own; a custom TLB names the clock it took; a timed run with
# ticks names its clock in the cell, ticks = floor(cycles x hz / cpu_hz);
# bad clocks and walk costs exit 2.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

t2="--machine ultrasparc-t2 --tasks 4 --working-set 64m --rounds 2 --walk-cycles 100"
# est NAME FILE: a metric of a --json run
est() { jq -r ".metrics[\"$1\"]" "$2"; }

test_expect_success "64 cold walks at 100 cycles: 6400 cycles at 1, 2 and 4 GHz" - <<-\EOT
	for g in 1 2 4; do
		# shellcheck disable=SC2086 # $t2 is a list of arguments
		"$SGABENCH" sim $t2 --ghz $g --no-store --json >"$TMPD/g$g.json" || return 1
		test_is "$(jq '.totals["dtlb-walks"]' "$TMPD/g$g.json")" 64 &&
		test_is "$(est est-translation-cycles "$TMPD/g$g.json")" 6400 || return 1
	done
EOT

test_expect_success "lookups cost too: zen2's l2d 7 cycles a lookup, every L1 miss one" - <<-\EOT
	"$SGABENCH" sim --machine amd-zen2 --tasks 2 --working-set 64m --rounds 2 --walk-cycles 100 \
		--no-store --json >"$TMPD/zen2.json" &&
	w=$(jq '.totals["dtlb-walks"]' "$TMPD/zen2.json") && l1=$(jq '.totals["l1-dtlb-misses"]' "$TMPD/zen2.json") &&
	test "$w" -gt 0 && test "$l1" -ge "$w" &&
	test_is "$(est est-translation-cycles "$TMPD/zen2.json")" $((w * 100 + l1 * 7)) &&
	"$SGABENCH" sim --machine list >"$TMPD/list" &&
	grep -q "^  costs    walk 35 cycles, l2d lookup 7 cycles, 3.5 GHz (estimates)$" "$TMPD/list"
EOT

test_expect_success "est-translation-s = cycles / (G x 1e9), exactly 1/G" - <<-\EOT
	s1=$(est est-translation-s "$TMPD/g1.json") &&
	test_is "$(awk -v s="$s1" 'BEGIN { print (s == 6400 / 1e9) }')" 1 &&
	test_is "$(jq -n --argjson a "$s1" --argjson b "$(est est-translation-s "$TMPD/g2.json")" \
		--argjson c "$(est est-translation-s "$TMPD/g4.json")" '$a == 2 * $b and $a == 4 * $c')" true &&
	test_is "$(est est-translation-ns-per-access "$TMPD/g1.json")" 50 &&
	test_is "$(est est-translation-ns-per-access "$TMPD/g4.json")" 12.5
EOT

test_expect_success "without --ghz the preset's 1.4 GHz; the clock is in no untimed cell" - <<-\EOT
	# shellcheck disable=SC2086
	"$SGABENCH" sim $t2 --no-store --json >"$TMPD/preset.json" &&
	# shellcheck disable=SC2086
	"$SGABENCH" sim $t2 --ghz 1.4 --no-store --json >"$TMPD/g14.json" &&
	test_is "$(est est-translation-s "$TMPD/preset.json")" "$(est est-translation-s "$TMPD/g14.json")" &&
	test_is "$(jq -r .config.machine.ghz "$TMPD/preset.json")" 1.4 &&
	test_is "$(jq -r .cell "$TMPD/g1.json")" "$(jq -r .cell "$TMPD/preset.json")" &&
	! jq -r .cell "$TMPD/g1.json" | grep -q ghz
EOT

test_expect_success "stored: the run's machine says 2 GHz and 100 cycles; show prints them" - <<-\EOT
	# shellcheck disable=SC2086
	"$SGABENCH" sim $t2 --ghz 2 --db "$TMPD/g.db" --quiet &&
	run_sga show 1 --db "$TMPD/g.db" --json &&
	test_is "$rc" 0 &&
	test_is "$(jq -c '.config.machine | [.ghz, .walk_cycles]' "$TMPD/out")" "[2,100]" &&
	test_is "$(jq -r '.metrics["est-translation-s"]' "$TMPD/out")" "$(est est-translation-s "$TMPD/g2.json")" &&
	run_sga show 1 --db "$TMPD/g.db" &&
	grep -qx "  est-\* assumed a walk of 100 cycles, each level's lookups at its hit= cost (tlb above), 2 GHz (the run's machine)" "$TMPD/out"
EOT

test_expect_success "--machine list keeps each preset's own clock" - <<-\EOT
	run_sga sim --machine list --json --ghz 2 &&
	test_is "$(jq -c '[.machines[].machine | select(.name == "ultrasparc-t2") | .ghz]' "$TMPD/out")" "[1.4]" &&
	run_sga sim --machine list &&
	grep -q "^  costs    walk 60 cycles, 1.4 GHz (estimates)$" "$TMPD/out"
EOT

tlb_a='l1d:64,full,lru'
test_expect_success "a custom TLB names the 3 GHz it took, and not a clock given" - <<-\EOT
	run_sga sim --tlb "$tlb_a" --tag asid --cores 1 --strands 2 --working-set 8m --page-size 4k \
		--rounds 1 --no-store &&
	grep -q "took these defaults: --walk-cycles 30 --ghz 3 (what est-\* assume" "$TMPD/err" &&
	run_sga sim --tlb "$tlb_a" --tag asid --cores 1 --strands 2 --working-set 8m --page-size 4k \
		--rounds 1 --walk-cycles 30 --no-store &&
	grep -q "took these defaults: --ghz 3 (what est-\* assume: the clock)" "$TMPD/err" &&
	run_sga sim --tlb "$tlb_a" --tag asid --cores 1 --strands 2 --working-set 8m --page-size 4k \
		--rounds 1 --walk-cycles 30 --ghz 3 --no-store &&
	test_is "$rc:$(cat "$TMPD/err")" "0:"
EOT

# one strand, 800m of random 4m pages: ticks every 2e9 / hz cycles at 2 GHz
one="--tasks 1 --pattern random --working-set 800m --rounds 20000 --timing --hz 1000"
test_expect_success "timed, 2 GHz: ticks = floor(cycles x 1000 / 2e9); ghz=2 in the cell" - <<-\EOT
	# shellcheck disable=SC2086
	"$SGABENCH" sim $one --ghz 2 --no-store --json >"$TMPD/tick.json" 2>"$TMPD/tick.err" &&
	cycles=$(sed -n 's/.*timing: \([0-9]*\) cycles.*/\1/p' "$TMPD/tick.err") &&
	ticks=$(sed -n 's/.*ticks \([0-9][0-9]*\) (hz.*/\1/p' "$TMPD/tick.err") &&
	test "$ticks" -gt 2 &&
	test_is "$ticks" $((cycles * 1000 / 2000000000)) &&
	jq -r .cell "$TMPD/tick.json" | grep -q " hz=1000 walk-cycles=60 ghz=2$" &&
	"$SGABENCH" sim --tasks 1 --rounds 1 --working-set 8m --timing --ghz 2 --no-store --json \
		>"$TMPD/notick.json" &&
	! jq -r .cell "$TMPD/notick.json" | grep -q ghz
EOT

test_expect_success "refused with exit 2: 0, negative, absurd and non-numbers" - <<-\EOT
	refuse 2 "--ghz '0': out of range 0.01..100" sim --no-store --ghz 0 &&
	refuse 2 "--ghz '-2': out of range" sim --no-store --ghz -2 &&
	refuse 2 "--ghz '0.001': out of range" sim --no-store --ghz 0.001 &&
	refuse 2 "--ghz '1000': out of range" sim --no-store --ghz 1000 &&
	refuse 2 "--ghz 'nan': not a number" sim --no-store --ghz nan &&
	refuse 2 "--ghz 'inf': not a number" sim --no-store --ghz inf &&
	refuse 2 "--ghz '3ghz': not a number" sim --no-store --ghz 3ghz &&
	refuse 2 "ghz" sim --no-store --ghz
EOT

test_expect_success "--walk-cycles: -1 is the machine's, another negative is refused" - <<-\EOT
	refuse 2 "--walk-cycles -0.5: give 0 or more cycles" sim --no-store --walk-cycles -0.5 &&
	refuse 2 "--walk-cycles '-2': out of range" sim --no-store --walk-cycles -2
EOT

test_done
