#!/bin/sh
# t0700: the counter lab's front door without booting anything: usage
# errors exit 2 with a reason, before any download or QEMU. (The lab
# itself runs with `make lab`; see README, "The counter lab".)
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

lab() {
	rc=0
	sh "$top/scripts/lab/run" "$@" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
}
lab --guest sparc64
is "an unknown guest is a usage error" "$rc" 2
ok "that names the guest" grep -q "unknown guest 'sparc64'" "$TMPD/err"
lab --bogus
is "an unknown argument is a usage error" "$rc" 2
lab --keep
is "--keep without a directory is a usage error" "$rc" 2
rc=0
LAB_TIMEOUT=soon sh "$top/scripts/lab/run" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
is "LAB_TIMEOUT must be a number" "$rc" 2
lab --help
is "--help exits 0" "$rc" 0
ok "and prints the usage" grep -q '^usage: scripts/lab/run' "$TMPD/out"
rc=0
sh "$top/scripts/deps" nothing >/dev/null 2>"$TMPD/err" || rc=$?
is "scripts/deps: an unknown target is a usage error" "$rc" 2
ok "that lists lab among the targets" grep -q 'kernel|lab' "$TMPD/err"
done_testing
