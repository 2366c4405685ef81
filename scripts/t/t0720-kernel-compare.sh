#!/bin/sh
# t0720: runs record their kernel variant (SGABENCH_KERNEL_VARIANT, else
# derived), and stored runs of several kernels (fixtures/kernels.sql: one
# machine name, a fingerprint per kernel) are compared and ordered across
# kernels: compare kernel:V1 against kernel:V2 on one machine name, and
# history --by kernel in Debian version order with its change point.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

command -v sqlite3 >/dev/null 2>&1 || skip_all "sqlite3 not installed"
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
db=$TMPD/k.db

test_expect_success 'a run records SGABENCH_KERNEL_VARIANT, shown by runs and show' - <<\EOT
	SGABENCH_KERNEL_VARIANT=6.12.117-1:transparent_hugepage=never \
		run_sga sim --tasks 2 --rounds 2 --db "$TMPD/rec.db" --json &&
	test_is "$rc" 0 &&
	test_is "$(jq -r .kernel_variant "$TMPD/out")" "6.12.117-1:transparent_hugepage=never" &&
	test_is "$(sqlite3 "$TMPD/rec.db" "SELECT kernel_variant FROM run")" \
		"6.12.117-1:transparent_hugepage=never" &&
	run_sga runs --db "$TMPD/rec.db" --json &&
	test_is "$(jq -r '.runs[0].kernel_variant' "$TMPD/out")" "6.12.117-1:transparent_hugepage=never" &&
	run_sga show 1 --db "$TMPD/rec.db" &&
	grep -q "^  kernel 6.12.117-1:transparent_hugepage=never$" "$TMPD/out"
EOT

test_expect_success 'without it, the variant is the Debian version of /proc/version, else uname -r' - <<\EOT
	run_sga sim --tasks 2 --rounds 2 --db "$TMPD/rec.db" &&
	test_is "$rc" 0 &&
	deb=$(sed -n 's/.* Debian \([0-9][^ (]*\).*/\1/p' /proc/version) &&
	fl=$(uname -r | sed -n 's/.*-\(rt\|cloud\)\(-.*\)*$/-\1/p') &&
	if [ -n "$deb" ]; then want=$deb$fl; else want=$(uname -r); fi &&
	test_is "$(sqlite3 "$TMPD/rec.db" "SELECT kernel_variant FROM run WHERE id = 2")" "$want"
EOT

test_expect_success 'a bad SGABENCH_KERNEL_VARIANT is warned about and derived instead' - <<\EOT
	SGABENCH_KERNEL_VARIANT="$(printf 'a\tb')" run_sga sim --tasks 2 --rounds 2 --db "$TMPD/rec.db" &&
	test_is "$rc" 0 && grep -q "SGABENCH_KERNEL_VARIANT is not a kernel variant" "$TMPD/err" &&
	test_is "$(sqlite3 "$TMPD/rec.db" "SELECT kernel_variant FROM run WHERE id = 3")" \
		"$(sqlite3 "$TMPD/rec.db" "SELECT kernel_variant FROM run WHERE id = 2")"
EOT

test_expect_success 'the fixture loads: 8 kernels of lab-arm64, 2 of lab-x86_64' - <<\EOT
	"$SGABENCH" db init --db "$db" >/dev/null &&
	sqlite3 "$db" <"$FIXTURES/kernels.sql" &&
	test_is "$(sqlite3 "$db" "SELECT COUNT(DISTINCT machine_id) FROM run WHERE machine_name = 'lab-arm64'")" 8
EOT

test_expect_success 'the KCIDB export carries the kernel variant of each run in misc' - <<\EOT
	run_sga export kcidb --origin t0720 --db "$db" &&
	test_is "$rc" 0 &&
	test_is "$(jq -r '[.tests[] | select(.misc.run_uuid == "kv-03-0") | .misc.kernel_variant] | unique | join(" ")' "$TMPD/out")" \
		"6.1.192-1"
EOT

