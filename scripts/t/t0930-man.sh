#!/bin/sh
# t0930: the man pages build (make doc) and each page's OPTIONS are what
# the command's --help prints today: every option of --help is in the
# rendered page, so a page cannot fall behind an option table.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

test_lazy_prereq ASCIIDOCTOR 'command -v asciidoctor' "asciidoctor not installed (apt-get install asciidoctor)"
test_lazy_prereq MAN 'command -v man' "man not installed (apt-get install man-db)"
cd "$top" || exit 1
man_dir="$top/build/doc/man"

test_expect_success ASCIIDOCTOR 'make doc builds a page per command and script' '
	make --no-print-directory doc >"$TMPD/out" 2>&1 &&
	missing="" &&
	for p in sgabench.1 sgabench-sweep.1 sgabench-nightly.1 sgabench-bisect.1 sgabench-config.5 \
		sgabench-model.7 sgabench-statistics.7 sgabench-lab.7 sgabench-kernel.7; do
		test -s "$man_dir/$p" || missing="$missing $p"
	done &&
	for c in $("$SGABENCH" --help | awk "/^commands:/ { on = 1; next } on && /^  [a-z]/ { print \$1 }"); do
		test -s "$man_dir/sgabench-$c.1" || missing="$missing sgabench-$c.1"
	done &&
	test_is "$missing" ""
'

# opts_of CMD...: the option names (--name) that CMD --help lists.
opts_of() {
	"$@" --help | sed -n "s/^  \(-h, \)\{0,1\}\(--[a-z0-9-]*\).*/\2/p" | sort -u
}

# page_has PAGE CMD...: every option of CMD --help appears in PAGE; says
# which do not.
page_has() {
	page=$1
	shift
	MANWIDTH=200 man -l "$man_dir/$page" 2>/dev/null >"$TMPD/page" || return 1
	lacks=""
	for o in $(opts_of "$@"); do
		grep -qE "(^| )$o( |,|$)" "$TMPD/page" || lacks="$lacks $o"
	done
	[ -z "$lacks" ] || echo "$page lacks$lacks"
	[ -z "$lacks" ]
}

test_expect_success ASCIIDOCTOR,MAN 'every page lists every option its command has' '
	bad=0 &&
	for c in run sim table runs show compare history stats sysinfo workloads export; do
		page_has "sgabench-$c.1" "$SGABENCH" "$c" || bad=1
	done &&
	test_is "$bad" 0 &&
	page_has sgabench-db.1 "$SGABENCH" db query &&
	page_has sgabench-db.1 "$SGABENCH" db merge &&
	page_has sgabench-sweep.1 sh scripts/sweep &&
	page_has sgabench-nightly.1 sh scripts/nightly
	page_has sgabench-bisect.1 sh scripts/bisect
'

test_expect_success ASCIIDOCTOR,MAN 'sgabench-metrics(7) lists every metric of the registry' '
	"$SGABENCH" metrics --names >"$TMPD/names" &&
	test -s "$TMPD/names" &&
	MANWIDTH=200 man -l "$man_dir/sgabench-metrics.7" >"$TMPD/page" 2>/dev/null &&
	missing="" &&
	for m in $(cat "$TMPD/names"); do
		grep -q "^ *$m\$" "$TMPD/page" || missing="$missing $m"
	done &&
	test_is "$missing" ""
'

test_expect_success ASCIIDOCTOR,MAN 'the config page lists every default config_load sets' '
	missing="" &&
	MANWIDTH=200 man -l "$man_dir/sgabench-config.5" >"$TMPD/page" 2>/dev/null &&
	for v in $(sed -n "s/^	\(SWEEP_[A-Z_]*\)=.*/\1/p" scripts/config.sh | sort -u); do
		grep -q "$v" "$TMPD/page" || missing="$missing $v"
	done &&
	test_is "$missing" ""
'

