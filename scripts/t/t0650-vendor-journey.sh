#!/bin/sh
# t0650: the hardware vendor's journey, end to end, on SQLite and (when
# pg-lib.sh can start one) a PostgreSQL server: one sweep of the TLB model
# over two custom designs, written as the vendor writes them (commas and
# semicolons in an axis value, one of them quoted), then 'compare
# --ignore-axis tlb' of design B against design A: one exact verdict per
# cell from one run a side, each count checked against the brute-force
# reference simulator and against what the geometry implies.
#
# The designs, 2 or 4 tasks each reading 2048 4 KiB pages twice, with asid
# tags on 1 core of 2 strands (so two tasks run at a time):
#   A  l1d:64,4way,lru;l2:4096,8way,lru  two tasks' 4096 pages fit the L2:
#      only the first touches miss, tasks x 2048
#   B  l1d:96,full,lru;l2:2048,8way,lru  they do not fit, and LRU over a
#      cycle longer than the TLB evicts every entry before its reuse: every
#      access misses, tasks x 2 x 2048
# so B/A is exactly 2 in both cells. The count compared is dtlb-walks: a
# custom TLB has no CPU, so no driver defines dTLB-load-misses for it.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=scripts/t/pg-lib.sh
. "$(dirname "$0")/pg-lib.sh"

for tool in hyperfine jq flock; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "the sweep needs '$tool'"
done
tlb_a='l1d:64,4way,lru;l2:4096,8way,lru'
tlb_b='l1d:96,full,lru;l2:2048,8way,lru'
test_expect_success "the vendor's config loads: two designs, commas and semicolons, one quoted" - <<-\EOT
	cat >"$TMPD/vendor" <<CFG
	# two custom designs: values with commas and semicolons, the second quoted
	SWEEP_COMMAND=sim
	SWEEP_AXES="tlb tasks"
	SWEEP_TLB="$tlb_a '$tlb_b'"
	SWEEP_TASKS="2 4"
	SWEEP_ARGS="--pattern rounds --rounds 2 --working-set 8m --page-size 4k --cores 1 --tag asid"
	SWEEP_PASSES=1
	SWEEP_RUNS=1
	SWEEP_WARMUP=0
	SWEEP_METRICS="dtlb-walks"
	CFG
	(. "$top/scripts/lib.sh" && config_load "$TMPD/vendor" && axis_words tlb >"$TMPD/designs") &&
	printf '%s\n' "$tlb_a" "$tlb_b" | cmp - "$TMPD/designs"
EOT
# the model's exact count of one design and task count, from the reference simulator
reference() { # TLB TASKS
	"$SGABENCH" sim --reference --tlb "$1" --tasks "$2" --pattern rounds --rounds 2 \
		--working-set 8m --page-size 4k --cores 1 --tag asid --walk-cycles 30 --no-store --json |
		jq -r '.totals["dtlb-walks"]'
}
# compare_ab OPTION...: compare, in $D, design B's cells of the sweep (candidate) with A's
compare_ab() {
	run_sga compare --db "$D" --baseline label:vendor --baseline-cell '*tlb=l1d:64,4way,lru,*' \
		--candidate label:vendor --candidate-cell '*tlb=l1d:96,full,lru,*' "$@"
}

# sql SQL: one value from the journey's database $D, either engine.
sql() {
	case "$D" in
	postgresql://*) psql_pg "$1" sgabench ;;
	*) sqlite3 "$D" "$1" ;;
	esac
}