test_expect_success 'compare kernel:V1 kernel:V2 pairs one machine across its fingerprints' - <<\EOT
	run_sga compare --db "$db" --machine lab-arm64 --baseline kernel:6.1.172-1 \
		--candidate kernel:6.1.192-1 --metric startup-s --json &&
	test_is "$rc" 1 &&
	test_is "$(jq -r '[.across_kernels, .baseline.kernel_variants[0], .candidate.kernel_variants[0],
		.rows[0].machine_name, .rows[0].n_base, .rows[0].n_cand, .rows[0].verdict] | join(" ")' "$TMPD/out")" \
		"true 6.1.172-1 6.1.192-1 lab-arm64 6 6 regression" &&
	jq -e '.rows[0].ratio > 1.29 and .rows[0].ratio < 1.31' "$TMPD/out" >/dev/null
EOT

test_expect_success 'the header names the kernels compared' - <<\EOT
	run_sga compare --db "$db" --machine lab-arm64 --baseline kernel:6.1.172-1 \
		--candidate kernel:6.1.192-1 --metric startup-s &&
	test_is "$rc" 1 &&
	grep -q "^kernels   6.1.172-1 (baseline) against 6.1.192-1 (candidate)" "$TMPD/out"
EOT

test_expect_success 'two kernels of one level: no regression (exit 0)' - <<\EOT
	run_sga compare --db "$db" --machine lab-arm64 --baseline kernel:6.1.170-3 \
		--candidate kernel:6.1.172-1 --metric startup-s --json &&
	test_is "$rc" 0 && test_is "$(jq -r '.rows[0].verdict' "$TMPD/out")" no-change
EOT

test_expect_success 'a run without a recorded variant, labelled kernel:V, is of kernel V' - <<\EOT
	run_sga compare --db "$db" --machine lab-arm64 --baseline kernel:6.1.174-1 \
		--candidate kernel:6.1.192-3-rt --metric startup-s --json &&
	test_is "$(jq -r '[.baseline.runs, .rows[0].n_base, .baseline.kernel_variants[0]] | join(" ")' "$TMPD/out")" \
		"6 6 6.1.174-1"
EOT

test_expect_success 'kernel:V1|V2 takes the runs of both, each boot its own session' - <<\EOT
	cp "$db" "$TMPD/boots.db" &&
	sqlite3 "$TMPD/boots.db" "UPDATE run SET label = 'kernel:' || kernel_variant WHERE kernel_variant IS NOT NULL" &&
	run_sga compare --db "$TMPD/boots.db" --machine lab-arm64 --baseline 'kernel:6.1.170-3' \
		--candidate kernel:6.1.192-1 --metric startup-s --json &&
	test_is "$(jq -r '[.rows[0].baseline_sessions, .rows[0].verdict] | join(" ")' "$TMPD/out")" "1 insufficient" &&
	run_sga compare --db "$TMPD/boots.db" --machine lab-arm64 --baseline 'kernel:6.1.170-3|6.1.172-1' \
		--candidate kernel:6.1.192-1 --metric startup-s --json &&
	test_is "$(jq -r '[.rows[0].n_base, .rows[0].baseline_sessions, .rows[0].verdict,
		(.baseline.kernel_variants | join(","))] | join(" ")' "$TMPD/out")" "12 2 regression 6.1.170-3,6.1.172-1"
EOT

test_expect_success 'a recorded variant comes before a label: labels name sessions' - <<\EOT
	cp "$db" "$TMPD/relabel.db" &&
	sqlite3 "$TMPD/relabel.db" "UPDATE run SET label = 'kernel:9.9.9-1' WHERE kernel_variant = '6.1.170-3'" &&
	run_sga compare --db "$TMPD/relabel.db" --machine lab-arm64 --baseline kernel:9.9.9-1 \
		--candidate kernel:6.1.192-1 --metric startup-s &&
	test_is "$rc" 3 &&
	run_sga compare --db "$TMPD/relabel.db" --machine lab-arm64 --baseline kernel:6.1.170-3 \
		--candidate kernel:6.1.192-1 --metric startup-s --json &&
	test_is "$(jq -r '.rows[0].n_base' "$TMPD/out")" 6
EOT

test_expect_success 'without --machine each machine is paired with itself by name' - <<\EOT
	run_sga compare --db "$db" --baseline kernel:6.1.170-3 --candidate kernel:6.1.192-3 \
		--metric startup-s --json &&
	test_is "$(jq -r '[.rows[] | .machine_name + ":" + .verdict] | join(" ")' "$TMPD/out")" \
		"lab-arm64:regression lab-x86_64:no-change"
EOT

