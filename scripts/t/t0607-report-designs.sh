#!/bin/sh
# t0607: the TLB designs section of report/mkreport on real sweeps of the
# model (deterministic): the shipped tlb-designs (27 runs of 9 presets and
# shared contexts) and a vendor's two custom designs (SWEEP_AXES="tlb
# tasks"). Each line is named by what tells it apart (its preset, or its
# --tlb spec shortened: the ps= every level shares left out), the full
# spec is in the specs table, each row gives its page size, clock and
# walk cycles, est-translation-s is in ms; the prose describes the sweep
# that ran; the summary says what it found; --config and --sweep pick the
# designs sweep and its completeness, and a model sweep never feeds the
# native scaling section. The custom designs' truths are t0650's: 2 or 4
# tasks reading 2048 4 KiB pages twice, A's walks are tasks x 2048, B's
# tasks x 2 x 2048, each walk 30 cycles at 2 GHz (given, so est-* is
# walks x 30 / 2e9 s).
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"

for tool in hyperfine sqlite3 flock gnuplot jq; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "the sweeps and the report need '$tool'"
done
tlb_a='l1d:64,4way,lru;l2:4096,8way,lru'
tlb_b='l1d:96,full,lru;l2:2048,8way,lru'
pdb=$TMPD/presets.db cdb=$TMPD/custom.db bdb=$TMPD/both.db

# report DB OUT [ARG...]: mkreport of DB into OUT, its stderr in $TMPD/err.
report() {
	rdb=$1 rout=$2
	shift 2
	"$top/report/mkreport" --db "$rdb" --out "$rout" "$@" >/dev/null 2>"$TMPD/err"
}

test_expect_success 'the sweeps: tlb-designs, and two custom designs' - <<-\EOT
	cat >"$TMPD/vendor-designs" <<-CFG &&
	SWEEP_DESCRIPTION="two custom TLBs x 2, 4 tasks"
	SWEEP_COMMAND=sim
	SWEEP_AXES="tlb tasks"
	SWEEP_TLB="$tlb_a '$tlb_b'"
	SWEEP_TASKS="2 4"
	SWEEP_ARGS="--pattern rounds --rounds 2 --working-set 8m --page-size 4k --cores 1 --tag asid --walk-cycles 30 --ghz 2"
	SWEEP_PASSES=1
	SWEEP_RUNS=1
	SWEEP_WARMUP=0
	SWEEP_METRICS="dtlb-walks"
	CFG
	"$top/scripts/sweep" --db "$pdb" --label p --seed 1 -q tlb-designs >"$TMPD/sweep" 2>&1 &&
	"$top/scripts/sweep" --db "$cdb" --label c --seed 1 -q "$TMPD/vendor-designs" >"$TMPD/sweep" 2>&1 &&
	cp "$pdb" "$bdb" &&
	"$top/scripts/sweep" --db "$bdb" --label c --seed 1 -q "$TMPD/vendor-designs" >"$TMPD/sweep" 2>&1
EOT

test_expect_success 'custom designs: each line is named by its --tlb spec, never custom #2' - <<-\EOT
	report "$cdb" "$TMPD/c" &&
	test_is "$(grep '^"' "$TMPD/c/data/designs.dat" | tr '\n' '|')" "\"$tlb_a\"|\"$tlb_b\"|" &&
	! grep -q 'custom #' "$TMPD/c/index.html" "$TMPD/c/summary.md"
EOT
test_expect_success 'custom designs: their walks, page, clock, walk cycles and est in ms (the physics)' - <<-\EOT
	printf '%s\n' "$tlb_a	2	4k	2	30	4096	0.06144	1" "$tlb_a	4	4k	2	30	8192	0.1229	1" \
		"$tlb_b	2	4k	2	30	8192	0.1229	1" "$tlb_b	4	4k	2	30	16384	0.2458	1" |
		cmp - "$TMPD/c/data/designs-table.tsv"
EOT
test_expect_success 'the table header says so, the est unit from the registry' - <<-\EOT
	unit=$("$SGABENCH" metrics --json | jq -r '.metrics[] | select(.name == "est-translation-s") | .unit') &&
	test_is "$unit" s &&
	grep -qF '<th>design</th><th>tasks</th><th>page</th><th>GHz (assumed)</th><th>walk cycles (assumed)</th><th>dtlb-walks (page walks, all tasks)</th><th>est-translation-s (ms, estimate)</th><th>samples</th>' "$TMPD/c/index.html"
