#!/bin/sh
# t0700: the counter lab's front door without booting anything: usage
# errors exit 2 with a reason, before any download or QEMU. (The lab
# itself runs with `make lab`; see Documentation/technical/lab.md.)
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

lab() {
	rc=0
	sh "$top/scripts/lab/run" "$@" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
}
lab --guest sparc64
test_expect_success "an unknown guest is a usage error" - <<-\EOT
	test_is "$rc" 2
EOT
test_expect_success "that names the guest" - <<-\EOT
	grep -q "unknown guest 'sparc64'" "$TMPD/err"
EOT
lab --bogus
test_expect_success "an unknown argument is a usage error" - <<-\EOT
	test_is "$rc" 2
EOT
lab --keep
test_expect_success "--keep without a directory is a usage error" - <<-\EOT
	test_is "$rc" 2
EOT
rc=0
LAB_TIMEOUT=soon sh "$top/scripts/lab/run" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
test_expect_success "LAB_TIMEOUT must be a number" - <<-\EOT
	test_is "$rc" 2
EOT
lab --help
test_expect_success "--help exits 0" - <<-\EOT
	test_is "$rc" 0
EOT
test_expect_success "and prints the usage" - <<-\EOT
	grep -q '^usage: scripts/lab/run' "$TMPD/out"
EOT
rc=0
sh "$top/scripts/deps" nothing >/dev/null 2>"$TMPD/err" || rc=$?
test_expect_success "scripts/deps: an unknown target is a usage error" - <<-\EOT
	test_is "$rc" 2
EOT
test_expect_success "that lists lab among the targets" - <<-\EOT
	grep -q 'kernel|lab' "$TMPD/err"
EOT
done_testing
