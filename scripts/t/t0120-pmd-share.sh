#!/bin/sh
# t0120: hugetlb page-table (PMD) sharing, measured for real. N tasks on a
# PUD-aligned 2 MiB SGA of G GiB, alive together: the first task faults all
# P pages, each later task faults once per GiB to adopt the shared PMD page,
# so the total is P + (N-1)*G. Offset by one huge page (--align pmd) nothing
# can be shared: N*P.
# VmPTE is not compared: the kernel accounts a shared PMD page to every mm
# that maps it (pgtables_bytes), so VmPTE does not show the physical saving;
# only the system-wide PageTables does, and that is too noisy to assert on.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

need_hugepages 1024 || skip_all "PMD sharing needs root to reserve 1024 free 2 MiB hugepages"
free_before=$(hp_free)
N=4
for backing in shm memfd; do
	run_sga run --tasks $N --sga-size 1g --page-size 2m --align pud --backing $backing \
		--measure first-touch --events page-faults --no-store --json
	test_expect_success "$backing pud: run exits 0" 'test_is "$rc" 0'
	test_expect_success "$backing pud: total faults = P + (N-1)*G = 512 + 3" - <<-\EOT
		test_is "$(json '$.totals."page-faults"')" 515
	EOT
	test_expect_success "$backing pud: the first task faults all 512 pages" - <<-\EOT
		test_is "$(json '$.tasks[0].events."page-faults".raw')" 512
	EOT
	test_expect_success "$backing pud: a later task faults once" - <<-\EOT
		test_is "$(json '$.tasks[3].events."page-faults".raw')" 1
	EOT
	test_expect_success "$backing pud: first-touch-faults metric (getrusage) agrees" - <<-\EOT
		test_is "$(json '$.metrics."first-touch-faults"')" 515
	EOT
	run_sga run --tasks $N --sga-size 1g --page-size 2m --align pmd --backing $backing \
		--measure first-touch --events page-faults --no-store --json
	test_expect_success "$backing pmd: run exits 0" 'test_is "$rc" 0'
	test_expect_success "$backing pmd: total faults = N*P = 2048" - <<-\EOT
		test_is "$(json '$.totals."page-faults"')" 2048
	EOT
	test_expect_success "$backing pmd: first-touch-faults metric agrees" - <<-\EOT
		test_is "$(json '$.metrics."first-touch-faults"')" 2048
	EOT
	test_expect_success "$backing pmd: VmPTE recorded for every task" - <<-\EOT
		test_is "$(sqlite3 :memory: "SELECT COUNT(*) FROM json_each(readfile('$TMPD/out'), '$.tasks') WHERE json_extract(value, '$.vmpte_kb') > 0")" $N
	EOT
done

test_prereq_if HUGEPAGES_2G "cannot reserve 2048 hugepages" need_hugepages 2048
test_expect_success HUGEPAGES_2G "2 GiB pud: total = 1024 + (3-1)*2" - <<-\EOT
	free_before=$(hp_free) &&
	run_sga run --tasks 3 --sga-size 2g --page-size 2m --align pud --measure first-touch \
		--events page-faults --no-store --json &&
	test_is "$(json '$.totals."page-faults"')" 1028
EOT
hp_alone HP_ALONE
test_expect_success HP_ALONE "hugepages are all free again after the runs ($(hp_free) >= $free_before)" 'test "$(hp_free)" -ge "$free_before"'
test_done