EOT
test_expect_success 'the specs table gives each full spec, as the model ran it' - <<-\EOT
	awk -F'	' -v a="$tlb_a" '$1 == a && $2 == "custom" && $3 ~ /^l1d:64,4way,lru,ps=[^;]*;l2:4096,8way,lru,ps=/ { f = 1 } END { exit !f }' \
		"$TMPD/c/data/designs-specs.tsv" &&
	grep -q '<th>TLB (as the model ran it)</th>' "$TMPD/c/index.html"
EOT
test_expect_success 'the prose describes the sweep that ran: its name, description and axes' - <<-\EOT
	grep -q '^<p>Sweep vendor-designs (started [0-9T:Z-]*): two custom TLBs x 2, 4 tasks. Axes: tlb, tasks; fixed options: --pattern rounds .*--ghz 2.</p>$' "$TMPD/c/index.html" &&
	! grep -q -e 'configs/tlb-designs' -e "presets' published TLB geometries" "$TMPD/c/index.html" &&
	grep -q '^Sweep vendor-designs (started [0-9T:Z-]*): two custom TLBs x 2, 4 tasks\. Axes: tlb, tasks;' "$TMPD/c/summary.md"
EOT
test_expect_success "and the meaning of est-translation-s is the registry's" - <<-\EOT
	meaning=$("$SGABENCH" metrics --json | jq -r '.metrics[] | select(.name == "est-translation-s") | .meaning') &&
	grep -qF "<p>est-translation-s: $(html_escape "$meaning").</p>" "$TMPD/c/index.html"
EOT
test_expect_success 'the summary: what the sweep found, in its sixth line, on the page too' - <<-\EOT
	test_is "$(wc -l <"$TMPD/c/summary.txt")" 6 &&
	s="TLB designs (model, sweep vendor-designs, 2 designs; 4 runs stored): at 4 tasks, fewest dtlb-walks: $tlb_a 8192, most: $tlb_b 16384; least est-translation-s: $tlb_a 0.1229 ms, most: $tlb_b 0.2458 ms" &&
	test_is "$(sed -n 5p "$TMPD/c/summary.txt")" "$s" &&
	grep -qF "$s" "$TMPD/c/index.html" &&
	grep -qF -- "- $(md_escape "$s")" "$TMPD/c/summary.md"
EOT

test_expect_success 'presets: named by preset and shared context; SPARC at 4m, the others at 2m' - <<-\EOT
	report "$pdb" "$TMPD/p" &&
	cut -f1,3 "$TMPD/p/data/designs-table.tsv" | sort -u >"$TMPD/pages" &&
	printf '%s\n' "amd-zen2	2m" "arm-neoverse-n1	2m" "intel-skylake	2m" "sparc-m7	4m" "sparc-m7 shared	4m" \
		"sparc-t4	4m" "sparc-t4 shared	4m" "ultrasparc-t2	4m" "ultrasparc-t2 shared	4m" | cmp - "$TMPD/pages"
EOT
test_expect_success "presets: each row's clock and walk cycles are the preset's published costs" - <<-\EOT
	"$SGABENCH" sim --machine list --json |
		jq -r '.machines[].machine | "\(.name)\t\(.ghz)\t\(.walk_cycles)"' >"$TMPD/costs" &&
	test_is "$(wc -l <"$TMPD/costs")" 6 &&
	awk -F'	' 'FILENAME == ARGV[1] { c[$1] = $2 "/" $3; next } { p = $1; sub(/ shared$/, "", p)
		if (c[p] != $4 "/" $5) { print "# " $0; bad = 1 } } END { exit bad }' "$TMPD/costs" "$TMPD/p/data/designs-table.tsv"
