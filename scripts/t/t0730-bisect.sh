#!/bin/sh
# t0730: scripts/bisect, the noise-aware oracle for git bisect run, on the
# TLB model, whose counts are exact (dtlb-walks: 64 with a 128-entry TLB,
# 256 with 16 entries for this cell), so nothing here depends on the
# machine's speed: good exits 0, bad 1, a timing that 3 runs a side cannot
# resolve 125, a usage error 130 (t0790 tests the error exits); a real
# 'git bisect run' over a temporary repository whose build shrinks the
# TLB at a known commit names that commit; and the walk
# over kernel variants (fixtures/kernels.sql) names the first changed one,
# measuring a missing variant with --measure.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
command -v git >/dev/null 2>&1 || skip_all "git not installed"
command -v sqlite3 >/dev/null 2>&1 || skip_all "sqlite3 not installed"
bisect=$top/scripts/bisect
sim="$SGABENCH sim --tasks 2 --rounds 4 --sga-size 64m --working-set 2m --page-size 64k --cores 1 --tag asid"
big="$sim --tlb dtlb:128,full,lru"
small="$sim --tlb dtlb:16,full,lru"

# oracle ARGS...: run scripts/bisect; its status in $rc, stdout in $TMPD/out
oracle() {
	rc=0
	"$bisect" "$@" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
}

test_expect_success 'the same TLB on both sides: good (0) after one exact run a side' - <<\EOT
	oracle --baseline-cmd "$big" --candidate-cmd "$big" --metric dtlb-walks &&
	test_is "$rc" 0 && grep -q "^good: 'dtlb-walks' no-change, ratio 1 (CI to 1)," "$TMPD/out" &&
	grep -q ", 1 + 1 runs$" "$TMPD/out"
EOT

test_expect_success 'a smaller TLB: bad (1), 4 times the walks' - <<\EOT
	oracle --baseline-cmd "$big" --candidate-cmd "$small" --metric dtlb-walks \
		--compare-args "--ignore-axis tlb" &&
	test_is "$rc" 1 && grep -q "^bad: 'dtlb-walks' regression, ratio 4," "$TMPD/out"
EOT

test_expect_success 'a larger TLB is an improvement: good (0)' - <<\EOT
	oracle --baseline-cmd "$small" --candidate-cmd "$big" --metric dtlb-walks \
		--compare-args "--ignore-axis tlb" &&
	test_is "$rc" 0 && grep -q "^good: 'dtlb-walks' improvement, ratio 0.25 (CI to " "$TMPD/out"
EOT

test_expect_success 'a clock metric that 3 runs a side cannot resolve: skip (125)' - <<\EOT
	# 3 against 3 runs cannot reach alpha 0.01 (Mann-Whitney's smallest p is 0.1), so the MDE stays infinite
	oracle --baseline-cmd "$big" --candidate-cmd "$big" --metric model-wall-s --threshold 0.001 \
		--min-runs 3 --max-runs 3 &&
	test_is "$rc" 125 && grep -q "^skip: after 3 runs a side the MDE (inf) or the CI's bad end (ratio [0-9.]*) reaches the threshold 0.001" "$TMPD/out"
EOT

test_expect_success 'stored baseline runs (--baseline SEL --db), the database left as it was' - <<\EOT
	SGABENCH_DB=$TMPD/base.db sh -c "$big --label good" >/dev/null 2>&1 &&
	before=$(sqlite3 "$TMPD/base.db" "SELECT COUNT(*) FROM run") &&
	oracle --baseline label:good --db "$TMPD/base.db" --candidate-cmd "$small" --metric dtlb-walks \
		--compare-args "--ignore-axis tlb" &&
	test_is "$rc" 1 &&
	test_is "$(sqlite3 "$TMPD/base.db" "SELECT COUNT(*) FROM run")" "$before"
EOT

test_expect_success 'a candidate command that fails: skip (125); usage errors: 130 (2 + 128)' - <<\EOT
	oracle --baseline-cmd "$big" --candidate-cmd "false" --metric dtlb-walks &&
	test_is "$rc" 125 && grep -q "candidate command failed" "$TMPD/err" &&
	oracle --candidate-cmd "$big" --metric dtlb-walks && test_is "$rc" 130 &&
	oracle --baseline-cmd "$big" --candidate-cmd "$big" && test_is "$rc" 130 &&
	oracle --baseline-cmd "$big" --candidate-cmd "$big" --metric m --threshold x && test_is "$rc" 130 &&
	oracle --baseline-cmd "$big" --candidate-cmd "$big" --metric m --min-runs 5 --max-runs 2 && test_is "$rc" 130
EOT

