#!/bin/sh
# t0610: index.html in a real headless browser (Debian's chromium), laid
# out 1400 px wide: it loads from disk, every plot has a natural width > 0
# (the page records data-images="loaded/total"), nothing is written to
# the console, the page stays short (data-height: the verdicts once
# printed their method JSON in every row, 80,000 px) and no table cell of
# one word is broken over lines (data-broken-cells: p and CI wrapped digit
# by digit), and a screenshot is taken (kept as $SGABENCH_SHOT when set,
# to look at). A negative control proves the checks can fail.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"

browser=$(command -v chromium || command -v chromium-browser || true)
test_have_prereq CHROMIUM,GNUPLOT || skip_all "browser check: $test_missing_"
# chromium FILE ARGS...: run headless on a file:// URL; DOM on stdout.
chromium_run() {
	f=$1
	shift
	HOME="$TMPD/home" timeout 90 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$TMPD/profile" --enable-logging=stderr --v=0 --virtual-time-budget=5000 \
		"$@" "file://$f"
}
mkdir -p "$TMPD/home"

db="$TMPD/syn.db"
db_ensure "$db"
sqlite3 "$db" <"$FIXTURES/synthetic.sql"
"$top/report/mkreport" --db "$db" --out "$TMPD/out" >/dev/null 2>&1
page="$TMPD/out/index.html"
test_expect_success "report written" 'test -s "$page"'
total=$(grep -c '<img ' "$page")
chromium_run "$page" --window-size=1400,3000 --dump-dom >"$TMPD/dom" 2>"$TMPD/log" || true
test_expect_success "the browser loaded the page" 'grep -q "<h1>sgabench report</h1>" "$TMPD/dom"'
test_expect_success "every plot loaded with a natural width > 0" - <<-\EOT
	test_is "$(sed -n 's/.*data-images="\([0-9]*\/[0-9]*\)".*/\1/p' "$TMPD/dom")" "$total/$total"
EOT
test_expect_success "there are plots ($total)" 'test "$total" -ge 6'
test_expect_success "no console message (errors, exceptions)" - <<-\EOT
	sh -c "! grep ':CONSOLE' '$TMPD/log'"
EOT
test_expect_success "no 'did not load' note in the DOM" - <<-\EOT
	sh -c "! grep -q 'class=\"broken\"' '$TMPD/dom'"
EOT
test_expect_success "the injected markup stayed text" - <<-\EOT
	sh -c "! grep -q '<script>alert' '$TMPD/dom'"
EOT

test_expect_success "1400 px wide, the page is under 15,000 px tall" - <<-\EOT
	h=$(sed -n 's/.*data-height="\([0-9]*\)".*/\1/p' "$TMPD/dom") &&
	echo "# $h px" && test "$h" -gt 3000 && test "$h" -lt 15000
EOT
test_expect_success "no table cell of one word is broken over lines" - <<-\EOT
	test_is "$(sed -n 's/.*data-broken-cells="\([0-9]*\)".*/\1/p' "$TMPD/dom")" 0
EOT
test_expect_success "the verdicts name their machine; the method is a collapsed table, once" - <<-\EOT
	grep -q '<th>machine</th><th>cell</th><th>metric</th><th>verdict</th><th>ratio</th>' "$TMPD/dom" &&
	test_is "$(grep -c '<summary>Method of this comparison' "$TMPD/dom")" 1 &&
	! grep -q '<td>{' "$TMPD/dom"
EOT
test_expect_success "no empty sentence" - <<-\EOT
	! grep -q -e '<p>\. ' -e ': <code></code>\.' -e '<p>[^<]*: \.' "$TMPD/dom"
EOT
test_expect_success "the noise floors render as a table of cells by metrics" - <<-\EOT
	grep -q '<th>tasks</th><th>page</th><th>first-touch-faults</th><th>wall-s</th>' "$TMPD/dom" &&
	grep -q '<td>62.00 % (noisy)</td>' "$TMPD/dom"
EOT

shot=${SGABENCH_SHOT:-$TMPD/shot.png}
chromium_run "$page" --hide-scrollbars --window-size=1400,3000 --screenshot="$shot" >/dev/null 2>&1 || true
test_expect_success "screenshot taken ($shot)" - <<-\EOT
	sh -c "test \$(wc -c < '$shot') -gt 20000"
EOT

# Negative control: a broken plot and a script error must be caught.
mkdir -p "$TMPD/bad"
sed -e 's/src="cover.svg"/src="no-such.svg"/' -e 's|</body>|<script>undefinedFunction();</script></body>|' \
	-e 's|<h2 id="runs">|<table><tr><td style="white-space: normal; overflow-wrap: anywhere; max-width: 1em">0.12345678</td></tr></table>&|' \
	"$page" >"$TMPD/bad/index.html"
cp "$TMPD"/out/*.svg "$TMPD/bad/"
chromium_run "$TMPD/bad/index.html" --window-size=1400,3000 --dump-dom >"$TMPD/bad.dom" 2>"$TMPD/bad.log" || true
test_expect_success "control: a missing plot is counted" - <<-\EOT
	sh -c "grep -q 'data-images=\"$((total - 1))/$total\"' '$TMPD/bad.dom'"
EOT
test_expect_success "control: a script error reaches the console log" 'grep -q ":CONSOLE.*Uncaught" "$TMPD/bad.log"'
test_expect_success "control: a number broken over lines is counted" 'grep -q "data-broken-cells=\"1\"" "$TMPD/bad.dom"'
test_done
