#!/bin/sh
# t0791: history --by kernel tells a pulse, one kernel variant that
# differs from both neighbours (6.1.176-1 slower, 6.1.177-1 fixed it),
# which the change-point search cannot split out. fixtures/kernels-pulse.sql
# gives each variant a fixed +-0.5 % pattern, so the sizes follow from the
# fixture: on lab-pulse 6.1.176-1's six runs average 0.0448 (1 + 0.0025/6)
# and 6.1.174-1's 0.040 exactly, +12.0467 %; 6.1.177-1's average 0.040 (1 -
# 0.0025/6), -10.7887 % from the pulse. lab-flat has no pulse; lab-one's
# pulse is a single run, too few to tell (insufficient, no p). Date-ordered
# history is unchanged: it reports no pulses; and scripts/bisect's kernel
# walk, a bisection, steps over a pulse, as its help says.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
command -v sqlite3 >/dev/null 2>&1 || skip_all "sqlite3 not installed"
db=$TMPD/p.db

test_expect_success 'the fixture loads' - <<\EOT
	"$SGABENCH" db init --db "$db" >/dev/null && sqlite3 "$db" <"$FIXTURES/kernels-pulse.sql"
EOT

test_expect_success 'a one-variant pulse: found, at its variant, with its size and how sure' - <<\EOT
	run_sga history --db "$db" --by kernel --metric startup-s --machine lab-pulse --json &&
	test_is "$rc" 0 &&
	test_is "$(jq -r '.pulses | map([.machine_name, .label, .verdict, .previous, .next, .runs,
		.variants_tested] | map(tostring) | join(" ")) | join(",")' "$TMPD/out")" \
		"lab-pulse 6.1.176-1 regression 6.1.174-1 6.1.177-1 6 5" &&
	test_is "$(jq -r '.pulses[0] | [.change, .change_next] | map(. * 1e6 | round) | join(" ")' "$TMPD/out")" \
		"120467 -107887" &&
	jq -e '.pulses[0] | .p_holm < 0.001 and .p_holm >= .p and .p_holm <= 5 * .p' "$TMPD/out" >/dev/null &&
	test_is "$(jq -r '.series[0].pulses | length' "$TMPD/out")" 1 &&
	test_is "$(jq -r '.method.pulse_min_runs' "$TMPD/out")" 3
EOT

test_expect_success 'the table says which variant, by how much, and the one that fixed it' - <<\EOT
	run_sga history --db "$db" --by kernel --metric startup-s --machine lab-pulse &&
	grep -q "^    3  6.1.176-1 .*  pulse$" "$TMPD/out" &&
	grep -q "^1 pulse:$" "$TMPD/out" &&
	grep -q "^  #3 6.1.176-1: regression, +12.0% from 6.1.174-1 (0.04 -> 0.0448187), fixed in 6.1.177-1 (-10.8%, 0.0399833); p [0-9.e-]*, Holm over 5 variants; 6, 6 and 6 runs$" "$TMPD/out"
EOT

test_expect_success 'a series without a pulse: no pulse and no change point' - <<\EOT
	run_sga history --db "$db" --by kernel --metric startup-s --machine lab-flat --json &&
	test_is "$(jq -r '[(.pulses | length), (.change_points | length)] | join(" ")' "$TMPD/out")" "0 0" &&
	run_sga history --db "$db" --by kernel --metric startup-s --machine lab-flat &&
	grep -q "^0 pulses$" "$TMPD/out" && ! grep -q "insufficient\|pulse?" "$TMPD/out"
EOT

test_expect_success 'a pulse of a single run: insufficient, not a change' - <<\EOT
	run_sga history --db "$db" --by kernel --metric startup-s --machine lab-one --json &&
	test_is "$(jq -r '.pulses | map([.label, .verdict, .runs, .p, .p_holm] | map(tostring) | join(" ")) | join(",")' "$TMPD/out")" \
		"6.1.176-1 insufficient 1 null null" &&
	test_is "$(jq -r '.change_points | length' "$TMPD/out")" 0 &&
	run_sga history --db "$db" --by kernel --metric startup-s --machine lab-one &&
	grep -q "^0 pulses$" "$TMPD/out" &&
	grep -q "^  #3 6.1.176-1: insufficient, +12.3% from 6.1.174-1 and -11.0% to 6.1.177-1, but 6, 1 and 6 runs (3 a variant are needed)$" "$TMPD/out"
EOT

test_expect_success 'every series in one call, each machine its own; date order reports no pulses' - <<\EOT
	run_sga history --db "$db" --by kernel --metric startup-s --json &&
	test_is "$(jq -r '[.series[] | .machine_name + ":" + (.pulses | map(.verdict) | join("+"))] | join(" ")' "$TMPD/out")" \
		"lab-flat: lab-one:insufficient lab-pulse:regression" &&
	run_sga history --db "$db" --metric startup-s --json &&
	test_is "$(jq -r '[has("pulses"), (.series | map(has("pulses")) | any)] | map(tostring) | join(" ")' "$TMPD/out")" \
		"false false"
EOT

test_expect_success 'the kernel walk, a bisection, steps over the pulse: history is what finds it' - <<\EOT
	rc=0 && "$top/scripts/bisect" -q --kernels "6.1.170-3 6.1.172-1 6.1.174-1 6.1.176-1 6.1.177-1 6.1.180-1 6.1.187-1" \
		--machine lab-pulse --metric startup-s --db "$db" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
	test_is "$rc" 0 && grep -q "^no change of 'startup-s' from 6.1.170-3 to 6.1.187-1 on lab-pulse" "$TMPD/out"
EOT

test_done
