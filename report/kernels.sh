# kernels.sh - sourced by report/mkreport: the kernels page (kernels.html).
# Per machine name, each metric of the kernel suite: one row per cell, one
# column per kernel variant in Debian version order, each value the median
# of that kernel's runs, and the change points that 'sgabench history --by
# kernel' finds along that order marked at the kernel where the step
# begins; each metric's unit from the registry ($d/registry.tsv).
# Everything else comes from history's JSON: the report speaks no SQL.
# Sets kernels_page to 1 when the page was written (a run of a known
# kernel variant exists), else 0.
# shellcheck shell=sh
# shellcheck disable=SC2154 # d, db, out, top and the metric lists are set by report/mkreport
# shellcheck disable=SC2034 # kernels_page is read by report/pages.sh

# kernel_metrics: the kernel suite's metrics (report_kernel_metrics, from
# scripts/configs/kernel by report/metrics.sh), without their directions.
kernel_metrics() {
	for w in $report_kernel_metrics; do printf '%s\n' "${w%%:*}"; done
}

# kernel_table FILE MACHINE UNIT: the HTML of one metric on one machine
# from history's JSON in FILE: jq lays out the rows (a cell, then per
# kernel "value runs change" or "-"), awk the table. The settings every
# row shares are named once above it; the others are its first columns,
# one per setting, and order the rows (numerically where both values are
# numbers). A value is printed whole when it is whole or 10^4 and over,
# else to 4 significant digits, in UNIT (the registry's, named in the
# heading).
kernel_table() {
	jq -r --arg m "$2" '
		.kernels as $all
		| [.series[] | select(.machine_name == $m)] as $ss
		| ([$ss[].points[].label] | unique) as $mine
		| [$all[] | select(. as $k | $mine | index($k))] as $cols
		| (["cell"] + $cols | map(@html) | @tsv),
		  ($ss[] | . as $s
		   | ([.change_points[] | {key: .label, value: .change}] | from_entries) as $cp
		   | [($s.cell | @html)] + [$cols[] as $k | ([$s.points[] | select(.label == $k)] | first) as $p
			| if $p == null then "-" else "\($p.value) \($p.runs) \($cp[$k] // "")" end]
		   | @tsv)' "$1" 2>>"$kt/log" |
	awk -F'\t' '
	function num(x) { return x ~ /^-?[0-9]+([.][0-9]+)?([eE][-+]?[0-9]+)?$/ }
	function fmt(v) { return (v == int(v) || v >= 1e4 || v <= -1e4) ? sprintf("%.0f", v) : sprintf("%.4g", v) }
	# before(a, b): whether row a sorts before row b by the varying settings
	function before(a, b,   i, x, y) {
		for (i = 1; i <= nk; i++) {
			x = val[a, key[i]]; y = val[b, key[i]]
			if (x == y) continue
			if (num(x) && num(y)) return x + 0 < y + 0
			return x < y
		}
		return 0
	}
	NR == 1 { head = $0; next }
	{ n++; line[n] = $0; nw = split($1, w, " ")
	  for (i = 1; i <= nw; i++) {
		if (!((n, w[i]) in has)) { has[n, w[i]] = 1; cnt[w[i]]++ }
		k = w[i]; sub(/=.*/, "", k); v = w[i]; if (!sub(/^[^=]*=/, "", v)) v = ""
		val[n, k] = v; if (!(k in seenk)) { seenk[k] = 1; keys[++nkeys] = k }
	  } }
	END {
		if (!n) exit
		common = ""
		nw = split(line[1], f, "\t"); nw = split(f[1], w, " ")
		for (i = 1; i <= nw; i++) if (cnt[w[i]] == n) common = common (common == "" ? "" : " ") w[i]
		nk = 0
		for (i = 1; i <= nkeys; i++) { k = keys[i]; vary = 0
			for (r = 1; r <= n; r++) if (!((r, k) in val) || !((r, k "=" val[r, k]) in has) || cnt[k "=" val[r, k]] < n) vary = 1
			if (vary) key[++nk] = k }
		for (r = 1; r <= n; r++) o[r] = r
		for (r = 2; r <= n; r++) { x = o[r]; for (j = r - 1; j >= 1 && before(x, o[j]); j--) o[j + 1] = o[j]; o[j + 1] = x }
		if (common != "") printf "<p>Settings common to every row: <code>%s</code></p>\n", common
		split(head, h, "\t")
		printf "<div class=\"scroll\"><table><tr>"
		if (nk) for (i = 1; i <= nk; i++) printf "<th>%s</th>", key[i]
		else printf "<th>cell</th>"
		for (i = 2; i in h; i++) printf "<th>%s</th>", h[i]
		print "</tr>"
		for (r = 1; r <= n; r++) {
			split(line[o[r]], f, "\t")
			printf "<tr>"
			if (nk) for (i = 1; i <= nk; i++) printf "<td>%s</td>", ((o[r], key[i]) in val) ? val[o[r], key[i]] : "-"
			else printf "<td>(the one cell)</td>"
			for (i = 2; i in f; i++) {
				if (f[i] == "-") { printf "<td class=\"empty\">-</td>"; continue }
				split(f[i], c, " ")
				if (c[3] != "") printf "<td class=\"cp\">%s (%d) <b>%s%+.1f%%</b></td>", fmt(c[1]), c[2], (c[3] > 0 ? "&#9650; " : "&#9660; "), 100 * c[3]
				else printf "<td>%s (%d)</td>", fmt(c[1]), c[2]
			}
			print "</tr>"
		}
		print "</table></div>"
	}'
}

