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

pq=$(git grep -l -e '#include <libpq-fe.h>' -e 'PQ[a-z][A-Za-z]*[[:space:]]*(' -- 'bench/*.[ch]' 'workloads/*.[ch]' |
	grep -v '^bench/store/' || true)
test_expect_success "only bench/store/ includes <libpq-fe.h> or calls libpq" 'test_is "$pq" ""'

# Only the store speaks SQL: no sqlite3_ call outside bench/store/. The C
# tests may open an SQLite file themselves, as an independent witness of
# what the store wrote.
calls=$(git grep -n 'sqlite3_[a-z_0-9]*[[:space:]]*(' -- 'bench/*.[ch]' 'workloads/*.[ch]' |
	grep -v '^bench/store/' | grep -v '^bench/tests/' || true)
[ -z "$calls" ] || printf '%s\n' "$calls" | sed 's/^/# /'
is "no sqlite3_ call outside bench/store/" "$(printf '%s' "$calls" | grep -c . || true)" 0

# The harness and the report never speak SQL: no sqlite3 CLI outside the
# tests (which may inspect a database as a witness) and the package lists.
cli=$(git grep -n -E '(^|[^a-z_-])sqlite3( |$)' -- scripts report ':!scripts/t' ':!scripts/deps' \
	':!report/synthetic.sql' || true)
[ -z "$cli" ] || printf '%s\n' "$cli" | sed 's/^/# /'
is "no sqlite3 command in scripts/ or report/" "$(printf '%s' "$cli" | grep -c . || true)" 0

# The rule test must itself be able to fail: a planted bad include is caught.
planted=$(printf '#include "store/store.h"\n' | sed -n 's/^#include "\([^"]*\)".*/\1/p')
to=${planted%%/*}
case " $(allowed lib) " in *" $to "*) r=allowed ;; *) r=refused ;; esac
test_expect_success "lib including store/store.h is refused" 'test_is "$r" refused'
test_done
