#!/bin/sh
# t0760: scripts/lab/kernels --boots, without booting anything: the option
# is checked (a usage error exits 2 with a reason), and --plan shows the
# guests it would boot: every variant N times on every arch, boot 1
# labelled kernel:V and boot K kernel:V/bootK (each label one session for
# compare, which selects a variant's runs of every boot by kernel:V), the
# first boot of every variant first, and a timeout that grows with the
# guests that share the host at once.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

kernels() {
	rc=0
	sh "$top/scripts/lab/kernels" "$@" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
}
for b in 0 x -1 1.5 ""; do
	kernels --boots "$b" --plan 6.1.174-1
	test_expect_success "--boots '$b' is a usage error" - <<-\EOT
		test_is "$rc" 2 && grep -q "\-\-boots '.*' is not a positive whole number" "$TMPD/err"
	EOT
done
kernels --plan 6.1.174-1 --boots
test_expect_success "--boots without a value is a usage error" - <<-\EOT
	test_is "$rc" 2 && grep -q -- "--boots needs a number" "$TMPD/err"
EOT
kernels --help
test_expect_success "--help documents --boots and --plan" - <<-\EOT
	test_is "$rc" 0 && grep -q -- "--boots N" "$TMPD/out" && grep -q -- "--plan" "$TMPD/out"
EOT

kernels --plan --config kernel-quick 6.1.174-1 6.1.176-1
test_expect_success "the default: two boots of each variant on both arches" - <<-\EOT
	test_is "$rc" 0 && test_is "$(grep -c ' kernel:' "$TMPD/out")" 8
EOT
test_expect_success "the default plan, in order" - <<-\EOT
	test_is "$(grep ' kernel:' "$TMPD/out" | tr '\n' ';')" \
"arm64 6.1.174-1 1 kernel:6.1.174-1;arm64 6.1.176-1 1 kernel:6.1.176-1;\
arm64 6.1.174-1 2 kernel:6.1.174-1/boot2;arm64 6.1.176-1 2 kernel:6.1.176-1/boot2;\
x86_64 6.1.174-1 1 kernel:6.1.174-1;x86_64 6.1.176-1 1 kernel:6.1.176-1;\
x86_64 6.1.174-1 2 kernel:6.1.174-1/boot2;x86_64 6.1.176-1 2 kernel:6.1.176-1/boot2;"
EOT
# kernel-quick: 4 cells x 5 passes = 20 runs a guest; the 30 s a run once
# for every 4 guests at once.
test_expect_success "8 guests at once: 300 + 30 x 20 x 2 s each" - <<-\EOT
	grep -q '^timeout 1500 s a guest, 8 at once, 20 runs each$' "$TMPD/out"
EOT
kernels --plan --config kernel-quick --boots 1 --arch arm64 6.1.174-1 6.1.176-1:page_poison=1
test_expect_success "--boots 1: one guest a variant, labelled kernel:V" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(grep ' kernel:' "$TMPD/out" | tr '\n' ';')" \
		"arm64 6.1.174-1 1 kernel:6.1.174-1;arm64 6.1.176-1:page_poison=1 1 kernel:6.1.176-1:page_poison=1;"
EOT
test_expect_success "2 guests at once: 300 + 30 x 20 s" - <<-\EOT
	grep -q '^timeout 900 s a guest, 2 at once, 20 runs each$' "$TMPD/out"
EOT
kernels --plan --config kernel-quick --boots 3 --arch x86_64 --jobs 4 --passes 2 6.12.117-1
test_expect_success "--boots 3: boots 1 to 3 of the variant" - <<-\EOT
	test_is "$rc" 0 &&
	test_is "$(grep ' kernel:' "$TMPD/out" | tr '\n' ';')" \
		"x86_64 6.12.117-1 1 kernel:6.12.117-1;x86_64 6.12.117-1 2 kernel:6.12.117-1/boot2;x86_64 6.12.117-1 3 kernel:6.12.117-1/boot3;"
EOT
test_expect_success "3 guests, 4 cells x 2 passes: 300 + 30 x 8 s" - <<-\EOT
	grep -q '^timeout 540 s a guest, 3 at once, 8 runs each$' "$TMPD/out"
EOT
kernels --plan --config kernel-quick --jobs 2 6.1.174-1 6.1.176-1 6.12.117-1
test_expect_success "--jobs caps the guests at once, and so the timeout" - <<-\EOT
	test_is "$rc" 0 && test_is "$(grep -c ' kernel:' "$TMPD/out")" 12 &&
	grep -q '^timeout 900 s a guest, 2 at once, 20 runs each$' "$TMPD/out"
EOT
rc=0
LAB_TIMEOUT=77 sh "$top/scripts/lab/kernels" --plan --config kernel-quick 6.1.174-1 >"$TMPD/out" 2>"$TMPD/err" || rc=$?
test_expect_success "LAB_TIMEOUT overrides the timeout" - <<-\EOT
	test_is "$rc" 0 && grep -q '^timeout 77 s a guest' "$TMPD/out"
EOT
# make lab-kernels passes BOOTS on, and leaves the default to the script.
test_expect_success "make lab-kernels BOOTS=3 passes --boots 3" - <<-\EOT
	make -s -n -C "$top" lab-kernels BOOTS=3 | grep -q -- "--boots 3 "
EOT
test_expect_success "make lab-kernels without BOOTS leaves the default to the script" - <<-\EOT
	! make -s -n -C "$top" lab-kernels | grep -q -- "--boots"
EOT
test_done
