#!/bin/sh
# t0190: a user who is not root and not in vm.hugetlb_shm_group may not
# create a SHM_HUGETLB segment, even with hugepages free. 'run' says so with
# the exact fix (the sysctl with the user's group, or --backing memfd) and
# exits 3; with --backing memfd the same run works.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

test_have_prereq UNPRIVILEGED_REACH || skip_all "running as user 65534: $test_missing_"
[ "$(cat /proc/sys/vm/hugetlb_shm_group)" != 65534 ] || skip_all "group 65534 is vm.hugetlb_shm_group here"
test_prereq_if HUGEPAGES "cannot reserve 2 free 2 MiB hugepages" need_hugepages 2
test_expect_success HUGEPAGES 'SysV hugetlb as a user outside vm.hugetlb_shm_group: exit 3' - <<-\EOT
	reach_copy bench/sgabench &&
	rc=0 &&
	{ as_nobody "$REACH/bench/sgabench" run --tasks 2 --sga-size 4m --page-size 2m --no-store --quiet \
		2>"$TMPD/err" || rc=$?; } &&
	test_is "$rc" 3
EOT
test_expect_success HUGEPAGES 'with the exact fix' 'grep -q "as root: sysctl -w vm.hugetlb_shm_group=65534, or use --backing memfd" "$TMPD/err"'
test_expect_success HUGEPAGES 'and --backing memfd works for that user' 'as_nobody "$REACH/bench/sgabench" run --tasks 2 --sga-size 4m --page-size 2m --backing memfd --no-store --quiet'
test_done
