#!/bin/sh
# t0910: the include rule of README's "Layout" section holds for every C file.
#
# Every project include names its folder ("lib/log.h", "store/store.h"), so a
# file's folder and each include's folder give one edge of the dependency
# graph. Each folder may include only the folders listed for it below, and
# only the store may include <sqlite3.h>. Change this table and the README's
# table together.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
cd "$top" || exit 1

# folder: the folders its files may include (besides itself).
allowed() {
	case "$1" in
	lib) echo "" ;;
	workloads) echo "lib" ;;
	stats) echo "lib" ;;
	machine) echo "lib" ;;
	store) echo "lib machine" ;;
	model) echo "lib workloads machine" ;;
	native) echo "lib workloads machine kernel" ;;
	output) echo "lib machine store" ;;
	compare) echo "lib stats store machine output" ;;
	builtin|main|tests|micro) echo "*" ;;
	*) echo "?" ;;
	esac
}

# The folder a source file belongs to: bench/X/..., workloads/..., bench/main.c.
folder_of() {
	case "$1" in
	bench/main.c|bench/builtin.h) echo main ;;
	bench/*/*) f=${1#bench/}; echo "${f%%/*}" ;;
	workloads/*) echo workloads ;;
	*) echo "?" ;;
	esac
}

bad=0
files=$(git ls-files 'bench/*.[ch]' 'workloads/*.[ch]')
for f in $files; do
	from=$(folder_of "$f")
	rule=$(allowed "$from")
	if [ "$rule" = "?" ]; then
		echo "# $f: folder '$from' has no row in t0910's table"
		bad=$((bad + 1))
		continue
	fi
	# shellcheck disable=SC2013 # an include path is one word
	for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
		case "$inc" in
		tap.h) [ "$from" = tests ] && continue ;;
		*/*) ;;
		*) echo "# $f: include \"$inc\" does not name its folder"; bad=$((bad + 1)); continue ;;
		esac
		to=${inc%%/*}
		[ "$to" = "$from" ] && continue
		[ "$rule" = "*" ] && continue
		case " $rule " in
		*" $to "*) ;;
		*) echo "# $f ($from) includes $inc: $from may include only: ${rule:-nothing else}"
		   bad=$((bad + 1)) ;;
		esac
	done
done
test_expect_success "every include follows the layer table" 'test_is "$bad" 0'

sq=$(git grep -l '#include <sqlite3.h>' -- 'bench/*.[ch]' 'workloads/*.[ch]' |
	grep -v '^bench/store/' | grep -v '^bench/tests/' || true)
test_expect_success "only bench/store/ includes <sqlite3.h>" 'test_is "$sq" ""'

# The rule test must itself be able to fail: a planted bad include is caught.
planted=$(printf '#include "store/store.h"\n' | sed -n 's/^#include "\([^"]*\)".*/\1/p')
to=${planted%%/*}
case " $(allowed lib) " in *" $to "*) r=allowed ;; *) r=refused ;; esac
test_expect_success "lib including store/store.h is refused" 'test_is "$r" refused'
test_done
