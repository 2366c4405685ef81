# kernels.sh - sourced by report/mkreport: the kernels page (kernels.html).
# Per machine name, each metric of the kernel suite: one row per cell, one
# column per kernel variant in Debian version order, each value the median
# of that kernel's runs, and the change points that 'sgabench history --by
# kernel' finds along that order marked at the kernel where the step
# begins. Everything comes from history's JSON: the report speaks no SQL.
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

# kernel_table FILE MACHINE: the HTML table of one metric on one machine
# from history's JSON in FILE: jq lays out the rows (a cell, then per
# kernel "value runs change" or "-"), awk formats the numbers.
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
	awk -F'\t' 'NR == 1 { printf "<div class=\"scroll\"><table><tr>"; for (i = 1; i <= NF; i++) printf "<th>%s</th>", $i; print "</tr>"; next }
	{ printf "<tr><td class=\"w\">%s</td>", $1
	  for (i = 2; i <= NF; i++) {
		if ($i == "-") { printf "<td class=\"empty\">-</td>"; continue }
		split($i, v, " ")
		if (v[3] != "") printf "<td class=\"cp\">%.4g (%d) <b>%s%+.1f%%</b></td>", v[1], v[2], (v[3] > 0 ? "&#9650; " : "&#9660; "), 100 * v[3]
		else printf "<td>%.4g (%d)</td>", v[1], v[2]
	  }
	  print "</tr>" }
	END { if (NR) print "</table></div>" }'
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
		printf '<p>Each table is one metric of the kernel suite on one machine: a row per cell, a column per kernel variant in Debian version order (as dpkg orders versions; the plain kernel before its flavours, no boot parameters before any), each value the median of that kernel'"'"'s runs, with the number of runs in brackets. A shaded value is a change point: the step (&#9650; up, &#9660; down) that <code>sgabench history --by kernel</code> finds among the runs in that order (%s) begins at that kernel. A dash: no run of the cell on that kernel.</p>\n' \
			"$(html_escape "$(jq -r '"\(.method.change_points), p < \(.method.p_threshold), step >= \(.method.min_change * 100)%"' "$(head -n 1 "$kt/metrics" | cut -f2)")")"
		machines=$(cut -f2 "$kt/metrics" | while read -r f; do jq -r '.series[].machine_name' "$f"; done | sort -u)
		for mach in $machines; do
			printf '<h2>Machine %s</h2>\n' "$(html_escape "$mach")"
			while IFS='	' read -r m f; do
				jq -e --arg n "$mach" '[.series[] | select(.machine_name == $n)] | length > 0' "$f" >/dev/null || continue
				printf '<h3>%s</h3>\n' "$(html_escape "$m")"
				kernel_table "$f" "$mach"
			done <"$kt/metrics"
		done
		printf '</body>\n</html>\n'
	}
}
