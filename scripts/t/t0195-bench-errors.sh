#!/bin/sh
# t0195: scripts/bench (make bench) when its runs cannot run, e.g. a user
# outside vm.hugetlb_shm_group: the figure says "not measured" with
# sgabench's error instead of printing nothing, the other figures are still
# measured, and the exit status is the failed run's (3). Checked on a copy of
# the checkout whose bench/sgabench is a double that refuses every run (the
# speed figures themselves belong to make bench, not to the tests).
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

copy="$TMPD/copy"
mkdir -p "$copy/bench" "$copy/build/micro" "$copy/scripts"
cp "$top/scripts/bench" "$top/scripts/lib.sh" "$top/scripts/config.sh" "$copy/scripts/"
cat >"$copy/bench/sgabench" <<EOF2
#!/bin/sh
[ "\$1" = run ] || exec "$SGABENCH" "\$@"
echo "sgabench: error: run: refused by the test double; as root: sysctl -w vm.hugetlb_shm_group=0" >&2
exit 3
EOF2
printf '#!/bin/sh\necho "touch loop figures"\n' >"$copy/build/micro/touchbench"
printf '#!/bin/sh\necho "store figures"\n' >"$copy/build/micro/storebench"
chmod +x "$copy/bench/sgabench" "$copy/build/micro/touchbench" "$copy/build/micro/storebench"
rc=0
sh "$copy/scripts/bench" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
test_expect_success 'a refused run: exit 3' 'test_is "$rc" 3'
test_expect_success 'the figure says it was not measured, with the error' - <<-\EOT
	sed -n '/^== sgabench run/,/^$/p' "$TMPD/out" | grep -qx "not measured: sgabench: error: run: refused by the test double; as root: sysctl -w vm.hugetlb_shm_group=0"
EOT
test_expect_success 'the other figures are still there' 'grep -qx "touch loop figures" "$TMPD/out" && grep -qx "store figures" "$TMPD/out"'
test_expect_success 'the last message says a figure is missing' 'tail -n 1 "$TMPD/err" | grep -q "a figure was not measured (the first failed run had status 3)"'
test_done
