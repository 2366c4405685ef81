#!/bin/sh
# t0950: the nightly's systemd units, installed (make install) with their
# paths filled in, pass systemd-analyze verify without a word; they are
# never enabled by the install, and read /etc/default/sgabench.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

test_lazy_prereq SYSTEMD_ANALYZE 'command -v systemd-analyze' "systemd-analyze not installed (no systemd here)"
root="$TMPD/root"
units="$root/usr/lib/systemd/system"

test_expect_success 'make install puts the units and the defaults file' '
	(cd "$top" && make --no-print-directory install-bin install-systemd prefix="$root/usr") >"$TMPD/out" 2>&1 &&
	test -f "$units/sgabench-nightly.service" && test -f "$units/sgabench-nightly.timer" &&
	test -f "$root/usr/etc/default/sgabench" &&
	grep -q "^EnvironmentFile=-$root/usr/etc/default/sgabench$" "$units/sgabench-nightly.service" &&
	grep -q "^ExecStart=$root/usr/bin/sgabench-nightly \${SGABENCH_CONFIG}$" "$units/sgabench-nightly.service" &&
	! grep -q "@[a-z]*@" "$units/sgabench-nightly.service" "$root/usr/etc/default/sgabench"
'

test_expect_success 'the defaults file sets the machine, the database, the config and the password file' '
	for v in SGABENCH_MACHINE SGABENCH_DB SGABENCH_CONFIG PGPASSFILE SGABENCH_OPENMETRICS; do
		grep -q "^$v=" "$root/usr/etc/default/sgabench" || echo "no $v"
	done >"$TMPD/missing" &&
	test_is "$(cat "$TMPD/missing")" ""
'

test_expect_success 'nothing is enabled: no wants/ link is installed' '
	test_is "$(find "$root" -name "*.wants" | wc -l)" 0
'

test_expect_success SYSTEMD_ANALYZE 'systemd-analyze verify passes both units without a word' '
	systemd-analyze verify --man=no "$units/sgabench-nightly.service" "$units/sgabench-nightly.timer" \
		>"$TMPD/out" 2>&1 &&
	test_is "$(grep -v "Failed to read \$container\|PR_SET_MM" "$TMPD/out")" ""
'

test_expect_success SYSTEMD_ANALYZE 'verify does catch a broken unit (the check can fail)' '
	sed "s/^Type=oneshot/Type=bogus/" "$units/sgabench-nightly.service" >"$TMPD/broken.service" &&
	systemd-analyze verify --man=no "$TMPD/broken.service" >"$TMPD/out" 2>&1 || true &&
	grep -q "bogus" "$TMPD/out"
'
test_done
