#!/bin/sh
# t0110: physics of first touch on a 4 KiB shmem SGA. Each task writes one
# word in every page, so each process takes exactly one fault per page (a
# shared write fault maps one page; reads would fault around 16 at once).
# Threads share one mm, so together they fault each page once.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

pages=4096	# 16 MiB / 4 KiB
for backing in shm memfd file; do
	run_sga run --tasks 3 --sga-size 16m --page-size 4k --backing $backing \
		--measure first-touch --events page-faults,minor-faults --no-store --json
	test_expect_success "$backing: first-touch run exits 0" 'test_is "$rc" 0'
	for t in 0 1 2; do
		test_expect_success "$backing: task $t page-faults = pages touched ($pages)" - <<-\EOT
			test_is \
			"$(json "\$.tasks[$t].events.\"page-faults\".raw")" "$pages"
		EOT
	done
	test_expect_success "$backing: minor faults equal page faults (no major faults on shmem)" - <<-\EOT
		test_is \
		"$(json '$.totals."minor-faults"')" "$(json '$.totals."page-faults"')"
	EOT
	test_expect_success "$backing: accesses in the window = pages" 'test_is "$(json "$.tasks[0].accesses")" "$pages"'
done

run_sga run --tasks 4 --threads --sga-size 16m --page-size 4k --measure first-touch \
	--events page-faults --no-store --json
test_expect_success "threads: run exits 0" 'test_is "$rc" 0'
test_expect_success "threads: one mm faults each page once in all ($pages)" - <<-\EOT
	test_is \
	"$(json '$.totals."page-faults"')" "$pages"
EOT

run_sga run --tasks 2 --sga-size 16m --page-size 4k --mem-node 0 --measure first-touch \
	--events page-faults --no-store --json
test_expect_success "--mem-node 0: bound, prefaulted in the creator and checked in numa_maps; the run succeeds" 'test_is "$rc" 0'
test_expect_success "--mem-node 0: each task still faults every page into its own page tables" - <<-\EOT
	test_is \
	"$(json '$.tasks[1].events."page-faults".raw')" "$pages"
EOT

run_sga run --tasks 2 --sga-size 16m --page-size 4k --working-set 4m --measure first-touch \
	--events page-faults --no-store --json
test_expect_success "working set: faults follow the pages touched (1024), not the SGA" - <<-\EOT
	test_is \
	"$(json '$.tasks[1].events."page-faults".raw')" 1024
EOT

run_sga run --tasks 1 --sga-size 16m --page-size 4k --stride 16k --measure first-touch \
	--events page-faults --no-store --json
test_expect_success "stride 16k: one access and one fault per 16 KiB (1024)" - <<-\EOT
	test_is "$(json '$.tasks[0].events."page-faults".raw') $(json '$.tasks[0].accesses')" "1024 1024"
EOT

run_sga run --tasks 2 --sga-size 16m --page-size 4k --rounds 5 --events page-faults \
	--no-store --json
test_expect_success "window: no faults once the pages are touched" - <<-\EOT
	test_is "$(json '$.totals."page-faults"')" 0
EOT
test_expect_success "window: accesses = rounds x pages" 'test_is "$(json "$.tasks[1].accesses")" $((5 * pages))'
test_expect_success "window: first-touch faults (getrusage) are still recorded exactly: 2 x " - <<-\EOT
	test_is "$(json '$.metrics."first-touch-faults"')" $((2 * pages))
EOT
test_done
