#!/bin/sh
# t0435: the metric registry (bench/lib/metrics.h): 'sgabench metrics'
# lists every row of it, and the KCIDB export of real runs (native with
# windows, native plain, model) carries the registry's unit for every
# metric those runs stored. 4 KiB pages only: no hugepages needed.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "'jq' not installed"

# The rows as the source declares them: X(MET_..., "name", ...).
sed -n 's/^[[:space:]]*X(MET_[A-Z_]*, "\([^"]*\)".*/\1/p' "$top/bench/lib/metrics.h" >"$TMPD/source"

test_expect_success "the source declares rows" '
	test "$(wc -l <"$TMPD/source")" -gt 10
'
test_expect_success "metrics --json: exit 0, the envelope, every row in order" '
	"$SGABENCH" metrics --json >"$TMPD/m.json" &&
	test_is "$(jq -r .command "$TMPD/m.json")" metrics &&
	test_is "$(jq -r .tool "$TMPD/m.json")" sgabench &&
	jq -r ".metrics[].name" "$TMPD/m.json" >"$TMPD/json-names" &&
	diff -u "$TMPD/source" "$TMPD/json-names"
'
test_expect_success "every row has each field, with a value the registry allows" '
	test_is "$(jq "[.metrics[] | select((.direction | IN(\"higher\", \"lower\", \"neither\")) and
		(.kind | IN(\"count\", \"time\", \"rate\", \"derived\", \"estimate\")) and (.noise | IN(\"both\", \"one-way\")) and
		(.scope | IN(\"run\", \"load\", \"system\")) and
		(.unit | type == \"string\") and (.kcidb_unit | length > 0) and (.meaning | length > 0) and
		(.plot | type == \"array\"))] | length" "$TMPD/m.json")" "$(wc -l <"$TMPD/source")"
'
test_expect_success "metrics --names: the same rows" '
	"$SGABENCH" metrics --names >"$TMPD/names" &&
	diff -u "$TMPD/source" "$TMPD/names"
'
test_expect_success "--where direction=higher: the rows the JSON says are better higher" '
	"$SGABENCH" metrics --names --where direction=higher >"$TMPD/higher" &&
	jq -r ".metrics[] | select(.direction == \"higher\") | .name" "$TMPD/m.json" >"$TMPD/want" &&
	test -s "$TMPD/want" && diff -u "$TMPD/want" "$TMPD/higher"
'
test_expect_success "--where plot=history: the rows the history plots" '
	"$SGABENCH" metrics --names --where plot=history >"$TMPD/hist" &&
	jq -r ".metrics[] | select(.plot | index(\"history\")) | .name" "$TMPD/m.json" >"$TMPD/want" &&
	test -s "$TMPD/want" && diff -u "$TMPD/want" "$TMPD/hist"
'
test_expect_success "--where A=x,B=y: the rows that meet both" '
	"$SGABENCH" metrics --names --where scope=run,plot=history >"$TMPD/both" &&
	jq -r ".metrics[] | select(.scope == \"run\" and (.plot | index(\"history\"))) | .name" \
		"$TMPD/m.json" >"$TMPD/want" &&
	test -s "$TMPD/want" && diff -u "$TMPD/want" "$TMPD/both"
'
test_expect_success "a wall-clock metric is never plotted over nights" '
	test_is "$("$SGABENCH" metrics --names --where scope=load,plot=history)" ""
'
test_expect_success "--where with a condition that is not FIELD=VALUE: usage error (2)" '
	run_sga metrics --where scope=run,plot &&
	test_is "$rc" 2
'
test_expect_success "--where with an unknown field: usage error (2)" '
	run_sga metrics --where colour=red &&
	test_is "$rc" 2
'

db=$TMPD/k.db
test_expect_success "three real runs: windowed, plain, model" '
	"$SGABENCH" run --db "$db" --tasks 2 --sga-size 8m --page-size 4k --rounds 20 --windows 3 \
		--label reg >/dev/null &&
	"$SGABENCH" run --db "$db" --tasks 1 --sga-size 8m --page-size 4k --rounds 20 --label reg >/dev/null &&
	"$SGABENCH" sim --db "$db" --tasks 2 --rounds 2 --label reg >/dev/null
'
test_expect_success "the export: exit 0" '
	"$SGABENCH" export kcidb --db "$db" --origin reg_test --output "$TMPD/k.json"
'
# Every stored metric of every run, as "UUID:NAME" (from show, not the export).
test_expect_success "the runs stored windowed, plain and model metrics" '
	for n in 1 2 3; do
		"$SGABENCH" show --db "$db" "$n" --json >"$TMPD/show.$n" || return 1
		jq -r ".uuid as \$u | .metrics | keys[] | \"\(\$u):\(.)\"" "$TMPD/show.$n" || return 1
	done | sort >"$TMPD/stored" &&
	grep -q ":accesses-per-s-spread\$" "$TMPD/stored" &&
	grep -q ":first-touch-faults\$" "$TMPD/stored" &&
	grep -q ":model-wall-s\$" "$TMPD/stored"
'
test_expect_success "every stored metric is a test of the export" '
	jq -r ".tests[] | .id | sub(\"^reg_test:\"; \"\")" "$TMPD/k.json" | sort >"$TMPD/tests" &&
	test_is "$(comm -23 "$TMPD/stored" "$TMPD/tests" | wc -l)" 0
'
test_expect_success "each carries the registry's KCIDB unit" '
	jq -r --slurpfile m "$TMPD/m.json" "
		(\$m[0].metrics | map({(.name): .kcidb_unit}) | add) as \$unit |
		.tests[] | select(.number) | (.id | split(\":\") | .[-1]) as \$n |
		select(\$unit[\$n]) | select(.number.unit != \$unit[\$n]) | \"\(\$n) \(.number.unit)\"
	" "$TMPD/k.json" >"$TMPD/wrong" &&
	diff -u /dev/null "$TMPD/wrong" &&
	test_is "$(jq "[.tests[] | select(.number) | select(.id | endswith(\":accesses-per-cpu-s\"))
		| .number.unit] | unique" -c "$TMPD/k.json")" "[\"accesses/s\"]"
'
test_expect_success "an event total's unit is what it counts (faults); task-clock is in ns" '
	test_is "$(jq -c "[.tests[] | select(.number) | select(.id | endswith(\":task-clock\")) | .number.unit] | unique" \
		"$TMPD/k.json")" "[\"ns\"]" &&
	test_is "$(jq -c "[.tests[] | select(.number) | select(.id | endswith(\":minor-faults\")) | .number.unit] | unique" \
		"$TMPD/k.json")" "[\"faults\"]"
'
test_done
