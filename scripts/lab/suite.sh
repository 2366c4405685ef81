#!/bin/sh
# suite.sh - the lab suite, run by /init inside a lab guest (see
# scripts/lab/run) as root, with busybox as the only userland. Prints TAP.
# What it checks depends on the guest:
#   every guest   sysinfo, exact 4 KiB first-touch faults, PMD sharing
#   aarch64       the counter path against armv8_pmuv3 under -icount shift=0
#                 (scripts/lab/pmu.sh)
#   x86_64        placement and memory binding on 2 NUMA nodes with SMT
#                 siblings, verified from /proc (scripts/lab/topo.sh)
# Values are read from sgabench's --csv output with awk: the guest has no
# sqlite3.
# shellcheck source=scripts/t/tap.sh
. "$(dirname "$0")/../t/tap.sh"
# shellcheck source=scripts/lab/lib.sh
. "$top/scripts/lab/lib.sh"

arch=$(uname -m)

# --- sysinfo: the machine is named, and what cannot be known is said ---
run_sga sysinfo
is "sysinfo exits 0" "$rc" 0
cp "$TMPD/out" "$TMPD/sysinfo"
note_ "$(grep -E '^(fingerprint|arch|cpu |cpus|tlb|kernel|vm|core pmu)' "$TMPD/sysinfo")"
hostfp=$(sed -n 's/.*lab\.hostfp=\([^ ]*\).*/\1/p' /proc/cmdline)
fp=$(sed -n 's/^fingerprint *//p' "$TMPD/sysinfo")
ok "the fingerprint ($fp) differs from the host's ($hostfp)" \
	test -n "$fp" -a -n "$hostfp" -a "$fp" != "$hostfp"
ok "the kernel is Debian's 6.1" grep -q '^kernel  *6\.1\.0-' "$TMPD/sysinfo"
case "$arch" in
aarch64)
	ok "the core PMU is named: armv8_pmuv3" grep -q '^core pmu  *armv8_pmuv3' "$TMPD/sysinfo"
	ok "the kernel's PMU driver says how many counters it has" \
		sh -c 'dmesg | grep "hw perfevents: enabled with armv8_pmuv3 PMU driver, [0-9]* counters available"'
	ok "no TLB geometry on arm64, and sysinfo says so and why" \
		grep -q '^tlb  *unknown: arm64 has no CPUID' "$TMPD/sysinfo"
	run_sga run --tasks 1 --sga-size 4m --page-size 4k --events INST_RETIRED --no-store
	is "a libpfm4 event name on a CPU libpfm4 does not know: exit 3" "$rc" 3
	ok "with the reason" grep -q "unknown event 'INST_RETIRED'" "$TMPD/err"
	;;
x86_64)
	ok "TCG has no PMU, and sysinfo says so" \
		grep -q '^core pmu  *none (hardware counters are not available here)' "$TMPD/sysinfo"
	ok "the TLB geometry comes from CPUID" grep -q '^tlb source  *cpuid' "$TMPD/sysinfo"
	ok "2 NUMA nodes, 2 threads per core" grep -q '^cpus  *4 online, 2 threads per core, 2 NUMA nodes' "$TMPD/sysinfo"
	run_csv run --tasks 1 --sga-size 4m --page-size 4k --events cycles,instructions,page-faults
	is "without a PMU, cycles is missing as no-pmu, never 0" "$(csv 0 cycles missing) $(csv 0 cycles value)" "no-pmu "
	;;
esac

# --- 4 KiB shmem first touch: exactly one fault per page written ---
pages=4096	# 16 MiB / 4 KiB
for backing in shm memfd; do
	run_csv run --tasks 3 --sga-size 16m --page-size 4k --backing $backing \
		--measure first-touch --events page-faults,minor-faults
	is "4k $backing: first-touch run exits 0" "$rc" 0
	is "4k $backing: every task faults exactly once per page ($pages)" \
		"$(csv 0 page-faults raw) $(csv 1 page-faults raw) $(csv 2 page-faults raw)" "$pages $pages $pages"
	is "4k $backing: minor faults equal page faults" \
		"$(csv total minor-faults value)" "$(csv total page-faults value)"
done

# --- PMD sharing: P + (N-1)*G PUD-aligned, N*P PMD-aligned ---
if need_hugepages 1024; then
	for align in pud pmd; do
		run_csv run --tasks 4 --sga-size 1g --page-size 2m --align $align \
			--measure first-touch --events page-faults
		is "2m $align: run exits 0" "$rc" 0
		if [ $align = pud ]; then
			want="515 512 1"
		else
			want="2048 512 512"
		fi
		is "2m $align: total, first task, last task faults ($want)" \
			"$(csv total page-faults value) $(csv 0 page-faults raw) $(csv 3 page-faults raw)" "$want"
		is "2m $align: first-touch-faults (getrusage) agrees" "$(csv run first-touch-faults value)" \
			"${want%% *}"
	done
else
	skip "PMD sharing" "cannot reserve 1024 2 MiB hugepages in this guest"
fi

case "$arch" in
aarch64)
	# shellcheck source=scripts/lab/pmu.sh
	. "$top/scripts/lab/pmu.sh" ;;
x86_64)
	# shellcheck source=scripts/lab/topo.sh
	. "$top/scripts/lab/topo.sh" ;;
esac

ok "no SysV segment is left behind" test "$(shm_count)" -eq 0
done_testing
