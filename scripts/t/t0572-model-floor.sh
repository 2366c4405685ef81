#!/bin/sh
# t0572: build/micro/tlbfloor, the minimal loop that make bench sets beside
# the model's rate (scripts/bench-model, section 9), simulates what the
# model simulates: its L1 and L2 misses equal sim's on the run it stands
# for (tasks as strands of one core, in turn, two LRU levels of 8x4 and
# 128x12 sets and ways), for random and zipf streams and several task
# counts. Without that its rate would be of another job. It is also a
# second, separately written simulator of those levels.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

floor=$top/build/micro/tlbfloor
[ -x "$floor" ] || skip_all "build/micro/tlbfloor not built (make all)"

tlb='l1d:32,4way,lru,ps=4m;l2d:1536,12way,lru,ps=4m'
for case in "random 1 512 3 1" "random 8 2048 2 5" "zipf 4 1024 4 2" "zipf 8 2048 2 9"; do
	# shellcheck disable=SC2086 # the case's fields
	set -- $case
	test_expect_success "tlbfloor $1, $2 tasks x $3 pages x $4 rounds, seed $5: the model's misses" "
		\"\$floor\" $1 $2 $3 $4 $5 >\"\$TMPD/floor.out\" &&
		run_sga sim --machine ultrasparc-t2 --tlb '$tlb' --cores 1 --strands $2 --tasks $2 \
			--page-size 4m --working-set $(($3 * 4))m --pattern $1 --rounds $4 --seed $5 --no-store --json &&
		test_is \"\$rc\" 0 &&
		read -r n m1 m2 _ <\"\$TMPD/floor.out\" &&
		test_is \"\$n\" \"\$(jq '.metrics[\"model-accesses\"]' \"\$TMPD/out\")\" &&
		test_is \"\$m1\" \"\$(jq '.totals[\"l1-dtlb-misses\"]' \"\$TMPD/out\")\" &&
		test_is \"\$m2\" \"\$(jq '.totals[\"l2-dtlb-misses\"]' \"\$TMPD/out\")\" &&
		test \"\$m2\" -gt 0 && test \"\$m1\" -gt \"\$m2\"
	"
done

test_expect_success "tlbfloor refuses a bad argument with exit 2" '
	rc=0; "$floor" random 0 512 1 1 2>"$TMPD/err" || rc=$?; test_is "$rc" 2 &&
	grep -q "tasks not 1..256" "$TMPD/err" &&
	rc=0; "$floor" nosuch 1 512 1 1 2>"$TMPD/err" || rc=$?; test_is "$rc" 2 &&
	rc=0; "$floor" random 1 500 1 1 2>"$TMPD/err" || rc=$?; test_is "$rc" 2 &&
	rc=0; "$floor" random 1 2>"$TMPD/err" || rc=$?; test_is "$rc" 2 && grep -q "^usage" "$TMPD/err"
'

test_done
