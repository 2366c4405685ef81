#!/bin/sh
# t0550: scripts/main-job (what 'make run' runs) on a tiny config: the
# table, the sweep, the report, the closing table + five-line summary +
# report path; as root it grows the hugepage pool and puts it back, also
# when it is killed.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

pool=/sys/kernel/mm/hugepages/hugepages-2048kB
root=0
[ "$(id -u)" -eq 0 ] && [ -w "$pool/nr_hugepages" ] && root=1
# POOL: root, with a 2 MiB pool it may grow (main-job must reserve and restore)
[ "$root" -eq 1 ] && test_set_prereq POOL
avail() { echo $(($(cat "$pool/free_hugepages") - $(cat "$pool/resv_hugepages"))); }
cfg="$TMPD/tiny"
sed '/^SWEEP_HUGEPAGES=/d' "$top/scripts/configs/smoke" >"$cfg"
# As root, ask for more hugepages than are free, so main-job must reserve.
[ "$root" -eq 1 ] && echo "SWEEP_HUGEPAGES=$(($(avail) + 4))" >>"$cfg"
before=$(cat "$pool/nr_hugepages")
rc=0
"$top/scripts/main-job" --db "$TMPD/m.db" --out "$TMPD/out" --config "$cfg" >"$TMPD/stdout" 2>"$TMPD/stderr" || rc=$?
test_expect_success "main-job exits 0" 'test_is "$rc" 0'
test_expect_success "it printed the cover-letter table" 'grep -q "^  1000000 |" "$TMPD/stdout"'
test_expect_success "it printed a five-line summary" 'test_is "$(sed -n "/^== summary ==$/,/^$/p" "$TMPD/stdout" | grep -c -v -e "^== summary" -e "^$")" 5'
test_expect_success "and the report's path" 'grep -qx "report: $TMPD/out/index.html" "$TMPD/stdout"'
test_expect_success "the report exists" 'test -s "$TMPD/out/index.html"'
test_expect_success "the summary says the sweep completed, all its planned runs stored" - <<-\EOT
	sed -n "/^== summary ==$/,/^$/p" "$TMPD/stdout" | grep -q "; sweep [a-z-]*: complete: \([0-9]*\) of \1 planned runs stored$"
EOT
test_expect_success "the report states the verdict of the stored table's JSON" - <<-\EOT
	j="$TMPD/out/data/table.json" &&
	test_is "$(jq -r .command "$j")" table &&
	v=$(jq -r 'if .reproduced then "reproduced" else "NOT reproduced: failed: " end' "$j") &&
	grep -qF "cover-letter table (sgabench table): $v" "$TMPD/stdout" &&
	grep -qF "$v" "$TMPD/out/summary.md"
EOT
test_expect_success "progress: the steps" 'grep -q "step 3/4: the SGA scaling sweep" "$TMPD/stderr"'
test_expect_success "progress: cells and time left" - <<-\EOT
	grep -q 'sweep: \[2/4\] .* after this, ~' "$TMPD/stderr"
EOT
test_expect_success "the model table and the sweep went to one database" 'test_is "$(sqlite3 "$TMPD/m.db" "SELECT COUNT(DISTINCT backend) FROM run")" 2'
test_expect_success POOL "it reserved hugepages" 'grep -q "hugepages: 2m pool: .* pages" "$TMPD/stderr"'
test_expect_success POOL "and put the pool back" 'test_is "$(cat "$pool/nr_hugepages")" "$before"'
# Killed mid-sweep (SIGTERM to its process group, as Ctrl-C would).
test_expect_success POOL "killed mid-sweep: it stopped with a signal status" - <<-\EOT
	sed -i "s/^SWEEP_HUGEPAGES=.*/SWEEP_HUGEPAGES=$(($(avail) + 4))/" "$cfg"
	before=$(cat "$pool/nr_hugepages")
	setsid "$top/scripts/main-job" --db "$TMPD/k.db" --out "$TMPD/kout" --config "$cfg" >/dev/null 2>"$TMPD/kerr" &
	pid=$!
	second_run() { grep -q 'sweep: \[2/' "$TMPD/kerr" 2>/dev/null; }
	wait_until second_run
	kill -TERM "-$pid"
	krc=0
	wait "$pid" || krc=$?
	echo "main-job killed: status $krc"
	test "$krc" -ge 128
EOT
test_expect_success POOL "and put the pool back" 'test_is "$(cat "$pool/nr_hugepages")" "$before"'
test_done