test_expect_success 'labels across fingerprints pair only with --across-kernels' - <<\EOT
	run_sga compare --db "$db" --machine lab-arm64 --baseline label:kernel:6.1.174-1 \
		--candidate label:boot-a --metric startup-s &&
	test_is "$rc" 3 &&
	run_sga compare --db "$db" --machine lab-arm64 --baseline label:kernel:6.1.174-1 \
		--candidate label:boot-a --metric startup-s --across-kernels --json &&
	test_is "$(jq -r '[.rows[0].n_base, .rows[0].n_cand] | join(" ")' "$TMPD/out")" "6 22"
EOT

test_expect_success 'history --by kernel orders the kernels by Debian version, not by date' - <<\EOT
	run_sga history --db "$db" --by kernel --metric startup-s --machine lab-arm64 --json &&
	test_is "$rc" 0 &&
	test_is "$(jq -r '.series[0].points | map(.label) | join(" ")' "$TMPD/out")" \
		"6.1.170-3 6.1.172-1 6.1.174-1 6.1.192-1 6.1.192-3 6.1.192-3-rt 6.12.107-1 6.12.117-1:transparent_hugepage=never" &&
	test_is "$(jq -r '[.series[0].unit, .series[0].fingerprints, (.series[0].points | map(.runs) | add)] | join(" ")' "$TMPD/out")" \
		"kernel 8 48"
EOT

test_expect_success 'and finds the one change point, at the first slower kernel' - <<\EOT
	test_is "$(jq -r '.change_points | map(.machine_name + " " + .label) | join(",")' "$TMPD/out")" \
		"lab-arm64 6.1.192-1" &&
	jq -e '.change_points[0].change > 0.29 and .change_points[0].change < 0.31' "$TMPD/out" >/dev/null
EOT

test_expect_success 'the table shows it too, with the fingerprints it spans' - <<\EOT
	run_sga history --db "$db" --by kernel --metric startup-s --machine lab-arm64 &&
	grep -q "^machine lab-arm64 (8 fingerprints: its kernels)" "$TMPD/out" &&
	grep -q "change point on lab-arm64: 0.04.* -> 0.052.* (+30.0%)" "$TMPD/out" &&
	grep -q "^1 change point: #3 6.1.192-1" "$TMPD/out"
EOT

test_expect_success 'each machine name is its own series; the flat one has no change point' - <<\EOT
	run_sga history --db "$db" --by kernel --metric startup-s --json &&
	test_is "$(jq -r '[.series[] | .machine_name + ":" + (.points | length | tostring) + ":" +
		(.change_points | length | tostring)] | join(" ")' "$TMPD/out")" "lab-arm64:8:1 lab-x86_64:2:0"
EOT

test_expect_success '--kernel follows one line of kernels: the plain ones keep the step' - <<\EOT
	run_sga history --db "$db" --by kernel --kernel '6.1*-[0-9]' --metric startup-s --machine lab-arm64 --json &&
	test_is "$(jq -r '[(.series[0].points | map(.label) | join(" ")), (.change_points | map(.label) | join(" "))] | join(" / ")' "$TMPD/out")" \
		"6.1.170-3 6.1.172-1 6.1.174-1 6.1.192-1 6.1.192-3 6.12.107-1 / 6.1.192-1" &&
	run_sga history --db "$db" --by kernel --kernel '*-rt' --metric startup-s --json &&
	test_is "$(jq -r '[.series[] | .machine_name + ":" + (.points | map(.label) | join(","))] | join(" ")' "$TMPD/out")" \
		"lab-arm64:6.1.192-3-rt" &&
	run_sga history --db "$db" --by kernel --kernel 'none*' --metric startup-s &&
	test_is "$rc" 3 && grep -q "matching 'none\*'" "$TMPD/err"
EOT

test_expect_success 'bad --by, and --by kernel with --per-run: usage errors' - <<\EOT
	run_sga history --db "$db" --by moon --metric startup-s && test_is "$rc" 2 &&
	grep -q "date or kernel" "$TMPD/err" &&
	run_sga history --db "$db" --by kernel --per-run --metric startup-s && test_is "$rc" 2
EOT

test_expect_success 'no run of a known kernel: exit 3 with the reason' - <<\EOT
	run_sga history --db "$db" --by kernel --metric startup-s --cell 'nosuch*' &&
	test_is "$rc" 3 && grep -q "with a kernel variant" "$TMPD/err"
EOT

test_done