test_expect_success ASCIIDOCTOR 'help2adoc escapes markup: the text reads as --help prints it' '
	printf "usage: sgabench x [A_B]\n\n  --a-b *X*                      a_b <= c [1]\n" >"$TMPD/h" &&
	sh Documentation/help2adoc options <"$TMPD/h" >"$TMPD/o.adoc" &&
	sh Documentation/help2adoc synopsis <"$TMPD/h" >"$TMPD/s.adoc" &&
	printf "= x(1)\n:doctype: manpage\n\n== NAME\n\nx - y\n\n== SYNOPSIS\n\ninclude::s.adoc[]\n\n== OPTIONS\n\ninclude::o.adoc[]\n" >"$TMPD/x.adoc" &&
	asciidoctor -b manpage -o "$TMPD/x.1" "$TMPD/x.adoc" &&
	MANWIDTH=200 man -l "$TMPD/x.1" >"$TMPD/x.txt" 2>/dev/null &&
	grep -q "sgabench x \[A_B\]" "$TMPD/x.txt" &&
	grep -q -- "--a-b \*X\*" "$TMPD/x.txt" &&
	grep -q "a_b <= c \[1\]" "$TMPD/x.txt"
'
test_expect_success ASCIIDOCTOR,MAN 'help CMD opens the page built beside the binary' '
	"$SGABENCH" help compare >"$TMPD/out" 2>&1 &&
	grep -q "^NAME" "$TMPD/out" && grep -q "sgabench-compare - " "$TMPD/out" &&
	"$SGABENCH" help config >"$TMPD/out" 2>&1 && grep -q "SGABENCH-CONFIG(5)" "$TMPD/out"
'

test_expect_success 'help CMD without man prints the --help' '
	mkdir -p "$TMPD/noman" &&
	PATH="$TMPD/noman" "$SGABENCH" help sysinfo >"$TMPD/out" 2>"$TMPD/err" &&
	grep -q "^usage: sgabench sysinfo" "$TMPD/out" &&
	test_is "$(cat "$TMPD/err")" "sgabench: no manual page sgabench-sysinfo (man is not installed) here: $(
		)its --help follows ('"'"'make doc'"'"' builds the pages from a checkout)"
'
test_expect_success 'a topic without man: a missing resource (exit 3), and where to read it' '
	mkdir -p "$TMPD/noman" &&
	rc=0 && PATH="$TMPD/noman" "$SGABENCH" help model 2>"$TMPD/err" || rc=$?
	test_is "$rc" 3 &&
	grep -q "^sgabench: error: help: man is not installed, so the manual page sgabench-model cannot be shown$" "$TMPD/err" &&
	grep -q "apt-get install man-db; or read Documentation/sgabench-model.adoc" "$TMPD/err"
'
test_expect_success MAN 'a topic whose page is not built: exit 3, make doc' '
	mkdir -p "$TMPD/bin" && cp "$SGABENCH" "$TMPD/bin/sgabench" &&
	rc=0 && MANPATH="$TMPD/none" "$TMPD/bin/sgabench" help statistics 2>"$TMPD/err" || rc=$?
	test_is "$rc" 3 && grep -q "manual page sgabench-statistics is not built here" "$TMPD/err" &&
	grep -q "make doc" "$TMPD/err"
'
test_expect_success 'the topics help knows are the pages of Documentation/ that are no command' '
	run_sga help no-such-thing &&
	sed -n "s/^hint: a topic is one of: \(.*\); .*/\1/p" "$TMPD/err" | tr -d " " | tr , "\n" >"$TMPD/topics" &&
	for f in "$top"/Documentation/sgabench-*.adoc; do
		n=${f##*/sgabench-} && n=${n%.adoc} &&
		{ "$SGABENCH" "$n" --help >/dev/null 2>&1 || echo "$n"; } || return 1
	done | sort >"$TMPD/pages" &&
	test -s "$TMPD/pages" && diff -u "$TMPD/pages" "$TMPD/topics"
'

test_expect_success 'help of no command or topic is a usage error' '
	run_sga help no-such-thing &&
	test_is "$rc" 2 && grep -q "no command or topic" "$TMPD/err"
'
test_done
