#!/bin/sh
# t0740: the report's kernels page (report/kernels.sh) on the fixture of
# t0720 (fixtures/kernels.sql): a table per machine and metric, its unit
# in the heading, the kernels as columns in Debian version order, the
# change point shaded at the first slower kernel, markup in a cell
# escaped, the index linking the page; rows named by the settings that
# vary and sorted by them numerically, whole numbers printed whole; and
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
	test_is "$(grep -c '<h3>startup-s (s)</h3>' "$out/kernels.html")" 2
EOT

test_expect_success 'the kernels are the columns, in Debian version order' - <<\EOT
	grep -m 1 '<tr><th>cell</th>' "$out/kernels.html" | sed 's/<\/th><th>/ /g; s/<[^>]*>//g' >"$TMPD/cols" &&
	test_is "$(cat "$TMPD/cols")" \
		"cell 6.1.170-3 6.1.172-1 6.1.174-1 6.1.192-1 6.1.192-3 6.1.192-3-rt 6.12.107-1 6.12.117-1:transparent_hugepage=never"
EOT

test_expect_success 'the change point is shaded at 6.1.192-1, the 4th kernel, +30 %' - <<\EOT
	row=$(grep -m 1 '<tr><td>(the one cell)</td>' "$out/kernels.html") &&
	test_is "$(printf '%s' "$row" | grep -o '<td[^>]*>' | sed -n 5p)" '<td class="cp">' &&
	test_is "$(printf '%s' "$row" | grep -c 'class="cp"')" 1 &&
	printf '%s' "$row" | grep -q '<td class="cp">0.05205 (6) <b>&#9650; +30.0%</b></td>' &&
	printf '%s' "$row" | grep -q '<td>0.04004 (6)</td><td>0.04004 (6)</td>'
EOT

test_expect_success 'markup from the database is escaped' - <<\EOT
	grep -q 'note=&lt;b&gt;&amp;' "$out/kernels.html" && ! grep -q 'note=<b>' "$out/kernels.html"
EOT
test_expect_success 'the one cell: its settings named once, above the table' - <<\EOT
	grep -q '^<p>Settings common to every row: <code>backend=native page=2m tasks=8 phase=startup</code></p>$' "$out/kernels.html"
EOT

# lab-x86_64's runs spread over four task counts (the 6 runs of a kernel:
# 1, 16, 4, 64, 1, 16), startup-s 32768 x tasks: rows in task order, tasks
# the one column of settings, the values whole.
test_expect_success 'rows sorted numerically by the varying setting, whole numbers whole' - <<\EOT
	cp "$db" "$TMPD/t.db" &&
	sqlite3 "$TMPD/t.db" "UPDATE run SET cell = replace(cell, 'tasks=8', 'tasks=' ||
		CASE CAST(substr(uuid, -1) AS INTEGER) % 4 WHEN 0 THEN 1 WHEN 1 THEN 16 WHEN 2 THEN 4 ELSE 64 END)
		WHERE machine_name = 'lab-x86_64' AND uuid LIKE 'kv-%';
		UPDATE metric SET value = 32768 * (SELECT CAST(substr(r.cell, instr(r.cell, 'tasks=') + 6) AS INTEGER)
			FROM run r WHERE r.id = run_id)
		WHERE run_id IN (SELECT id FROM run WHERE machine_name = 'lab-x86_64')" &&
	"$top/report/mkreport" --db "$TMPD/t.db" --out "$TMPD/t" >/dev/null 2>&1 &&
	sed -n '/<h2>Machine lab-x86_64/,$p' "$TMPD/t/kernels.html" >"$TMPD/x86" &&
	grep -q '<tr><th>tasks</th><th>6.1.170-3</th><th>6.1.192-3</th></tr>' "$TMPD/x86" &&
	test_is "$(grep '^<tr><td>' "$TMPD/x86" | sed 's/<\/td><td>/ /g; s/<[^>]*>//g' | tr '\n' '|')" \
		"1 32768 (2) 32768 (2)|4 131072 (1) 131072 (1)|16 524288 (2) 524288 (2)|64 2097152 (1) 2097152 (1)|" &&
	! grep -q 'e+0' "$TMPD/t/kernels.html" &&
	grep -q '^<p>Settings common to every row: <code>backend=native page=2m phase=startup note=&lt;b&gt;&amp;</code></p>$' "$TMPD/x86"
EOT

test_expect_success 'a database with no run of a known kernel: no page, no link' - <<\EOT
	"$SGABENCH" db init --db "$TMPD/none.db" >/dev/null && sqlite3 "$TMPD/none.db" <"$FIXTURES/kernels.sql" &&
	sqlite3 "$TMPD/none.db" "UPDATE run SET kernel_variant = NULL, label = 'x'" &&
	"$top/report/mkreport" --db "$TMPD/none.db" --out "$TMPD/r2" >/dev/null 2>&1 &&
	test ! -e "$TMPD/r2/kernels.html" && ! grep -q 'kernels.html' "$TMPD/r2/index.html"
EOT

test_done
