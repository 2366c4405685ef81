# topo.sh - placement and memory binding on the x86_64 guest: 2 sockets,
# each one core with 2 SMT threads and its own NUMA node (CPUs 0-1 on node
# 0, 2-3 on node 1). Each check is made from /proc while the tasks run: the
# CPU each task is on (field 39 of /proc/PID/stat) and where the SGA's pages
# are (/proc/PID/numa_maps); never from sgabench's own report.
# Sourced by scripts/lab/suite.sh in the x86_64 guest.
# shellcheck shell=sh
# shellcheck disable=SC2154 # rc, TMPD, top and SGABENCH come from scripts/t/test-lib.sh

node1=$(cat /sys/devices/system/node/node1/cpulist 2>/dev/null || echo none)
note_ "node 1 CPUs: $node1; siblings of CPU 0: $(cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list)"

# watch ARGS...: sgabench ARGS in the background; until it exits, sample
# each of its tasks (its children): "pid cpu" lines in $TMPD/cpus (the last
# sample of each task wins), and each task's numa_maps in $TMPD/numa.PID.
# Sets $rc.
# children_of PID: the pids of PID's children. From the kernel's list
# (CONFIG_PROC_CHILDREN) when it has one: a scan of every process is slow
# enough under a loaded TCG host to miss part of a run.
children_of() {
	parent=$1
	if [ -r "/proc/$parent/task/$parent/children" ]; then
		cat "/proc/$parent/task/$parent/children"
		return
	fi
	for st in /proc/[0-9]*/stat; do
		{ read -r line <"$st"; } 2>/dev/null || continue
		# shellcheck disable=SC2086 # split the stat line into fields
		set -- $line
		[ "$4" = "$parent" ] || continue
		st=${st#/proc/}
		echo "${st%/stat}"
	done
}

watch() {
	"$SGABENCH" "$@" --no-store --csv >"$TMPD/out" 2>"$TMPD/err" &
	bg=$!
	rm -f "$TMPD"/numa.*
	: >"$TMPD/samples"
	while kill -0 "$bg" 2>/dev/null; do
		for pid in $(children_of "$bg"); do
			st=/proc/$pid/stat
			{ read -r line <"$st"; } 2>/dev/null || continue
			# shellcheck disable=SC2086 # split the stat line into fields
			set -- $line
			shift 38
			echo "$pid $1" >>"$TMPD/samples"
			cp "/proc/$pid/numa_maps" "$TMPD/numa.$pid.new" 2>/dev/null &&
				mv "$TMPD/numa.$pid.new" "$TMPD/numa.$pid"
		done
		sleep 0.1
	done
	# shellcheck disable=SC2034 # rc is read by the test bodies below
	rc=0
	# shellcheck disable=SC2034
	wait "$bg" || rc=$?
	awk '{ cpu[$1] = $2 } END { for (p in cpu) print p, cpu[p] }' "$TMPD/samples" >"$TMPD/cpus"
}

# Rounds that keep the tasks of a 64 MiB SGA in 2 MiB pages busy for about
# 5 s here (TCG's speed depends on the host and its load), many samples of
# the watcher's 0.1 s loop.
run_csv run --tasks 1 --sga-size 64m --page-size 2m --rounds 20000 --events task-clock
ws=$(csv run window-s value)
rounds=$(awk -v w="$ws" 'BEGIN { r = 20000 * 5 / (w > 0 ? w : 1); if (r < 20000) r = 20000; printf "%d", r }')
note_ "20000 rounds took $ws s: $rounds rounds for the placement runs"

if need_hugepages 64; then
	# --- --place smt: the two tasks on the two threads of one core ---
	watch run --tasks 2 --place smt --sga-size 64m --page-size 2m --rounds "$rounds" --events task-clock
	test_expect_success "--place smt: run exits 0" - <<-\EOT
		test_is "$rc" 0
	EOT
	note_ "--place smt, task pid and CPU: $(tr '\n' ';' <"$TMPD/cpus")"
	test_expect_success "--place smt: two tasks seen running" - <<-\EOT
		test_is "$(wc -l <"$TMPD/cpus" | tr -d ' ')" 2
	EOT
	a=$(awk 'NR == 1 { print $2 }' "$TMPD/cpus")
	b=$(awk 'NR == 2 { print $2 }' "$TMPD/cpus")
	a=${a:-x} b=${b:-x}
	sib=$(cat "/sys/devices/system/cpu/cpu$a/topology/thread_siblings_list" 2>/dev/null || echo none)
	test_expect_success "--place smt: tasks on CPUs $a and $b, siblings of one core ($sib)" - <<-\EOT
		sh -c "[ '$a' != '$b' ] && [ '$a' != x ] && [ '$b' != x ]"
	EOT
	test_expect_success "--place smt: CPU $b is in CPU $a's thread siblings ($sib)" - <<-\EOT
		in_cpulist "$b" "$sib"
	EOT

	# --- --place node:1: every task on node 1's CPUs ---
	watch run --tasks 2 --place node:1 --sga-size 64m --page-size 2m --rounds "$rounds" --events task-clock
	test_expect_success "--place node:1: run exits 0" - <<-\EOT
		test_is "$rc" 0
	EOT
	note_ "--place node:1, task pid and CPU: $(tr '\n' ';' <"$TMPD/cpus")"
	test_expect_success "--place node:1: two tasks seen running" - <<-\EOT
		test_is "$(wc -l <"$TMPD/cpus" | tr -d ' ')" 2
	EOT
	while read -r pid cpu; do
		test_expect_success "--place node:1: task $pid runs on CPU $cpu, one of node 1's ($node1)" - <<-\EOT
			in_cpulist "$cpu" "$node1"
		EOT
	done <"$TMPD/cpus"

	# --- --mem-node 1: the SGA's huge pages all on node 1 ---
	watch run --tasks 2 --mem-node 1 --sga-size 64m --page-size 2m --rounds "$rounds" --events task-clock
	test_expect_success "--mem-node 1: run exits 0" - <<-\EOT
		test_is "$rc" 0
	EOT
	line=$(cat "$TMPD"/numa.* 2>/dev/null | grep 'huge' | grep 'SYSV' | head -n 1)
	note_ "--mem-node 1, the SGA in a task's numa_maps: $line"
	test_expect_success "--mem-node 1: the SGA's 32 pages are on node 1" - <<-\EOT
		sh -c "echo '$line' | grep -q ' N1=32 '"
	EOT
	test_expect_success "--mem-node 1: and none elsewhere" - <<-\EOT
		sh -c "! echo '$line' | grep -q ' N0='"
	EOT
else
	skip "placement" "cannot reserve 64 2 MiB hugepages"
fi
