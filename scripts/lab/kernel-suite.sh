#!/bin/sh
# kernel-suite.sh - the kernel suite inside a guest of scripts/lab/kernels:
# every cell of scripts/configs/kernel, in the config's seeded interleaved
# order, each run stored in an SQLite database in the guest's RAM. At the
# end the database goes to the console, gzipped and base64-encoded between
# "LAB DB BEGIN" and "LAB DB END"; the host decodes it and merges it. The
# guest has no hyperfine, jq or database server: busybox and sgabench.
#
# /lab/kernel.env (written by the host) sets SGABENCH_MACHINE (lab-ARCH,
# the same for every kernel, so the runs pair), SGABENCH_KERNEL_VARIANT
# (the variant string), LAB_LABEL (kernel:VARIANT), LAB_CONFIG (the
# config's name under scripts/configs) and, when set, LAB_PASSES (in
# place of the config's SWEEP_PASSES).
# Prints "LAB KERNEL release cmdline", "LAB PMU" lines (the core PMU
# and its events), "LAB RUN uuid seconds cell" for each stored run, then
# its "LAB MUX" lines (mux_lines below) (the guest's
# clock: virtual time under -icount) and "LAB FAIL rc cell" for
# each failed one; exit 0 when every run was stored, 1 otherwise, 3 when
# the guest cannot hold the config's hugepages.
# shellcheck disable=SC1091 # kernel.env is written by the host
top=$(cd "$(dirname "$0")/../.." && pwd)
prog=kernel-suite
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"
. /lab/kernel.env
export SGABENCH_MACHINE SGABENCH_KERNEL_VARIANT

config_load "$top/scripts/configs/$LAB_CONFIG" || exit 2
SWEEP_PASSES=${LAB_PASSES:-$SWEEP_PASSES}
echo "$SWEEP_HUGEPAGES" >/proc/sys/vm/nr_hugepages
if ! why=$(hugepages_short "the kernel suite" "$SWEEP_HUGEPAGES"); then
	error "$why"
	exit 3
fi
# layout=thp: shmem THP where asked for (MADV_HUGEPAGE); the kernel's
# default is never. Exact counts: no NUMA balancing hints.
t=/sys/kernel/mm/transparent_hugepage/shmem_enabled
[ ! -w "$t" ] || echo advise >"$t"
[ ! -w /proc/sys/kernel/numa_balancing ] || echo 0 >/proc/sys/kernel/numa_balancing
echo "LAB KERNEL $(uname -r) $(tr -d '\n' </proc/cmdline)"
# The core PMU as its driver announced it (counters) and the events it
# lists in sysfs, for the record (scripts/lab/mux reads them).
echo "LAB PMU $(dmesg | sed -n 's/.*hw perfevents: //p' | head -n 1)"
for d in /sys/bus/event_source/devices/*/events; do
	[ -d "$d" ] || continue
	case "$d" in */cpu/* | */armv8* | */armv7*) ;; *) continue ;; esac
	echo "LAB PMU EVENTS ${d%/events} $(cat "${d%/events}/perf_event_mux_interval_ms" 2>/dev/null) ms: $(cd "$d" && echo *)"
done

# mux_lines UUID <JSON: "LAB MUX UUID INTERVAL_MS EVENT ROTATIONS TRUST"
# for every event of the run's "multiplexing" object, as the run judged
# it, on the console, so the host reads the verdicts (scripts/lab/mux)
# without a database of the guest's schema. JSON as sgabench prints it,
# one member a line.
mux_lines() {
	awk -v u="$1" '
	function val(s) { sub(/^[^:]*: */, "", s); sub(/,$/, "", s); gsub(/"/, "", s); return s }
	/^  "multiplexing": \{/ { m = 1; next }
	!m { next }
	/^  \}/ { exit }
	/^    "interval_ms":/ { iv = val($0) }
	/^      "[^"]*": \{$/ { ev = $0; sub(/^ *"/, "", ev); sub(/": \{$/, "", ev); rot = "null" }
	/^        "rotations":/ { rot = val($0) }
	/^        "trust":/ { print "LAB MUX " u " " iv " " ev " " rot " " val($0) }'
}

db=/tmp/kernel.db
stored=0 failed=0
plan_order "$SWEEP_ORDER_SEED" >/tmp/plan
while IFS='	' read -r _ cell; do
	eval "set -- $(cell_args "$cell")"
	rc=0
	t0=$(cut -d' ' -f1 /proc/uptime)
	"$SGABENCH" run "$@" --seed "$SWEEP_RUN_SEED" --label "$LAB_LABEL" --db "$db" \
		--json </dev/null >/tmp/run.json 2>/tmp/run.err || rc=$?
	uuid=$(sed -n 's/^ *"uuid": *"\([0-9a-f-]*\)".*/\1/p' /tmp/run.json | head -n 1)
	if [ "$rc" -eq 0 ] && [ -n "$uuid" ]; then
		echo "LAB RUN $uuid $(awk -v a="$t0" '{ print $1 - a }' /proc/uptime) $cell"
		mux_lines "$uuid" </tmp/run.json
		stored=$((stored + 1))
	else
		echo "LAB FAIL $rc $cell: $(head -c 300 /tmp/run.err | tr '\n' ' ')"
		failed=$((failed + 1))
	fi
done </tmp/plan
echo "LAB RUNS $stored stored, $failed failed"
echo "LAB DB BEGIN"
gzip -c "$db" | base64
echo "LAB DB END"
[ "$failed" -eq 0 ]
