#!/bin/sh
# t0940: make install into a DESTDIR gives a sgabench that works from any
# directory without the checkout: a 4k run (no hugepages), the model
# table, a smoke sweep into a temporary database through the installed
# sgabench-sweep (which finds its helpers relative to itself), the
# XDG default database, the man pages and the bash completion; and an
# install after make run (its report/out/ in the checkout) installs the
# same report files.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

test_lazy_prereq ASCIIDOCTOR 'command -v asciidoctor' "asciidoctor not installed (apt-get install asciidoctor)"
test_lazy_prereq MAN 'command -v man' "man not installed (apt-get install man-db)"
test_lazy_prereq BASH 'command -v bash' "bash not installed"
dest="$TMPD/dest"
bin="$dest/usr/local/bin"
# Nothing of the checkout may leak in: another directory, another home.
mkdir -p "$TMPD/elsewhere" "$TMPD/home"
HOME="$TMPD/home"
export HOME
unset XDG_DATA_HOME SGABENCH_BIN

test_expect_success 'make install DESTDIR=... installs the tree' '
	no_doc=1 &&
	if test_have_prereq ASCIIDOCTOR; then no_doc=; fi &&
	(cd "$top" && make --no-print-directory install DESTDIR="$dest" NO_DOC=$no_doc) >"$TMPD/out" 2>&1 &&
	for f in bin/sgabench bin/sgabench-sweep bin/sgabench-nightly bin/sgabench-bisect \
		libexec/sgabench/scripts/sweep libexec/sgabench/scripts/lib.sh \
		libexec/sgabench/scripts/config.sh \
		share/sgabench/configs/smoke share/sgabench/report/mkreport \
		share/bash-completion/completions/sgabench; do
		test -e "$dest/usr/local/$f" || echo "missing $f"
	done >"$TMPD/missing" &&
	test_is "$(cat "$TMPD/missing")" ""
'

# after make run the checkout holds the generated report (report/out/):
# install takes the report's sources alone, as from a clean checkout
test_expect_success 'make install beside a generated report/out installs the same report files' '
	made=
	if [ ! -e "$top/report/out" ]; then
		mkdir "$top/report/out" && : >"$top/report/out/index.html" && made=1
	fi &&
	rc=0 &&
	(cd "$top" && make --no-print-directory install-bin DESTDIR="$TMPD/dest2") >"$TMPD/out" 2>&1 || rc=$?
	[ -z "$made" ] || rm -rf "$top/report/out"
	test_is "$rc" 0 &&
	test ! -e "$TMPD/dest2/usr/local/share/sgabench/report/out" &&
	(cd "$dest/usr/local/share/sgabench/report" && ls) >"$TMPD/r1" &&
	(cd "$TMPD/dest2/usr/local/share/sgabench/report" && ls) >"$TMPD/r2" &&
	test_is "$(cat "$TMPD/r2")" "$(cat "$TMPD/r1")"
'

cd "$TMPD/elsewhere" || exit 1

test_expect_success 'the installed sgabench runs a 4k run from another directory' '
	"$bin/sgabench" run --no-store --page-size 4k --sga-size 16m --tasks 2 --json >"$TMPD/out" &&
	test_is "$(json "$.config.page_size")" 4k &&
	test_is "$(json "$.run_id")" ""
'

test_expect_success 'the installed sgabench reproduces the table (model)' '
	rc=0 && "$bin/sgabench" table --no-store >"$TMPD/out" 2>&1 || rc=$?
	test "$rc" -le 1 && grep -q "^verdict: " "$TMPD/out"
'

test_expect_success 'an installed run stores in $XDG_DATA_HOME/sgabench, else ~/.local/share' '
	"$bin/sgabench" run --page-size 4k --sga-size 4m --tasks 1 --quiet &&
	test -s "$HOME/.local/share/sgabench/sgabench.db" &&
	XDG_DATA_HOME="$TMPD/xdg" "$bin/sgabench" run --page-size 4k --sga-size 4m --tasks 1 --quiet &&
	test -s "$TMPD/xdg/sgabench/sgabench.db" &&
	test ! -e "$TMPD/elsewhere/results"
'

test_expect_success HYPERFINE,FLOCK 'the installed sgabench-sweep runs the smoke config' '
	"$bin/sgabench-sweep" --db "$TMPD/smoke.db" -q smoke >"$TMPD/out" 2>&1 &&
	grep -q "^sweep smoke" "$TMPD/out" &&
	test_is "$("$bin/sgabench" runs --db "$TMPD/smoke.db" --label "smoke-%" | grep -c " ok ")" 8
'

test_expect_success HYPERFINE,FLOCK 'the installed compare finds a shipped config by its name' '
	for c in smoke configs/smoke; do
		rc=0 && "$bin/sgabench" compare --db "$TMPD/smoke.db" --baseline label:smoke-% --candidate label:smoke-% \
			--config "$c" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
		! grep -q "cannot read" "$TMPD/err" || return 1
	done &&
	rc=0 && "$bin/sgabench" compare --db "$TMPD/smoke.db" --baseline label:smoke-% --candidate label:smoke-% \
		--config no-such-config 2>"$TMPD/err" || rc=$?
	test_is "$rc" 2 && grep -q "cannot read .no-such-config" "$TMPD/err"
'
test_expect_success 'the installed sgabench-bisect prints its help' '
	"$bin/sgabench-bisect" --help >"$TMPD/out" &&
	grep -q "^usage: scripts/bisect" "$TMPD/out"
'
test_expect_success 'the installed sgabench-nightly prints its help' '
	"$bin/sgabench-nightly" --help >"$TMPD/out" &&
	grep -q "^usage: scripts/nightly" "$TMPD/out"
'

test_expect_success ASCIIDOCTOR,MAN 'man -l reads an installed page; help finds it beside the binary' '
	man -l "$dest/usr/local/share/man/man1/sgabench-run.1" >"$TMPD/out" 2>/dev/null &&
	grep -q "sgabench-run - " "$TMPD/out" &&
	"$bin/sgabench" help table >"$TMPD/out" 2>/dev/null &&
	grep -q "sgabench-table - " "$TMPD/out"
'

test_expect_success BASH 'the completion offers commands and option values' '
	bash -c ". \"$dest/usr/local/share/bash-completion/completions/sgabench\" &&
		COMP_WORDS=(sgabench run --page-size \"\"); COMP_CWORD=3; _sgabench; echo \"\${COMPREPLY[*]}\"" >"$TMPD/out" &&
	grep -q "^4k 2m" "$TMPD/out"
'
test_done
