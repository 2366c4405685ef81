#!/bin/sh
# t0920: the suite passes from a checkout in a private directory (mode 0700,
# as mktemp -d makes; Ubuntu's home directories are 0750). The tests that
# switch to an unprivileged user (t0130, t0530, t0620) run copies that user
# can reach, or skip saying why; they never fail for it. Here they run from
# a copy of this checkout under a 0700 directory, once with a scratch
# directory user 65534 can reach (they must run and pass) and once with a
# private TMPDIR (they must skip with the reason, and nothing fails).
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

test_have_prereq ROOT,SETPRIV || skip_all "switching to another user: $test_missing_"
priv=$(mktemp -d "$TMPD/private.XXXXXX")
test_expect_success 'a private directory: mode 0700, closed to user 65534' - <<-\EOT
	test_is "$(stat -c %a "$priv")" 700 &&
	! as_nobody test -x "$priv/."
EOT
test_expect_success 'a copy of the checkout in it, with the built binary' - <<-\EOT
	(cd "$top" && git ls-files -z | tar --null -T - -cf -) | tar -xf - -C "$priv" &&
	cp "$SGABENCH" "$priv/bench/sgabench" &&
	test -x "$priv/scripts/t/run-tests"
EOT
# The scratch directories of the tests run in the copy, and what user 65534
# can reach of them.
open_tmp="$TMPD/open"
mkdir -p "$open_tmp"
chmod 755 "$TMPD" "$open_tmp"

# run_priv TMPDIR FILE...: run the copy's test FILEs (tNNNN prefixes) with
# that TMPDIR; their TAP output in $TMPD/priv.log. Fails if any test failed.
run_priv() {
	d=$1
	shift
	: >"$TMPD/priv.log"
	st=0
	for f in "$@"; do
		TMPDIR="$d" sh "$priv"/scripts/t/"$f"-*.sh >>"$TMPD/priv.log" 2>&1 || st=1
	done
	return "$st"
}

test_expect_success 'from the private copy, the unprivileged tests run and pass' - <<-\EOT
	run_priv "$open_tmp" t0530 t0621 t0130
	sed "s/^/  /" "$TMPD/priv.log"
	grep -q "^ok .* - not root: exit 3$" "$TMPD/priv.log" &&
	grep -q "^ok .* - with the exact sysctl$" "$TMPD/priv.log" &&
	grep -q "^ok .* - no hugepages (not root): exit 3, a missing resource$" "$TMPD/priv.log" &&
	grep -q "^ok .* - with the fix$" "$TMPD/priv.log" &&
	if test_have_prereq PERF_PARANOID2; then grep -q "^ok .* - unprivileged run succeeds$" "$TMPD/priv.log"; fi &&
	! grep -q "SKIP.*UNPRIVILEGED_REACH" "$TMPD/priv.log" &&
	! grep "^not ok" "$TMPD/priv.log"
EOT

closed_tmp="$priv/tmp"
mkdir -p "$closed_tmp"
test_expect_success 'with a private TMPDIR too, they skip saying why, and none fails' - <<-\EOT
	run_priv "$closed_tmp" t0530 t0621
	sed "s/^/  /" "$TMPD/priv.log"
	grep -q "# SKIP not root: exit 3 (missing UNPRIVILEGED_REACH: .*user 65534 can enter" "$TMPD/priv.log" &&
	grep -q "# SKIP no hugepages (not root): exit 3, a missing resource (missing UNPRIVILEGED_REACH" "$TMPD/priv.log" &&
	! grep "^not ok" "$TMPD/priv.log"
EOT
test_done