# journey ENGINE DB: the sweep and the comparisons, stored in DB.
journey() {
	E=$1 D=$2
	test_expect_success "$E: the sweep over both designs exits 0" - <<-\EOT
		"$top/scripts/sweep" --db "$D" --label vendor --seed 3 -q "$TMPD/vendor" >"$TMPD/sweep" 2>&1
	EOT
	test_expect_success "$E: without --ignore-axis nothing pairs (3), and the hint names tlb" - <<-\EOT
		compare_ab
		test_is "$rc" 3 && grep -q "add --ignore-axis tlb$" "$TMPD/err"
	EOT
	test_expect_success "$E: compare --ignore-axis tlb: B has more misses, exit 1" - <<-\EOT
		compare_ab --ignore-axis tlb --metric dtlb-walks --json
		test_is "$rc" 1 && cp "$TMPD/out" "$TMPD/ab.json"
	EOT
	test_expect_success "$E: one verdict per cell, exact, from one run a side" - <<-\EOT
		test_is "$(jq -r '[.rows[] | "\(.cell | capture("tasks=(?<t>[0-9]+)").t):\(.test):\(.n_base):\(.n_cand):\(.verdict)"]
			| sort | join(" ")' "$TMPD/ab.json")" "2:exact:1:1:regression 4:exact:1:1:regression"
	EOT
	test_expect_success "$E: the ratio is exactly 2, its CI collapsed onto it, no p" - <<-\EOT
		test_is "$(jq -r '[.rows[] | "\(.ratio) \(.ci_lo) \(.ci_hi) \(.p) \(.p_exact) \(.min_p) \(.noise_floor)"] |
			unique | join(",")' "$TMPD/ab.json")" "2 2 2 null null null 0"
	EOT
	test_expect_success "$E: each side's count is the reference simulator's and the geometry's" - <<-\EOT
		for t in 2 4; do
			got=$(jq -r --arg t "tasks=$t" '.rows[] | select(.cell | contains($t))
				| "\(.estimate_base) \(.estimate_cand)"' "$TMPD/ab.json")
			test_is "$got" "$(reference "$tlb_a" "$t") $(reference "$tlb_b" "$t")" &&
			test_is "$got" "$((t * 2048)) $((t * 2 * 2048))" || return 1
		done
	EOT
	test_expect_success "$E: each row names the designs it paired" - <<-\EOT
		test_is "$(jq -r '[.rows[].ignored | "\(.baseline | startswith("tlb=l1d:64,4way,lru,"))
			\(.candidate | startswith("tlb=l1d:96,full,lru,"))"] | unique | join(",")' "$TMPD/ab.json")" "true
			true" && test_is "$(jq -c .ignore_axes "$TMPD/ab.json")" '["tlb"]'
	EOT
	test_expect_success "$E: the human output says what was ignored, both sides' values and the method" - <<-\EOT
		compare_ab --ignore-axis tlb --metric dtlb-walks
		grep -q "^ignored   tlb (--ignore-axis" "$TMPD/out" &&
		grep -q "^          baseline  tlb=l1d:64,4way,lru,.*;l2:4096,8way,lru," "$TMPD/out" &&
		grep -q "^          candidate tlb=l1d:96,full,lru,.*;l2:2048,8way,lru," "$TMPD/out" &&
		test_is "$(grep -c "dtlb-walks .* exact .* regression" "$TMPD/out")" 2 &&
		grep -q "^exact: 2 rows of a deterministic backend" "$TMPD/out"
	EOT
	test_expect_success "$E: A against B is the mirror image: improvements, exit 0" - <<-\EOT
		run_sga compare --db "$D" --baseline label:vendor --baseline-cell '*tlb=l1d:96,full,lru,*' \
			--candidate label:vendor --candidate-cell '*tlb=l1d:64,4way,lru,*' --ignore-axis tlb \
			--metric dtlb-walks --json
		test_is "$rc:$(jq -r '[.rows[] | "\(.verdict) \(.ratio)"] | unique | join(",")' "$TMPD/out")" \
			"0:improvement 0.5"
	EOT
	test_expect_success "$E: the model's own times time the simulator: not judged unless asked" - <<-\EOT
		compare_ab --ignore-axis tlb --json
		test_is "$(jq -r '[.rows[] | select(.metric | startswith("model-") and
			(endswith("-s") or endswith("-per-s")))] | length' "$TMPD/out")" 0 &&
		jq -r '.notes[]' "$TMPD/out" | grep -q "its clocks (model-wall-s and the like) time the simulator"
	EOT
	test_expect_success "$E: by default each quantity once: no est-* or model-LEVEL-misses restating them" - <<-\EOT
		compare_ab --ignore-axis tlb --json
		test_is "$(jq -r '[.rows[].metric] | unique | join(" ")' "$TMPD/out")" \
			"dtlb-walks l1-dtlb-misses l2-dtlb-misses" &&
		jq -r '.notes[]' "$TMPD/out" | grep -q "est-\* (counts priced at assumed costs) and model-LEVEL-misses" &&
		compare_ab --ignore-axis tlb --metric est-translation-s,model-l1d-misses --json &&
		test_is "$(jq -r '[.rows[] | "\(.metric) \(.test)"] | unique | join(",")' "$TMPD/out")" \
			"est-translation-s exact,model-l1d-misses exact"
	EOT
	test_expect_success "$E: asked by name, they are read from a clock: never exact" - <<-\EOT
		compare_ab --ignore-axis tlb --metric model-wall-s,model-cpu-s --json
		test_is "$(jq -r '[.rows[] | select(.metric == "model-wall-s" or .metric == "model-cpu-s") | .test]
			| length > 0 and all(. != "exact")' "$TMPD/out")" "true"
	EOT
	test_expect_success "$E: --ignore-axis accumulates: tlb, then tasks: one cell, runs that differ" - <<-\EOT
		compare_ab --ignore-axis tlb --ignore-axis tasks \
			--metric dtlb-walks --json
		test_is "$(jq -r '"\(.rows | length) \(.rows[0].test) \(.ignore_axes | join(","))"' "$TMPD/out")" \
			"1 mann-whitney-u tlb,tasks" &&
		jq -r '.notes[]' "$TMPD/out" >"$TMPD/notes" &&
		grep -q "a deterministic backend, but a side's runs differ" "$TMPD/notes" &&
		test_is "$(grep -c "runs of cell .* differ in the ignored axis 'tasks' (2 values): pooled" \
			"$TMPD/notes")" 2
	EOT
	test_expect_success "$E: --store-verdicts: each cell's exact verdict, its designs in the method" - <<-\EOT
		compare_ab --ignore-axis tlb --metric dtlb-walks --store-verdicts
		test_is "$rc:$(sql "SELECT COUNT(*) FROM verdict WHERE verdict = 'regression' AND ratio = 2
			AND p_value IS NULL AND method LIKE '%\"test\":\"exact\"%'
			AND method LIKE '%\"candidate\":\"tlb=l1d:96,full,lru,%'")" "1:2"
	EOT
	test_expect_success "$E: two labels, one a design (sim by hand): label:designA against label:designB" - <<-\EOT
		for d in A B; do
			eval "t=\$tlb_$(echo "$d" | tr AB ab)"
			"$SGABENCH" sim --tlb "$t" --tasks 2 --pattern rounds --rounds 2 --working-set 8m \
				--page-size 4k --cores 1 --tag asid --db "$D" --label "design$d" --quiet || return 1
		done
		run_sga compare --db "$D" --baseline label:designA --candidate label:designB --ignore-axis tlb \
			--metric dtlb-walks --json
		test_is "$rc:$(jq -r '[.rows[] | "\(.test) \(.n_base) \(.n_cand) \(.ratio) \(.verdict)"] | join(",")' \
			"$TMPD/out")" "1:exact 1 1 2 regression"
	EOT
	test_expect_success "$E: an exact answer's headline gives the change, no interval and no p" - <<-\EOT
		run_sga compare --db "$D" --baseline label:designA --candidate label:designB --ignore-axis tlb \
			--metric dtlb-walks
		test_is "$rc:$(head -n 1 "$TMPD/out" | sed 's/machine [^ :]*/machine M/')" \
			"1:regression: machine M: dtlb-walks 2.00 times higher (exact)" &&
		run_sga compare --db "$D" --baseline label:designB --candidate label:designA --ignore-axis tlb \
			--metric dtlb-walks
		test_is "$rc:$(head -n 2 "$TMPD/out" | sed 's/machine [^ :]*/machine M/; s/on [^ ;]*;/on M;/' |
			tr '\n' '|')" "0:improvement: machine M: dtlb-walks $(
			)2.00 times lower (exact)|no regression on M; the smallest change each cell could resolve in $(
			)these runs: 2 %; 1 improvement|" &&
		! grep -q nan "$TMPD/out"
	EOT
	test_expect_success "$E: designs that vary by cell: each cell's pair below the table" - <<-\EOT
		for r in "X $tlb_a 2" "X $tlb_b 4" "Y $tlb_b 2" "Y $tlb_a 4"; do
			set -- $r
			"$SGABENCH" sim --tlb "$2" --tasks "$3" --pattern rounds --rounds 2 --working-set 8m \
				--page-size 4k --cores 1 --tag asid --db "$D" --label "mixed$1" --quiet || return 1
		done
		run_sga compare --db "$D" --baseline label:mixedX --candidate label:mixedY --ignore-axis tlb \
			--metric dtlb-walks
		test_is "$rc" 1 && grep -q "^          each side's values: below the table" "$TMPD/out" &&
		test_is "$(sed -n '/^ignored axes, each/,$p' "$TMPD/out" | sed 's/,ps=.*//' | tr '\n' '|')" \
			"ignored axes, each side's values:|  tasks=2|    baseline  tlb=l1d:64,4way,lru|$(
			)    candidate tlb=l1d:96,full,lru|  tasks=4|    baseline  tlb=l1d:96,full,lru|$(
			)    candidate tlb=l1d:64,4way,lru|"
	EOT
	test_expect_success "$E: an axis no cell has is a usage error that lists the axes" - <<-\EOT
		compare_ab --ignore-axis tlbx
		test_is "$rc" 2 && grep -q "'tlbx': no selected run's cell has that axis (its axes: backend .* tlb" "$TMPD/err"
	EOT
}