EOT
test_expect_success 'presets: est-translation-s in ms with 4 significant digits (0.0199684 s is 19.97 ms)' - <<-\EOT
	v=$(sqlite3 "$pdb" "SELECT m.value FROM run r JOIN run_metric m ON m.run_id = r.id
		AND m.name = 'est-translation-s' WHERE r.backend = 'model:intel-skylake' AND r.tasks = 32") &&
	want=$(awk -v v="$v" 'BEGIN { printf "%.4g", v * 1000 }') &&
	awk -F'	' -v w="$want" '$1 == "intel-skylake" && $2 == 32 && $7 == w { f = 1 } END { exit !f }' "$TMPD/p/data/designs-table.tsv"
EOT
test_expect_success 'presets: the cover table says why it is empty, and how to fill it' - <<-\EOT
	grep -q '<p class="empty">No cover-table runs are stored in this database' "$TMPD/p/index.html" &&
	sed -n 2p "$TMPD/p/summary.txt" | grep -q '; no cover-table runs stored (sgabench table, or make run)$'
EOT

test_expect_success '--config tlb-designs: the designs sweep is complete, 27 of 27' - <<-\EOT
	report "$pdb" "$TMPD/pc" --config tlb-designs &&
	grep -q '^<p>Runs of this sweep: complete: 27 of 27 planned runs stored.</p>$' "$TMPD/pc/index.html" &&
	sed -n 5p "$TMPD/pc/summary.txt" | grep -q '^TLB designs (model, sweep tlb-designs, 9 designs; complete: 27 of 27 planned runs stored): at 32 tasks, fewest dtlb-walks: '
EOT
test_expect_success '--config tlb-designs with a run missing: NOT complete, 26 of 27' - <<-\EOT
	cp "$pdb" "$TMPD/cut.db" &&
	sqlite3 "$TMPD/cut.db" "DELETE FROM timing WHERE run_uuid = (SELECT MIN(uuid) FROM run)" &&
	report "$TMPD/cut.db" "$TMPD/cut" --config tlb-designs &&
	grep -q '^<p class="broken">Runs of this sweep: NOT complete: 26 of 27 planned runs stored.</p>$' "$TMPD/cut/index.html"
EOT
test_expect_success '--sweep tlb-designs: no native scaling sweep, never the model as a layout' - <<-\EOT
	report "$pdb" "$TMPD/ps" --sweep tlb-designs &&
	grep -q 'No native scaling sweep in this database' "$TMPD/ps/index.html" &&
	test_is "$(sed -n 3p "$TMPD/ps/summary.txt")" "SGA scaling: no native scaling sweep in this database (scripts/sweep configs/sga-scaling)" &&
	! grep -q -e '2m-?' -e 'run(s) per point' "$TMPD/ps/index.html" "$TMPD/ps/summary.txt" &&
	! ls "$TMPD"/ps/scaling-*.svg 2>/dev/null &&
	grep -q '^<p>Sweep tlb-designs (started ' "$TMPD/ps/index.html"
EOT
test_expect_success 'two model sweeps: the latest by default, --config or --sweep picks the other' - <<-\EOT
	report "$bdb" "$TMPD/b" &&
	grep -q '^<p>Sweep vendor-designs ' "$TMPD/b/index.html" &&
	report "$bdb" "$TMPD/bc" --config tlb-designs &&
	grep -q '^<p>Sweep tlb-designs ' "$TMPD/bc/index.html" &&
	grep -q '^<p>Runs of this sweep: complete: 27 of 27 planned runs stored.</p>$' "$TMPD/bc/index.html" &&
	report "$bdb" "$TMPD/bs" --sweep tlb-designs &&
	grep -q '^<p>Sweep tlb-designs ' "$TMPD/bs/index.html" &&
	report "$bdb" "$TMPD/bv" --config "$TMPD/vendor-designs" &&
	grep -q '^<p>Runs of this sweep: complete: 4 of 4 planned runs stored.</p>$' "$TMPD/bv/index.html"
EOT
test_expect_success 'a model config whose sweep is not stored: a warning, no count against it' - <<-\EOT
	report "$cdb" "$TMPD/cn" --config tlb-designs &&
	grep -q "warning: no sweep 'tlb-designs' in the database" "$TMPD/err" &&
	grep -q '^<p>Sweep vendor-designs ' "$TMPD/cn/index.html" &&
	! grep -q 'of 27 planned' "$TMPD/cn/index.html"
EOT
test_done
