#!/bin/sh
# t0115: physics of the SGA's own page tables. sga-pte-bytes is VmPTE at the
# end of the window minus VmPTE just before first touch, summed over the
# tasks' mms. At 16 TiB (0x100000000000: free and alone in its 512 GiB on
# x86-64 and on arm64 with 48-bit addresses, where the PIE binary and the
# mmap area sit far higher), first touch allocates, in every mm, one PUD
# table, one PMD table and, for 4 KiB pages, one PTE table per 2 MiB
# touched: nothing else, 4 KiB each. A shared hugetlb PMD page is charged
# to every mm that maps it (see t0120), so 2 MiB pages give 2 tables per
# task however they share.
# The whole-process pte-bytes is not asserted: with ASLR it moves by a few
# page-table pages from run to run (72-88 KiB for one task, 3 December 2026).
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

case $(uname -m) in
x86_64|aarch64) test_set_prereq VA48 ;;
esac
at=0x100000000000

# pt_run ARGS: a one-window run at $at; sets rc and $TMPD/out (JSON)
pt_run() {
	run_sga run --address $at --sga-size 64m --rounds 1 --windows 1 --stride 4k \
		--events page-faults --no-store --json "$@"
}

pt_run --tasks 1 --page-size 4k --working-set 32k
test_expect_success VA48 "4k, 8 pages, 1 task: runs" 'test_is "$rc" 0'
test_expect_success VA48 "4k, 8 pages: PUD + PMD + 1 PTE table = 12288 bytes" - <<-\EOT
	test_is "$(json '$.metrics."sga-pte-bytes"')" 12288
EOT
test_expect_success VA48 "4k, 8 pages: and 8 first-touch faults" 'test_is "$(json "$.metrics.\"first-touch-faults\"")" 8'

pt_run --tasks 3 --page-size 4k --working-set 4m
test_expect_success VA48 "4k, 4 MiB, 3 tasks: runs" 'test_is "$rc" 0'
test_expect_success VA48 "4k, 4 MiB, 3 tasks: 3 x (PUD + PMD + 2 PTE tables) = 49152 bytes" - <<-\EOT
	test_is "$(json '$.metrics."sga-pte-bytes"')" 49152
EOT

pt_run --tasks 4 --threads --page-size 4k --working-set 4m
test_expect_success VA48 "4k, 4 MiB, 4 threads: runs" 'test_is "$rc" 0'
test_expect_success VA48 "4k, 4 MiB, 4 threads: one mm, so 4 tables in all = 16384 bytes" - <<-\EOT
	test_is "$(json '$.metrics."sga-pte-bytes"')" 16384
EOT

[ "$(getconf PAGESIZE)" = 4096 ] && need_hugepages 32 && test_set_prereq POOL
pt_run --tasks 3 --page-size 2m --working-set 4m
test_expect_success VA48,POOL "2m, 4 MiB, 3 tasks: runs" 'test_is "$rc" 0'
test_expect_success VA48,POOL "2m, 4 MiB, 3 tasks: 3 x (PUD + PMD) = 24576 bytes, no PTE table" - <<-\EOT
	test_is "$(json '$.metrics."sga-pte-bytes"')" 24576
EOT

pt_run --tasks 1 --page-size 4k --working-set 32k --verbose
test_expect_success VA48 "--verbose names the SGA's address on stderr" 'grep -q "sga: .*at 0x100000000000\$" "$TMPD/err"'
run_sga run --verbose --quiet --no-store
test_expect_success "--verbose and --quiet exclude each other: exit 2" 'test_is "$rc" 2 && grep -q "exclude each other" "$TMPD/err"'

run_sga run --sga-size 64m --page-size 4k --working-set 32k --rounds 1 --windows 1 \
	--stride 4k --events page-faults --no-store --json
test_expect_success "at a chosen address the metric is there, a whole number of 4 KiB tables" - <<-\EOT
	v=$(json '$.metrics."sga-pte-bytes"')
	test "$rc" -eq 0 && test "${v%.*}" -ge 8192 && test $(( ${v%.*} % 4096 )) -eq 0
EOT
test_done
