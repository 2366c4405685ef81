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
# scripts/lab/kernels: the kernel lab's front door, the same way.
kernels() {
	rc=0
	sh "$top/scripts/lab/kernels" "$@" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
}
kernels
test_expect_success "kernels: no variant is a usage error" - <<-\EOT
	test_is "$rc" 2
EOT
for v in 6.1 6.1.174 6.1.174-1-xen 6.1.174-1: "6.1.174-1:a b" "6.1.174-1:x;y"; do
	kernels --arch arm64 "$v"
	test_expect_success "kernels: variant '$v' is a usage error" - <<-\EOT
		test_is "$rc" 2
	EOT
	test_expect_success "that says what a variant is" - <<-\EOT
		grep -q "variant '.*': \(the version is not N.N.N-N\|boot parameter\)" "$TMPD/err"
	EOT
done
kernels --arch sparc64 6.1.174-1
test_expect_success "kernels: an unknown arch is a usage error" - <<-\EOT
	test_is "$rc" 2
EOT
kernels --jobs 0 6.1.174-1
test_expect_success "kernels: --jobs 0 is a usage error" - <<-\EOT
	test_is "$rc" 2
EOT
kernels --passes x 6.1.174-1
test_expect_success "kernels: --passes must be a number" - <<-\EOT
	test_is "$rc" 2
EOT
kernels --config ../nightly 6.1.174-1
test_expect_success "kernels: --config is a name under scripts/configs" - <<-\EOT
	test_is "$rc" 2
EOT
kernels --config nosuch 6.1.174-1
test_expect_success "kernels: an unknown config is a usage error" - <<-\EOT
	test_is "$rc" 2 && grep -q "no config 'nosuch'" "$TMPD/err"
EOT
kernels --help
test_expect_success "kernels: --help exits 0 with the usage" - <<-\EOT
	test_is "$rc" 0 && grep -q '^usage: scripts/lab/kernels' "$TMPD/out"
EOT
rc=0
sh "$top/scripts/lab/kernel-ab" --bogus >/dev/null 2>"$TMPD/err" || rc=$?
test_expect_success "kernel-ab: an unknown argument is a usage error" - <<-\EOT
	test_is "$rc" 2
EOT
# Both kernel configs load, and the kernel suite's cells are the cross
# product the docs promise: 4 layouts x 3 task counts x 2 CPU sets.
prog=t0700
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"
test_expect_success "configs/kernel: 24 cells" - <<-\EOT
	config_load "$top/scripts/configs/kernel" && test_is "$(config_cells | wc -l)" 24
EOT
test_expect_success "configs/kernel-ci: 3 cells x 6 passes" - <<-\EOT
	config_load "$top/scripts/configs/kernel-ci" && test_is "$(config_cells | wc -l) $SWEEP_PASSES" "3 6"
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