# A repository of 9 commits whose "build" writes the TLB size the
# candidate then simulates: 128 entries until commit 6 makes it 16.
test_expect_success 'git bisect run with the oracle names the commit that shrank the TLB' - <<\EOT
	repo=$TMPD/repo && mkdir "$repo" && (
		cd "$repo" && git init -q && git config user.email t@example.invalid && git config user.name t &&
		printf 'echo "${ENTRIES:-128}" >tlb.out\n' >build && git add build &&
		git commit -q -m "commit 1" &&
		for i in 2 3 4 5 6 7 8 9; do
			if [ "$i" = 6 ]; then printf 'echo 16 >tlb.out\n' >build; fi
			echo "$i" >n && git add n build && git commit -q -m "commit $i"
		done
		echo tlb.out >.gitignore
	) &&
	want=$(git -C "$repo" log --format=%H --grep='^commit 6$') &&
	(
		cd "$repo" && git bisect start HEAD "$(git log --format=%H --grep='^commit 1$')" >/dev/null &&
		git bisect run "$bisect" --baseline-cmd "$big" --compare-args "--ignore-axis tlb" --metric dtlb-walks \
			--candidate-cmd "sh ./build && $sim --tlb dtlb:\$(cat tlb.out),full,lru" >"$TMPD/bisect.log" 2>&1
	) &&
	grep -q "^$want is the first bad commit" "$TMPD/bisect.log" &&
	test_is "$(git -C "$repo" rev-parse refs/bisect/bad)" "$want" &&
	git -C "$repo" bisect reset >/dev/null 2>&1
EOT

test_expect_success 'the kernel walk names the first kernel whose runs changed' - <<\EOT
	"$SGABENCH" db init --db "$TMPD/k.db" >/dev/null && sqlite3 "$TMPD/k.db" <"$FIXTURES/kernels.sql" &&
	oracle --kernels "6.1.170-3 6.1.172-1 6.1.174-1 6.1.192-1 6.1.192-3 6.1.192-3-rt 6.12.107-1" \
		--machine lab-arm64 --metric startup-s --db "$TMPD/k.db" &&
	test_is "$rc" 1 &&
	grep -q "^first changed: 6.1.192-1 (after 6.1.174-1): 'startup-s' on lab-arm64, ratio to 6.1.170-3 1.3" "$TMPD/out"
EOT

test_expect_success 'the reference may be two boots of one kernel, V1|V1B' - <<\EOT
	oracle --kernels "6.1.170-3|6.1.172-1 6.1.174-1 6.1.192-1 6.1.192-3" \
		--machine lab-arm64 --metric startup-s --db "$TMPD/k.db" &&
	test_is "$rc" 1 && grep -q "^first changed: 6.1.192-1 (after 6.1.174-1)" "$TMPD/out"
EOT

test_expect_success 'no change along the kernels: 0' - <<\EOT
	oracle --kernels "6.1.170-3 6.1.172-1" --machine lab-arm64 --metric startup-s --db "$TMPD/k.db" &&
	test_is "$rc" 0 && grep -q "^no change of 'startup-s' from 6.1.170-3 to 6.1.172-1 on lab-arm64" "$TMPD/out"
EOT

# A stand-in for the lab (scripts/lab/kernels): 'measure.sh V' stores six
# runs of variant V copied from 6.1.192-3's (the slower level), logging V.
test_expect_success 'a variant without runs is measured with --measure VARIANT, only it' - <<\EOT
	cat >"$TMPD/measure.sh" <<-EOF &&
	echo "\$1" >>"$TMPD/measured"
	sqlite3 "$TMPD/k.db" "INSERT INTO run (uuid, machine_id, started_at, wall_s, version, backend, workload,
		tasks, page_size, align, backing, sharedctx, sga_bytes, working_set_bytes, rounds, seed, cell,
		label, config_json, status, machine_name, kernel_variant)
		SELECT uuid || '-' || '\$1', machine_id, started_at, wall_s, version, backend, workload, tasks,
		page_size, align, backing, sharedctx, sga_bytes, working_set_bytes, rounds, seed, cell, label,
		config_json, status, machine_name, '\$1' FROM run WHERE kernel_variant = '6.1.192-3';
		INSERT INTO metric (run_id, name, value) SELECT n.id, m.name, m.value FROM run n JOIN run o ON n.uuid = o.uuid || '-' || '\$1'
		JOIN metric m ON m.run_id = o.id"
	EOF
	oracle --kernels "6.1.170-3 6.1.172-1 6.1.174-1 6.1.190-1 6.1.192-1" --machine lab-arm64 \
		--metric startup-s --db "$TMPD/k.db" --measure "sh $TMPD/measure.sh" &&
	test_is "$rc" 1 && grep -q "^first changed: 6.1.190-1 (after 6.1.174-1)" "$TMPD/out" &&
	test_is "$(cat "$TMPD/measured")" "6.1.190-1"
EOT

test_expect_success 'a variant with no runs and no --measure: exit 3 with the reason' - <<\EOT
	oracle --kernels "6.1.170-3 6.1.199-9" --machine lab-arm64 --metric startup-s --db "$TMPD/k.db" &&
	test_is "$rc" 3 && grep -q "no runs of kernel:6.1.199-9 on machine 'lab-arm64'" "$TMPD/err"
EOT

test_done