test_expect_success "sim --machine list --json: every preset, its sources and a --tlb that runs" - <<-\EOT
	run_sga sim --machine list --json &&
	test_is "$rc" 0 && cp "$TMPD/out" "$TMPD/list.json" &&
	test_is "$(jq -r '[.tool, (.machines | length), ([.machines[].machine |
		select(.source != "" and .counters != "")] | length)] | join(" ")' "$TMPD/list.json")" "sgabench 6 6" &&
	jq -r '.machines[].tlb' "$TMPD/list.json" >"$TMPD/tlbs" &&
	while read -r t; do
		ps=2m
		case "$t" in *4m*) ps=4m ;; esac
		"$SGABENCH" sim --tlb "$t" --tag asid --cores 1 --strands 2 --walk-cycles 30 --working-set 8m \
			--page-size "$ps" --rounds 1 --no-store --quiet || return 1
	done <"$TMPD/tlbs" &&
	run_sga sim --machine list --csv &&
	test_is "$rc" 2
EOT
test_expect_success "a custom TLB says which defaults it took" - <<-\EOT
	run_sga sim --tlb "$tlb_a" --rounds 1 --no-store
	test_is "$rc" 0 && grep -q "took these defaults: --working-set 276m .*--page-size 4k, --cores 1" "$TMPD/err"
