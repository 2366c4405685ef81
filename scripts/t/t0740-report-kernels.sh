#!/bin/sh
# t0740: the report's kernels page (report/kernels.sh) on the fixture of
# t0720 (fixtures/kernels.sql): a table per machine and metric, the kernels
# as columns in Debian version order, the change point shaded at the first
# slower kernel, markup in a cell escaped, the index linking the page; and
# no page (nor link) for a database without a run of a known kernel.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

for tool in sqlite3 gnuplot jq; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "mkreport: '$tool' not installed"
done
db=$TMPD/k.db
out=$TMPD/report

test_expect_success 'mkreport writes kernels.html for runs of several kernels' - <<\EOT
	"$SGABENCH" db init --db "$db" >/dev/null && sqlite3 "$db" <"$FIXTURES/kernels.sql" &&
	sqlite3 "$db" "UPDATE run SET cell = cell || ' note=<b>&' WHERE machine_name = 'lab-x86_64'" &&
	"$top/report/mkreport" --db "$db" --out "$out" >"$TMPD/mk.out" 2>&1 &&
	test -s "$out/kernels.html" && grep -q 'href="kernels.html"' "$out/index.html"
EOT

test_expect_success 'a section per machine name, a table per metric' - <<\EOT
	test_is "$(grep -o '<h2>Machine [^<]*</h2>' "$out/kernels.html" | tr '\n' ' ')" \
		"<h2>Machine lab-arm64</h2> <h2>Machine lab-x86_64</h2> " &&
	test_is "$(grep -c '<h3>startup-s</h3>' "$out/kernels.html")" 2
EOT

test_expect_success 'the kernels are the columns, in Debian version order' - <<\EOT
	grep -m 1 '<tr><th>cell</th>' "$out/kernels.html" | sed 's/<\/th><th>/ /g; s/<[^>]*>//g' >"$TMPD/cols" &&
	test_is "$(cat "$TMPD/cols")" \
		"cell 6.1.170-3 6.1.172-1 6.1.174-1 6.1.192-1 6.1.192-3 6.1.192-3-rt 6.12.107-1 6.12.117-1:transparent_hugepage=never"
EOT

test_expect_success 'the change point is shaded at 6.1.192-1, the 4th kernel, +30 %' - <<\EOT
	row=$(grep -m 1 '<tr><td class="w">backend=native' "$out/kernels.html") &&
	test_is "$(printf '%s' "$row" | grep -o '<td[^>]*>' | sed -n 5p)" '<td class="cp">' &&
	test_is "$(printf '%s' "$row" | grep -c 'class="cp"')" 1 &&
	printf '%s' "$row" | grep -q '<td class="cp">0.05205 (6) <b>&#9650; +30.0%</b></td>' &&
	printf '%s' "$row" | grep -q '<td>0.04004 (6)</td><td>0.04004 (6)</td>'
EOT

test_expect_success 'markup from the database is escaped' - <<\EOT
	grep -q 'note=&lt;b&gt;&amp;' "$out/kernels.html" && ! grep -q 'note=<b>' "$out/kernels.html"
EOT

test_expect_success 'a database with no run of a known kernel: no page, no link' - <<\EOT
	"$SGABENCH" db init --db "$TMPD/none.db" >/dev/null && sqlite3 "$TMPD/none.db" <"$FIXTURES/kernels.sql" &&
	sqlite3 "$TMPD/none.db" "UPDATE run SET kernel_variant = NULL, label = 'x'" &&
	"$top/report/mkreport" --db "$TMPD/none.db" --out "$TMPD/r2" >/dev/null 2>&1 &&
	test ! -e "$TMPD/r2/kernels.html" && ! grep -q 'kernels.html' "$TMPD/r2/index.html"
EOT

test_done
