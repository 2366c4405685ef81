#!/bin/sh
# t0960: debian/ builds sgabench_VERSION_ARCH.deb with dpkg-buildpackage -b
# -us -uc from a copy of this tree, lintian finds no error in it, and the
# package's own autopkgtest (debian/tests/smoke) passes on the unpacked
# package. Opt-in: the build takes minutes on two cores, so make
# check-slow (SGABENCH_TEST_EXPENSIVE=1) runs it, not make check.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

if [ "${SGABENCH_TEST_EXPENSIVE:-0}" != 1 ]; then
	skip_all "builds a Debian package (minutes): SGABENCH_TEST_EXPENSIVE=1 (make check-slow) runs it"
fi
for t in dpkg-buildpackage dh lintian dpkg-checkbuilddeps; do
	command -v "$t" >/dev/null 2>&1 ||
		skip_all "'$t' is not installed (apt-get install dpkg-dev debhelper lintian)"
done
version=$(cd "$top" && dpkg-parsechangelog -S Version)
arch=$(dpkg --print-architecture)
src="$TMPD/deb/sgabench-$version"
mkdir -p "$src"
# The files of the tree, committed or not, without what the build made.
(cd "$top" && git ls-files -co --exclude-standard | tar -cf - -T -) | tar -xf - -C "$src"
(cd "$src" && dpkg-checkbuilddeps) >"$TMPD/deps" 2>&1 ||
	skip_all "build dependencies missing: $(sed -n 's/.*Unmet build dependencies: //p' "$TMPD/deps")"

test_expect_success 'dpkg-buildpackage -b -us -uc builds sgabench_VERSION_ARCH.deb' '
	(cd "$src" && dpkg-buildpackage -b -us -uc) >"$TMPD/build.log" 2>&1 &&
	test -f "$TMPD/deb/sgabench_${version}_$arch.deb"
'

test_expect_success 'lintian reports no error' '
	lintian "$TMPD/deb/sgabench_${version}_$arch.deb" >"$TMPD/lintian" 2>&1 || true &&
	test_is "$(grep -c "^E: " "$TMPD/lintian")" 0
'

test_expect_success 'the package holds the binary, the scripts, the units, the pages' '
	dpkg-deb -c "$TMPD/deb/sgabench_${version}_$arch.deb" >"$TMPD/list" &&
	for f in ./usr/bin/sgabench ./usr/bin/sgabench-sweep ./usr/bin/sgabench-nightly \
		./usr/libexec/sgabench/scripts/sweep ./usr/share/sgabench/configs/smoke \
		./lib/systemd/system/sgabench-nightly.timer ./etc/default/sgabench \
		./usr/share/man/man1/sgabench-run.1.gz ./usr/share/bash-completion/completions/sgabench; do
		grep -q " $f\( \|$\)" "$TMPD/list" || echo "missing $f"
	done >"$TMPD/missing" &&
	test_is "$(cat "$TMPD/missing")" ""
'

test_expect_success HYPERFINE 'the autopkgtest smoke test passes on the unpacked package' '
	dpkg-deb -x "$TMPD/deb/sgabench_${version}_$arch.deb" "$TMPD/unpacked" &&
	PATH="$TMPD/unpacked/usr/bin:$PATH" sh "$src/debian/tests/smoke" >"$TMPD/out" 2>&1 &&
	grep -q "^smoke: ok" "$TMPD/out"
'
test_done
