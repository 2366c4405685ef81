#!/bin/sh
# t0572: build/micro/tlbfloor, the minimal loops that make bench sets
# beside the model's rate (scripts/bench-model, section 9), simulate what
# the model simulates: their L1 and L2 misses equal sim's on the run they
# stand for (tasks as strands of one core, in turn, two LRU levels of 8x4
# and 128x12 sets and ways), for random and zipf streams and several task
# counts, by rows and (x86-64) by vector compares. Without that their rates
# would be of another job. They are also two more, separately written
# simulators of those levels.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

floor=$top/build/micro/tlbfloor
[ -x "$floor" ] || skip_all "build/micro/tlbfloor not built (make all)"

tlb='l1d:32,4way,lru,ps=4m;l2d:1536,12way,lru,ps=4m'
test_lazy_prereq SIMD '"$floor" simd random 1 512 1 1 >/dev/null 2>&1' 'tlbfloor simd needs x86-64 with SSE4.1'
for case in "rows random 1 512 3 1" "rows random 8 2048 2 5" "rows zipf 4 1024 4 2" "rows zipf 8 2048 2 9" \
	"simd random 1 512 3 1" "simd random 8 2048 2 5" "simd zipf 4 1024 4 2" "simd zipf 8 2048 2 9"; do
	# shellcheck disable=SC2086 # the case's fields
	set -- $case
	pre=""
	[ "$1" = rows ] || pre=SIMD
	test_expect_success $pre "tlbfloor $1 $2, $3 tasks x $4 pages x $5 rounds, seed $6: the model's misses" "
		\"\$floor\" $1 $2 $3 $4 $5 $6 >\"\$TMPD/floor.out\" &&
		run_sga sim --machine ultrasparc-t2 --tlb '$tlb' --cores 1 --strands $3 --tasks $3 \
			--page-size 4m --working-set $(($4 * 4))m --pattern $2 --rounds $5 --seed $6 --no-store --json &&
		test_is \"\$rc\" 0 &&
		read -r n m1 m2 _ <\"\$TMPD/floor.out\" &&
		test_is \"\$n\" \"\$(jq '.metrics[\"model-accesses\"]' \"\$TMPD/out\")\" &&
		test_is \"\$m1\" \"\$(jq '.totals[\"l1-dtlb-misses\"]' \"\$TMPD/out\")\" &&
		test_is \"\$m2\" \"\$(jq '.totals[\"l2-dtlb-misses\"]' \"\$TMPD/out\")\" &&
		test \"\$m2\" -gt 0 && test \"\$m1\" -gt \"\$m2\"
	"
done

# the streams alone: every task's pages read, nothing simulated
test_expect_success "tlbfloor stream: all accesses made, no misses claimed" '
	"$floor" stream zipf 3 1024 2 4 >"$TMPD/floor.out" &&
	read -r n m1 m2 _ <"$TMPD/floor.out" &&
	test_is "$n" 6144 && test_is "$m1" 0 && test_is "$m2" 0
'

test_expect_success "tlbfloor refuses a bad argument with exit 2" '
	rc=0; "$floor" rows random 0 512 1 1 2>"$TMPD/err" || rc=$?; test_is "$rc" 2 &&
	grep -q "tasks not 1..256" "$TMPD/err" &&
	rc=0; "$floor" rows nosuch 1 512 1 1 2>"$TMPD/err" || rc=$?; test_is "$rc" 2 &&
	rc=0; "$floor" rows random 1 500 1 1 2>"$TMPD/err" || rc=$?; test_is "$rc" 2 &&
	rc=0; "$floor" lists random 1 512 1 1 2>"$TMPD/err" || rc=$?; test_is "$rc" 2 &&
	grep -q "^usage" "$TMPD/err" &&
	rc=0; "$floor" rows random 1 2>"$TMPD/err" || rc=$?; test_is "$rc" 2 && grep -q "^usage" "$TMPD/err"
'

test_done
