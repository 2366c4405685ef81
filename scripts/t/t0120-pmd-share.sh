#!/bin/sh
# t0120: hugetlb page-table (PMD) sharing, measured for real. N tasks on a
# PUD-aligned 2 MiB SGA of G GiB, alive together: the first task faults all
# P pages, each later task faults once per GiB to adopt the shared PMD page,
# so the total is P + (N-1)*G. Offset by one huge page (--align pmd) nothing
# can be shared: N*P.
# VmPTE is not compared: the kernel accounts a shared PMD page to every mm
# that maps it (pgtables_bytes), so VmPTE does not show the physical saving;
# only the system-wide PageTables does, and that is too noisy to assert on.
# shellcheck source=scripts/t/tap.sh
. "$(dirname "$0")/tap.sh"

if ! need_hugepages 1024; then
	skip "PMD sharing" "needs root to reserve 1024 free 2 MiB hugepages"
	done_testing
	exit
fi
free_before=$(hp_free)
N=4
for backing in shm memfd; do
	run_sga run --tasks $N --sga-size 1g --page-size 2m --align pud --backing $backing \
		--measure first-touch --events page-faults --no-store --json
	is "$backing pud: run exits 0" "$rc" 0
	is "$backing pud: total faults = P + (N-1)*G = 512 + 3" "$(json '$.totals."page-faults"')" 515
	is "$backing pud: the first task faults all 512 pages" "$(json '$.tasks[0].events."page-faults".raw')" 512
	is "$backing pud: a later task faults once" "$(json '$.tasks[3].events."page-faults".raw')" 1
	is "$backing pud: first-touch-faults metric (getrusage) agrees" "$(json '$.metrics."first-touch-faults"')" 515
	run_sga run --tasks $N --sga-size 1g --page-size 2m --align pmd --backing $backing \
		--measure first-touch --events page-faults --no-store --json
	is "$backing pmd: run exits 0" "$rc" 0
	is "$backing pmd: total faults = N*P = 2048" "$(json '$.totals."page-faults"')" 2048
	is "$backing pmd: first-touch-faults metric agrees" "$(json '$.metrics."first-touch-faults"')" 2048
	is "$backing pmd: VmPTE recorded for every task" "$(sqlite3 :memory: "SELECT COUNT(*) FROM json_each(readfile('$TMPD/out'), '$.tasks') WHERE json_extract(value, '$.vmpte_kb') > 0")" $N
done

if need_hugepages 2048; then
	free_before=$(hp_free)
	run_sga run --tasks 3 --sga-size 2g --page-size 2m --align pud --measure first-touch \
		--events page-faults --no-store --json
	is "2 GiB pud: total = 1024 + (3-1)*2" "$(json '$.totals."page-faults"')" 1028
else
	skip "2 GiB pud" "cannot reserve 2048 hugepages"
fi
ok "hugepages are all free again after the runs ($(hp_free) >= $free_before)" test "$(hp_free)" -ge "$free_before"
done_testing
