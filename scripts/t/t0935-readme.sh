#!/bin/sh
# t0935: the README is for users: at most 300 lines, no timestamps or
# dated measurements (those live in Documentation/validation/), every
# sgabench command it shows exists, and the cheap ones (no hugepages, no
# database: --no-store, sysinfo, workloads, sim --machine list) run as
# written, from the checkout, with status 0. The man pages carry no
# build date either.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
cd "$top" || exit 1

# The README's code-block lines, one a line, comments cut.
code_lines() {
	awk '/^```/ { in_code = !in_code; next } in_code' README.md | sed 's/ *#.*//'
}

test_expect_success 'the README is at most 300 lines' '
	test "$(wc -l <README.md)" -le 300
'

test_expect_success 'the README carries no timestamp or dated measurement' '
	test_is "$(grep -cE "[0-9]{2}:[0-9]{2} UTC|(January|February|March|April|May|June|July|August|September|October|November|December) 20[0-9]{2}" README.md)" 0
'

test_expect_success 'every sgabench command the README shows exists' '
	code_lines | sed -n "s/^\(bench\/\)\{0,1\}sgabench \([a-z][a-z-]*\).*/\2/p" | sort -u >"$TMPD/cmds" &&
	bad="" &&
	for c in $(cat "$TMPD/cmds"); do
		"$SGABENCH" "$c" --help >/dev/null 2>&1 || bad="$bad $c"
	done &&
	test_is "$bad" "" &&
	for s in $(code_lines | sed -n "s/^\(scripts\/[a-z][a-z-]*\) .*/\1/p" | sort -u); do
		test -f "$s" || bad="$bad $s"
	done &&
	test_is "$bad" ""
'

test_expect_success 'the cheap commands run as written' '
	code_lines | grep -E "^bench/sgabench (.*--no-store|sysinfo|workloads|sim --machine list)" >"$TMPD/cheap" &&
	test "$(wc -l <"$TMPD/cheap")" -ge 5 &&
	failed="" &&
	while IFS= read -r cmd; do
		# exit 1 is the answer of table when the model does not reproduce the
		# paper (it says so), not a command that failed to run
		rc=0 && SGABENCH_DB="$TMPD/none.db" eval "$cmd" >"$TMPD/out" 2>&1 </dev/null || rc=$?
		if [ "$rc" -ne 0 ] && ! { [ "$rc" -eq 1 ] && grep -q "^verdict: NOT reproduced" "$TMPD/out"; }; then
			failed="$failed; $cmd"
		fi
	done <"$TMPD/cheap" &&
	test_is "$failed" "" &&
	test ! -e "$TMPD/none.db"
'

test_lazy_prereq ASCIIDOCTOR 'command -v asciidoctor' "asciidoctor not installed (apt-get install asciidoctor)"
test_expect_success ASCIIDOCTOR 'the man pages carry no build date' '
	make --no-print-directory doc >"$TMPD/out" 2>&1 &&
	test_is "$(grep -l "20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]" build/doc/man/* | wc -l)" 0
'
test_done
