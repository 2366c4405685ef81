#!/bin/sh
# t0436: adding a run metric is one row of bench/lib/metrics.h plus the
# code that computes it. In a copy of the tree, the test adds a row and
# one result_set_metric line to the native backend, builds, and checks
# that the new metric reaches the run's JSON and human output, 'sgabench
# metrics', compare's direction and the KCIDB export's unit, with no
# other edit, and that the report plots it. A build of the whole tree: about a minute on 2 CPUs.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

for tool in make cc jq; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "'$tool' not installed"
done
src=$TMPD/src
new=$src/bench/sgabench
db=$TMPD/a.db

test_expect_success "a copy of the tree gets one registry row and one line computing it" - <<-\EOT
	mkdir -p "$src" &&
	(cd "$top" && cp -R Makefile bench workloads kernel scripts report "$src/") &&
	rm -rf "$src/build" "$new" &&
	sed -i 's@^#define METRIC_ROWS(X) \\$@&\
	X(MET_ADDED_BY_T0436, "added-by-t0436", "B", DIR_HIGHER, KIND_COUNT, NOISE_BOTH, SCOPE_RUN, \\\
	  "B", PLOT_SCALING_PER_TASK | PLOT_HISTORY, \\\
	  "twice pte-bytes: a row t0436 adds") \\@' "$src/bench/lib/metrics.h" &&
	sed -i 's|^\([[:space:]]*\)result_set_metric(r, MET_PTE_BYTES, pte);$|&\
\1result_set_metric(r, MET_ADDED_BY_T0436, 2 * pte);|' "$src/bench/native/native.c" &&
	test_is "$(grep -c MET_ADDED_BY_T0436 "$src/bench/lib/metrics.h" "$src/bench/native/native.c" | cut -d: -f2 | paste -sd' ')" "1 1"
EOT
test_expect_success "it builds" - <<-\EOT
	make -C "$src" -j2 CFLAGS=-O0 bench/sgabench >"$TMPD/build.log" 2>&1 ||
		{ tail -n 20 "$TMPD/build.log" | sed 's/^/# /'; false; }
EOT
test_expect_success "a run stores it, computed: twice pte-bytes" - <<-\EOT
	"$new" run --db "$db" --tasks 1 --sga-size 8m --page-size 4k --rounds 5 --label a --json >"$TMPD/run.json" &&
	pte=$(jq '.metrics["pte-bytes"]' "$TMPD/run.json") &&
	test "$pte" -gt 0 &&
	test_is "$(jq '.metrics["added-by-t0436"]' "$TMPD/run.json")" "$((2 * pte))"
EOT
test_expect_success "the human output prints it with its meaning" - <<-\EOT
	"$new" show --db "$db" 1 | grep -q "^  added-by-t0436 .*twice pte-bytes: a row t0436 adds\$"
EOT
test_expect_success "sgabench metrics lists it, better higher" - <<-\EOT
	test_is "$("$new" metrics --json | jq -r '.metrics[] | select(.name == "added-by-t0436") | .direction')" higher
EOT
test_expect_success "compare judges it higher-is-better" - <<-\EOT
	"$new" run --db "$db" --tasks 1 --sga-size 8m --page-size 4k --rounds 5 --label b >/dev/null &&
	{ "$new" compare --db "$db" --baseline label:a --candidate label:b --metric added-by-t0436 --json \
		>"$TMPD/cmp.json" || true; } &&
	test_is "$(jq '[.rows[] | select(.metric == "added-by-t0436") | .higher_better] | unique' -c "$TMPD/cmp.json")" "[true]"
EOT
test_expect_success "the KCIDB export carries its unit" - <<-\EOT
	"$new" export kcidb --db "$db" --origin t0436 --output "$TMPD/k.json" &&
	test_is "$(jq -c '[.tests[] | select(.id | endswith(":added-by-t0436")) | .number.unit] | unique' "$TMPD/k.json")" '["B"]'
EOT
test_expect_success "the report plots it: per task in the scaling sweep, and over nights" - <<-\EOT
	(top=$src SGABENCH_BIN=$new prog=t0436
	. "$src/scripts/lib.sh" && . "$src/report/metrics.sh" &&
	case " $report_scaling_plots " in *" added-by-t0436:per-task "*) ;; *) exit 1 ;; esac &&
	case " $report_history_info " in *" added-by-t0436 "*) ;; *) exit 1 ;; esac)
EOT
test_done
