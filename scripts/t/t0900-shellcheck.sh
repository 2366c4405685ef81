#!/bin/sh
# t0900: every POSIX sh script in the product is shellcheck-clean.
# shellcheck source=scripts/t/tap.sh
. "$(dirname "$0")/tap.sh"

if ! command -v shellcheck >/dev/null 2>&1; then
	skip "shellcheck" "not installed (apt-get install shellcheck)"
	done_testing
	exit
fi
cd "$top" || exit 1
for f in $(git ls-files scripts report kernel .ci 2>/dev/null); do
	[ -f "$f" ] || continue
	case "$(head -n 1 "$f")" in
	'#!/bin/sh'*) ;;
	*) case "$f" in *.sh) ;; *) continue ;; esac ;;
	esac
	ok "shellcheck $f" shellcheck -s sh -x "$f"
done
done_testing
