#!/bin/sh
# t0180: sgabench stats, the statistics the harness asks for instead of
# computing them in awk: medians (with min, max and n) per key, in the
# order keys first appear, and A/A noise floors (on the best runs for
# --one-sided-noise metrics); bad input is a usage error.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'median, min, max, n per key; keys in order of first appearance' - <<-\EOT
	printf 'b x\t5\na\t1\nb x\t1\na\t4\na\t2\nb x\t2\nb x\t10\n' | "$SGABENCH" stats median >"$TMPD/m" &&
	test_is "$(cat "$TMPD/m")" "$(printf 'b x\t3.5\t1\t10\t4\na\t2\t1\t4\t3')"
EOT
test_expect_success 'a key may have several tab-separated fields' - <<-\EOT
	test_is "$(printf 'l\tc\tm\t0.25\nl\tc\tm\t0.5\n' | "$SGABENCH" stats median)" "$(printf 'l\tc\tm\t0.375\t0.25\t0.5\t2')"
EOT
test_expect_success 'noise: equal samples have a floor of 0; fewer than 4 samples, none' - <<-\EOT
	test_is "$(printf 'c\tm\t7\nc\tm\t7\nc\tm\t7\nc\tm\t7\nd\tm\t1\n' | "$SGABENCH" stats noise --seed 3)" "$(printf 'c\tm\t0\t4')"
EOT
test_expect_success 'noise: two levels 10 % apart have a floor of 0.1' - <<-\EOT
	test_is "$(printf 'c\t100\nc\t100\nc\t110\nc\t110\n' | "$SGABENCH" stats noise --seed 7 --resamples 200)" "$(printf 'c\t0.1\t4')"
EOT
# Six runs at full speed and two slowed: halves of four hold at least two
# fast runs, so their 90th percentiles agree (floor 0), while their
# medians differ by a third when one half has both slow runs.
test_expect_success 'noise --one-sided-noise: the floor on the best runs' - <<-\EOT
	printf 'c\tm\t%s\n' 100 100 100 100 100 100 50 50 >"$TMPD/slow" &&
	test_is "$("$SGABENCH" stats noise --seed 3 <"$TMPD/slow")" "$(printf 'c\tm\t0.333333\t8')" &&
	test_is "$("$SGABENCH" stats noise --seed 3 --one-sided-noise m --higher-better m <"$TMPD/slow")" \
		"$(printf 'c\tm\t0\t8')" &&
	test_is "$("$SGABENCH" stats noise --seed 3 --one-sided-noise other,m <"$TMPD/slow")" "$(printf 'c\tm\t1\t8')" &&
	sed 's/\t50$/\t200/' "$TMPD/slow" >"$TMPD/slower" &&
	test_is "$("$SGABENCH" stats noise --seed 3 --one-sided-noise other,m <"$TMPD/slower")" "$(printf 'c\tm\t0\t8')"
EOT
test_expect_success 'a line that is not KEY<TAB>NUMBER: exit 2, naming the line' - <<-\EOT
	rc=0 &&
	{ printf 'a\t1\na 2\n' | "$SGABENCH" stats median >/dev/null 2>"$TMPD/err" || rc=$?; } &&
	test_is "$rc" 2 &&
	grep -q "line 2 of the input is not KEY<TAB>NUMBER" "$TMPD/err"
EOT
test_expect_success 'an unknown statistic: exit 2' - <<-\EOT
	run_sga stats mean </dev/null &&
	test_is "$rc" 2
EOT
test_done