# write_kernels: $out/kernels.html, or nothing (kernels_page 0). history's
# JSON (with its time and the database's name) stays in a directory of its
# own, removed after, so that $d holds the same files whatever the engine.
write_kernels() {
	kernels_page=0
	kt=$out/.kernels
	rm -rf "$kt" && mkdir -p "$kt"
	: >"$kt/metrics"
	for m in $(kernel_metrics); do
		f="$kt/$(printf '%s' "$m" | tr -c 'A-Za-z0-9_.-' _).json"
		"$SGABENCH" history --db "$db" --by kernel --metric "$m" --json >"$f" 2>>"$kt/log" || continue
		jq -e '[.series[].points[]] | length > 0' "$f" >/dev/null 2>&1 || continue
		printf '%s\t%s\n' "$m" "$f" >>"$kt/metrics"
	done
	if [ -s "$kt/metrics" ]; then
		kernels_page=1
		kernels_html >"$out/kernels.html"
	fi
	rm -rf "$kt"
}

# kernels_html: the page, from the JSON that write_kernels listed in $kt/metrics.
kernels_html() {
	{
		html_head "sgabench report: kernels" 'th { white-space: nowrap; } td.cp { background: #fde8c8; }'
		printf '<h1>Kernels</h1>\n<p><a href="index.html">Back to the report</a>. Generated %s from <code>%s</code>.</p>\n' \
			"$(now_iso)" "$(html_escape "$(db_shown "$db")")"
		printf '<p>Each table is one metric of the kernel suite on one machine, its unit in the heading: a row per cell (the settings every row shares named above the table, the others as its first columns, the rows in their numeric order), a column per kernel variant in Debian version order (as dpkg orders versions; the plain kernel before its flavours, no boot parameters before any), each value the median of that kernel'"'"'s runs, with the number of runs in brackets. A shaded value is a change point: the step (&#9650; up, &#9660; down) that <code>sgabench history --by kernel</code> finds among the runs in that order (%s) begins at that kernel. A dash: no run of the cell on that kernel.</p>\n' \
			"$(html_escape "$(jq -r '"\(.method.change_points), p < \(.method.p_threshold), step >= \(.method.min_change * 100)%"' "$(head -n 1 "$kt/metrics" | cut -f2)")")"
		machines=$(cut -f2 "$kt/metrics" | while read -r f; do jq -r '.series[].machine_name' "$f"; done | sort -u)
		for mach in $machines; do
			printf '<h2>Machine %s</h2>\n' "$(html_escape "$mach")"
			while IFS='	' read -r m f; do
				jq -e --arg n "$mach" '[.series[] | select(.machine_name == $n)] | length > 0' "$f" >/dev/null || continue
				u=$(awk -F'	' -v m="$m" '$1 == m { print $2 }' "$d/registry.tsv")
				case $u in '') u=count ;; B) u=bytes ;; esac
				printf '<h3>%s (%s)</h3>\n' "$(html_escape "$m")" "$(html_escape "$u")"
				kernel_table "$f" "$mach"
			done <"$kt/metrics"
		done
		printf '</body>\n</html>\n'
	}
}
