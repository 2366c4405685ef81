#!/bin/sh
# t0550: scripts/main-job (what 'make run' runs) on a tiny config: the
# table, the sweep, the report, the closing table + five-line summary +
# report path; as root it grows the hugepage pool and puts it back, also
# when it is killed.
# shellcheck source=scripts/t/tap.sh
. "$(dirname "$0")/tap.sh"

if ! "$SGABENCH" run --help >/dev/null 2>&1 || ! "$SGABENCH" table --help >/dev/null 2>&1; then
	skip "main-job" "'sgabench run' or 'sgabench table' does not work yet"
	done_testing
	exit
fi
pool=/sys/kernel/mm/hugepages/hugepages-2048kB
root=0
[ "$(id -u)" -eq 0 ] && [ -w "$pool/nr_hugepages" ] && root=1
avail() { echo $(($(cat "$pool/free_hugepages") - $(cat "$pool/resv_hugepages"))); }
cfg="$TMPD/tiny"
sed '/^SWEEP_HUGEPAGES=/d' "$top/scripts/configs/smoke" >"$cfg"
# As root, ask for more hugepages than are free, so main-job must reserve.
[ "$root" -eq 1 ] && echo "SWEEP_HUGEPAGES=$(($(avail) + 4))" >>"$cfg"
before=$(cat "$pool/nr_hugepages")
rc=0
"$top/scripts/main-job" --db "$TMPD/m.db" --out "$TMPD/out" --config "$cfg" >"$TMPD/stdout" 2>"$TMPD/stderr" || rc=$?
is "main-job exits 0" "$rc" 0
ok "it printed the cover-letter table" grep -q '^  1000000 |' "$TMPD/stdout"
is "it printed a five-line summary" "$(sed -n '/^== summary ==$/,/^$/p' "$TMPD/stdout" | grep -c -v -e '^== summary' -e '^$')" 5
ok "and the report's path" grep -qx "report: $TMPD/out/index.html" "$TMPD/stdout"
ok "the report exists" test -s "$TMPD/out/index.html"
ok "progress: the steps" grep -q 'step 3/4: the SGA scaling sweep' "$TMPD/stderr"
ok "progress: cells and time left" grep -q 'sweep: \[2/4\] .* after this, ~' "$TMPD/stderr"
is "the model table and the sweep went to one database" "$(sqlite3 "$TMPD/m.db" "SELECT COUNT(DISTINCT backend) FROM run")" 2
if [ "$root" -eq 1 ]; then
	ok "it reserved hugepages" grep -q 'hugepages: 2m pool: .* pages' "$TMPD/stderr"
	is "and put the pool back" "$(cat "$pool/nr_hugepages")" "$before"
	# Killed mid-sweep (SIGTERM to its process group, as Ctrl-C would).
	sed -i "s/^SWEEP_HUGEPAGES=.*/SWEEP_HUGEPAGES=$(($(avail) + 4))/" "$cfg"
	before=$(cat "$pool/nr_hugepages")
	setsid "$top/scripts/main-job" --db "$TMPD/k.db" --out "$TMPD/kout" --config "$cfg" >/dev/null 2>"$TMPD/kerr" &
	pid=$!
	n=0
	while ! grep -q 'sweep: \[2/' "$TMPD/kerr" 2>/dev/null && [ "$n" -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	kill -TERM "-$pid"
	rc=0
	wait "$pid" || rc=$?
	ok "killed mid-sweep: it stopped with a signal status ($rc)" test "$rc" -ge 128
	is "and put the pool back" "$(cat "$pool/nr_hugepages")" "$before"
else
	skip "hugepage reservation" "needs root"
fi
done_testing
