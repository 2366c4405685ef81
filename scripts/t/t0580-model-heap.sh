#!/bin/sh
# t0580: two page sizes in one model run (`sim --heap-size`: a private
# heap per task beside the shared area) and ways partitioned by page size
# (`--tlb ...,part=4k:8+2m:2`), through the command line: hand-computed
# counts from the geometry, the fast simulator equal to the reference
# (build/tests/t_model_multi checks more configurations task by task),
# cells that name the heap only when there is one, and refusals (exit 2).
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

sim() { "$SGABENCH" sim --no-store --json "$@"; }

# Skylake: a 64-page 4k heap fits the 4k L1 (16 sets x 4), 32 pages of 2m
# fit the 2m L1 (8 x 4), and the STLB holds both: compulsory misses only.
fit="--machine intel-skylake --tasks 1 --pattern random --page-size 2m --working-set 64m --rounds 50 --heap-size 256k --heap-share 50"
# shellcheck disable=SC2086 # $fit is a list of arguments
sim $fit >"$TMPD/fit.json"
# shellcheck disable=SC2086
sim $fit --reference >"$TMPD/fit-ref.json"
test_expect_success "skylake: a heap in the 4k L1 and an area in the 2m L1 miss only once a page" - <<-\EOT
	test_is "$(jq -c '.totals | [.["dtlb-walks"], .["l1-dtlb-misses"], .["model-l1d-4k-misses"], .["model-l1d-2m-misses"], .["model-stlb-misses"]]' "$TMPD/fit.json")" \
		"[96,96,64,32,96]" &&
	test_is "$(jq '.tasks[0].accesses' "$TMPD/fit.json")" 3200 &&
	test_is "$(jq -c .totals "$TMPD/fit.json")" "$(jq -c .totals "$TMPD/fit-ref.json")"
EOT

# Zen 2 with a 4k heap beside 2m pages: fast, reference and --jobs 2 agree per task
zen="--machine amd-zen2 --cores 2 --place spread --tasks 4 --pattern zipf --page-size 2m --working-set 600m --rounds 8 --heap-size 6m --heap-share 30 --quantum 97"
# shellcheck disable=SC2086
sim $zen | jq -c '[.tasks[] | [.accesses, .events]]' >"$TMPD/zen"
# shellcheck disable=SC2086
sim $zen --reference | jq -c '[.tasks[] | [.accesses, .events]]' >"$TMPD/zen-ref"
# shellcheck disable=SC2086
sim $zen --jobs 2 | jq -c '[.tasks[] | [.accesses, .events]]' >"$TMPD/zen-j2"
test_expect_success "amd-zen2 with a heap: fast = reference = --jobs 2, task by task" - <<-\EOT
	test -s "$TMPD/zen" && cmp "$TMPD/zen" "$TMPD/zen-ref" && cmp "$TMPD/zen" "$TMPD/zen-j2"
EOT

# 2 ways for 4k and 2 for 2m in 16 sets: 48 cyclic 2m pages (3 a set)
# miss every access though the 4k ways stay empty; unpartitioned they fit.
part="--machine custom --cores 1 --tag asid --tasks 1 --pattern rounds --page-size 2m --working-set 96m --rounds 30"
# shellcheck disable=SC2086
sim $part --tlb 'l2:64,4way,lru,ps=4k+2m,part=4k:2+2m:2' >"$TMPD/part.json"
# shellcheck disable=SC2086
sim $part --tlb 'l2:64,4way,lru,ps=4k+2m' >"$TMPD/whole.json"
test_expect_success "partitioned ways: a size above its partition's reach misses, whole it fits" - <<-\EOT
	test_is "$(jq '.totals["dtlb-walks"]' "$TMPD/part.json")" 1440 &&
	test_is "$(jq '.totals["dtlb-walks"]' "$TMPD/whole.json")" 48 &&
	test_is "$(jq -r '.config.machine.levels[0].ways_by_size | "\(.["4k"]) \(.["2m"])"' "$TMPD/part.json")" "2 2" &&
	jq -r .cell "$TMPD/part.json" | grep -q 'part=4k:2+2m:2'
EOT

# shellcheck disable=SC2086
"$SGABENCH" sim --db "$TMPD/db" $fit --json >"$TMPD/s1.json"
# shellcheck disable=SC2086
"$SGABENCH" sim --db "$TMPD/db" --machine intel-skylake --tasks 1 --pattern random --page-size 2m \
	--working-set 64m --rounds 50 --json >"$TMPD/s2.json"
test_expect_success "the cell names the heap only when there is one" - <<-\EOT
	jq -r .cell "$TMPD/s1.json" | grep -q ' heap=262144 heap-share=50 ' &&
	! jq -r .cell "$TMPD/s2.json" | grep -q heap &&
	test_is "$(jq .config.heap_page_size -r "$TMPD/s1.json")" 4k &&
	test_is "$(jq .totals.\"dtlb-walks\" "$TMPD/s2.json")" 32
EOT

test_expect_success "refused with exit 2: bad heaps, bad partitions, sweeps and run" - <<-\EOT
	refuse 2 "give --heap-size" sim --no-store --heap-share 30 &&
	refuse 2 "heap-share" sim --no-store --heap-size 1m --heap-share 100 &&
	refuse 2 "not a multiple of its page size" sim --no-store --machine intel-skylake --heap-size 6000 &&
	refuse 2 "has no 4m pages" sim --no-store --machine intel-skylake --heap-size 8m --heap-page-size 4m &&
	refuse 2 "heap-page-size 4k (the default): sparc64 has no 4k pages (it maps 8k+64k+4m+256m): give $(
		)--heap-page-size 8k" sim --no-store --machine ultrasparc-t2 --heap-size 8m &&
	refuse 2 "holds the heap's 4k pages" sim --no-store --machine custom --tlb 'l1:64,full,lru,ps=2m' \
		--page-size 2m --heap-size 1m &&
	refuse 2 "more than its 4" sim --no-store --machine custom --tlb 'l2:64,4way,lru,ps=4k+2m,part=4k:3+2m:2' &&
	refuse 2 "2m has none" sim --no-store --machine custom --tlb 'l2:64,4way,lru,ps=4k+2m,part=4k:2' &&
	refuse 2 "a run with a heap" sim --machine intel-skylake --heap-size 1m --sweep-entries 8..16 &&
	refuse 2 "partitioned by page size" sim --machine custom --tlb 'l2:64,4way,lru,ps=4k+2m,part=4k:2+2m:2' \
		--page-size 2m --sweep-entries 16..32 &&
	refuse 2 "unknown option '--heap-size'" run --no-store --heap-size 1m
EOT

test_expect_success "--words where levels hold a size as different entries: refused with the reason" - <<-\EOT
	refuse 2 "one key per entry size" sim --no-store --machine arm-neoverse-n1 --page-size 1g \
		--working-set 4g --words 2
EOT

test_done
