#!/bin/sh
# t0110: physics of first touch on a 4 KiB shmem SGA. Each task writes one
# word in every page, so each process takes exactly one fault per page (a
# shared write fault maps one page; reads would fault around 16 at once).
# Threads share one mm, so together they fault each page once.
# shellcheck source=scripts/t/tap.sh
. "$(dirname "$0")/tap.sh"

pages=4096	# 16 MiB / 4 KiB
for backing in shm memfd file; do
	run_sga run --tasks 3 --sga-size 16m --page-size 4k --backing $backing \
		--measure first-touch --events page-faults,minor-faults --no-store --json
	is "$backing: first-touch run exits 0" "$rc" 0
	for t in 0 1 2; do
		is "$backing: task $t page-faults = pages touched ($pages)" \
			"$(json "\$.tasks[$t].events.\"page-faults\".raw")" "$pages"
	done
	is "$backing: minor faults equal page faults (no major faults on shmem)" \
		"$(json '$.totals."minor-faults"')" "$(json '$.totals."page-faults"')"
	is "$backing: accesses in the window = pages" "$(json '$.tasks[0].accesses')" "$pages"
done

run_sga run --tasks 4 --threads --sga-size 16m --page-size 4k --measure first-touch \
	--events page-faults --no-store --json
is "threads: run exits 0" "$rc" 0
is "threads: one mm faults each page once in all ($pages)" \
	"$(json '$.totals."page-faults"')" "$pages"

run_sga run --tasks 2 --sga-size 16m --page-size 4k --mem-node 0 --measure first-touch \
	--events page-faults --no-store --json
is "--mem-node 0: bound, prefaulted in the creator and checked in numa_maps; the run succeeds" "$rc" 0
is "--mem-node 0: each task still faults every page into its own page tables" \
	"$(json '$.tasks[1].events."page-faults".raw')" "$pages"

run_sga run --tasks 2 --sga-size 16m --page-size 4k --working-set 4m --measure first-touch \
	--events page-faults --no-store --json
is "working set: faults follow the pages touched (1024), not the SGA" \
	"$(json '$.tasks[1].events."page-faults".raw')" 1024

run_sga run --tasks 1 --sga-size 16m --page-size 4k --stride 16k --measure first-touch \
	--events page-faults --no-store --json
is "stride 16k: one access and one fault per 16 KiB (1024)" "$(json '$.tasks[0].events."page-faults".raw') $(json '$.tasks[0].accesses')" "1024 1024"

run_sga run --tasks 2 --sga-size 16m --page-size 4k --rounds 5 --events page-faults \
	--no-store --json
is "window: no faults once the pages are touched" "$(json '$.totals."page-faults"')" 0
is "window: accesses = rounds x pages" "$(json '$.tasks[1].accesses')" $((5 * pages))
is "window: first-touch faults (getrusage) are still recorded exactly: 2 x " "$(json '$.metrics."first-touch-faults"')" $((2 * pages))
done_testing