EOT
test_expect_success "given them, it takes none" - <<-\EOT
	run_sga sim --tlb "$tlb_a" --rounds 1 --working-set 8m --page-size 4k --cores 1 --strands 2 --tag asid \
		--walk-cycles 30 --ghz 3 --no-store
	test_is "$rc:$(cat "$TMPD/err")" "0:"
EOT
test_expect_success "it says when tasks take turns, and the costs est-* assume" - <<-\EOT
	run_sga sim --tlb "$tlb_a" --rounds 1 --working-set 8m --page-size 4k --tag asid --tasks 4 --no-store
	test_is "$rc" 0 && grep -q "defaults: --cores 1 --strands 2 (4 tasks on 2 strands: they take turns $(
		)every --quantum accesses), --walk-cycles 30 --ghz 3 (what est-\* assume: a walk's cycles and the $(
		)clock" "$TMPD/err"
EOT
test_expect_success "entries its ways do not divide: the unmodelled ones named; only defaults listed" - <<-\EOT
	run_sga sim --tlb 'l1d:64,3way,lru' --rounds 1 --working-set 8m --page-size 4k --tag asid --tasks 8 \
		--strands 8 --walk-cycles 30 --ghz 3 --no-store
	test_is "$rc" 0 &&
	grep -qx "sgabench: warning: sim: level 'l1d': 64 entries in 3 ways are 21 sets; 1 of its entries are $(
		)not modelled" "$TMPD/err" &&
	grep -q "took these defaults: --cores 1 (8 tasks on 8 strands); give them" "$TMPD/err"
EOT
test_expect_success "a design has the strands it is given: 8 tasks on 8 strands of one core" - <<-\EOT
	run_sga sim --tlb "$tlb_a" --rounds 1 --working-set 8m --page-size 4k --tag asid --tasks 8 \
		--cores 1 --strands 8 --walk-cycles 30 --ghz 3 --no-store --json
	test_is "$rc:$(cat "$TMPD/err")" "0:" &&
	test_is "$(jq -r '[.cell | split(" ")[] | select(startswith("strands=") or startswith("cores="))] |
		join(" ")' "$TMPD/out")" "cores=1 strands=8"
EOT

journey sqlite "$TMPD/vendor.db"
test_expect_success "sqlite: the sweep stored one run per cell, tlb as written" - <<-\EOT
	test_is "$(sqlite3 "$TMPD/vendor.db" "SELECT COUNT(*) FROM run WHERE label = 'vendor' AND status = 'ok'
		AND (cell LIKE '%tlb=l1d:64,4way,lru,%;l2:4096,8way,lru,%'
		OR cell LIKE '%tlb=l1d:96,full,lru,%;l2:2048,8way,lru,%')")" 4
EOT

pg_start || skip_all "postgresql: $pg_why"
journey postgresql "$PG_URI"
test_expect_success "postgresql: the sweep stored one run per cell" - <<-\EOT
	test_is "$(psql_pg "SELECT COUNT(*) FROM run WHERE label = 'vendor' AND status = 'ok'" sgabench)" 4
EOT
test_done
