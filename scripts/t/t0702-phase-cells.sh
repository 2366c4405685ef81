#!/bin/sh
# t0702: start-up and teardown are per-run metrics of the store, in cells
# that tell 4 KiB, 2 MiB PMD-aligned and 2 MiB PUD-aligned runs apart, so
# compare judges each phase per layout (issue 27: fork and attach at scale
# as a cell of the kernel suite). Two labels of one run per layout: compare
# pairs 3 cells x 2 metrics, one row each.
# Reserves hugepages: run it under flock /work/hugepool.lock on a shared host.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

need_hugepages 32 || skip_all "needs root to reserve 32 free 2 MiB hugepages"
db=$TMPD/p.db
fails=0
for l in A B; do
	for layout in "4k pud" "2m pmd" "2m pud"; do
		# shellcheck disable=SC2086 # two words: page size and alignment
		set -- $layout
		"$SGABENCH" run --tasks 4 --sga-size 64m --page-size "$1" --align "$2" --rounds 1 \
			--events page-faults --db "$db" --label $l --quiet || fails=$((fails + 1))
	done
done
test_expect_success "six runs stored" 'test_is "$fails" 0 && test_is "$(sqlite3 "$db" "SELECT COUNT(*) FROM run WHERE status = '"'ok'"'")" 6'
test_expect_success "three cells, one per layout" - <<-\EOT
	test_is "$(sqlite3 "$db" "SELECT COUNT(DISTINCT cell) FROM run")" 3 &&
	test_is "$(sqlite3 "$db" "SELECT group_concat(pa, ' ') FROM (SELECT DISTINCT page_size || '/' || align AS pa FROM run ORDER BY pa)")" "2m/pmd 2m/pud 4k/pud"
EOT
for m in startup-s teardown-detach-s teardown-exit-s teardown-remove-s teardown-s; do
	test_expect_success "every run stores $m, above 0" - <<-EOT
		test_is "\$(sqlite3 "\$db" "SELECT COUNT(*) FROM metric WHERE name = '$m' AND value > 0")" 6
	EOT
done
"$SGABENCH" compare --db "$db" --baseline label:A --candidate label:B --metric startup-s,teardown-s \
	--json >"$TMPD/out" 2>"$TMPD/err"
json '$.rows' >"$TMPD/rows"
test_expect_success "compare pairs each layout's cell for both phases: 6 rows" - <<-\EOT
	test_is "$(sqlite3 :memory: "SELECT COUNT(*) FROM json_each(readfile('$TMPD/rows'))")" 6
EOT
test_expect_success "with a row for teardown-s in the PUD-aligned 2 MiB cell" - <<-\EOT
	test_is "$(sqlite3 :memory: "SELECT COUNT(*) FROM json_each(readfile('$TMPD/rows')) WHERE json_extract(value, '$.metric') = 'teardown-s' AND json_extract(value, '$.cell') LIKE '%page=2m %align=pud%'")" 1
EOT
test_done
