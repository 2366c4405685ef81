#!/bin/sh
# t0900: every POSIX sh script in the product is shellcheck-clean.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

test_have_prereq SHELLCHECK || skip_all "shellcheck: $test_missing_"
cd "$top" || exit 1
for f in $(git ls-files scripts report kernel .ci Documentation debian 2>/dev/null); do
	[ -f "$f" ] || continue
	case "$(head -n 1 "$f")" in
	'#!/bin/sh'*) ;;
	*) case "$f" in *.sh) ;; *) continue ;; esac ;;
	esac
	test_expect_success "shellcheck $f" 'shellcheck -s sh -x "$f"'
done
test_done
