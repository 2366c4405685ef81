# pages.sh - sourced by report/mkreport: write_html and write_markdown turn
# the data files in $d and the plots into index.html and summary.md. Every
# string that comes from the database or a config goes through html_escape
# (or md_escape); the page has no external resource and opens from disk.
# shellcheck shell=sh
# shellcheck disable=SC2154 # d, db, out, ver, plots, sweep... are set by report/mkreport

# html_table FILE HEADER...: FILE (tab-separated) as an escaped HTML table.
html_table() {
	f=$1
	shift
	if [ ! -s "$f" ]; then
		echo '<p class="empty">none in this database</p>'
		return
	fi
	printf '<div class="scroll"><table>\n<thead><tr>'
	for h in "$@"; do printf '<th>%s</th>' "$(html_escape "$h")"; done
	printf '</tr></thead>\n<tbody>\n'
	# A cell up to 24 characters (a number, a CI, a metric, a time) is
	# never broken over lines, the table scrolls instead; a longer one
	# (class w: a cell's settings, a reason) wraps.
	html_escape <"$f" | awk -F'	' '{ printf "<tr>"; for (i = 1; i <= NF; i++)
		printf (length($i) > 24 ? "<td class=\"w\">%s</td>" : "<td>%s</td>"), $i; print "</tr>" }'
	printf '</tbody></table></div>\n'
}

# md_table FILE HEADER...: the same as a Markdown table.
md_table() {
	f=$1
	shift
	if [ ! -s "$f" ]; then
		printf '_none in this database_\n\n'
		return
	fi
	printf '|'
	for h in "$@"; do printf ' %s |' "$(md_escape "$h")"; done
	printf '\n|'
	for h in "$@"; do printf -- ' --- |'; done
	printf '\n'
	md_escape <"$f" | awk -F'	' '{ printf "|"; for (i = 1; i <= NF; i++) printf " %s |", $i; printf "\n" }'
	printf '\n'
}

# has_plot NAME: whether mkreport drew plot NAME.
has_plot() {
	case " $plots " in *" $1 "*) return 0 ;; esac
	return 1
}

# html_fig NAME CAPTION: a plot as a figure (SVG shown, PNG linked).
html_fig() {
	has_plot "$1" || return 0
	printf '<figure><a href="%s.svg"><img src="%s.svg" width="900" height="540" alt="%s"></a>\n' "$1" "$1" "$(html_escape "$2")"
	printf '<figcaption>%s (<a href="%s.png">PNG</a>, <a href="%s.svg">SVG</a>)</figcaption></figure>\n' "$(html_escape "$2")" "$1" "$1"
}

md_fig() {
	has_plot "$1" || return 0
	printf '![%s](%s.png)\n\n' "$(md_escape "$2")" "$1"
}

# scaling_figs FMT: one figure per scaling plot (report_scaling_plots), captioned from the registry; FMT html or md.
scaling_figs() {
	for spec in $report_scaling_plots; do
		m=${spec%%:*}
		per=""
		[ "${spec#*:}" = per-task ] && per=" per task"
		"$1_fig" "scaling-$m" "Tasks against $m$per, per page size and alignment: $(awk -F'	' -v m="$m" '$1 == m { print $3 }' "$d/registry.tsv")"
	done
}

# scaling_table FMT: the scaling table with the header mkreport wrote (one a line).
scaling_table() {
	fmt=$1
	# shellcheck disable=SC2046 # split on newlines only
	(IFS='
'
	set -- $(cat "$d/scaling-head")
	"${fmt}_table" "$d/scaling-table.tsv" "$@")
}

# The prose of each section, shared by both pages (plain text, escaped on output).
# txt_cover comes from report/cover.sh (cover_text): it quotes the data.

# cover_table FMT: the cover-letter table, FMT html or md; the ratios are
# those of 'sgabench table --json' (a dash when the report has none).
cover_table() {
	if [ ! -s "$d/cover-model.tsv" ] && [ ! -s "$d/cover-native.tsv" ]; then
		t="No cover-table runs are stored in this database (two-task runs of the rounds pattern, model or native), so only the published columns are filled: sgabench table runs and stores them (the model, or this machine with --backend native), and make run runs it."
		if [ "$1" = html ]; then printf '<p class="empty">%s</p>\n' "$t"; else printf '_%s_\n\n' "$t"; fi
	fi
	"$1_table" "$d/cover-table.tsv" rounds "published normal" "published shared" "model normal" "model shared" \
		"model / published, normal" "model / published, shared" "native normal" "native shared"
}
txt_scaling="N tasks attach one SGA at the same address and each writes its working set once (first touch). With 2 MiB pages on a 1 GiB-aligned (PUD) range Linux shares the PMD page-table pages, so later tasks adopt the first task's page tables with one fault per GiB; offset by one huge page (PMD-aligned) nothing is shared; 4 KiB pages need one fault and one PTE per page per task. Points are medians, bars span min to max; each plot says how many runs stand behind a point. Sharing shows in first-touch faults: the first task faults once per 2 MiB page (P), each later one once, so P + (N - 1) against N x P unshared. sga-pte-bytes is the page-table memory the SGA itself added to the tasks, the saving of large pages; VmPTE charges a shared PMD page to every task that maps it, so it does not show sharing. The system-wide PageTables delta, drawn per task, could, but every other process on the machine moves it too: it is noise at this size and can be negative (then the axis is linear, as it is for any plot with a value of 0 or below); the summary says how far it moves between runs of one cell. VmPTE per task includes each process's own page tables (its stack and libraries), the same in every layout."
txt_history="One plot per machine and metric, the machine that ran the latest nightly first: each line is one cell (tasks, page layout, rounds) of that machine's nightly runs, as a percentage of the cell's median over all nights. The metrics the nightly's verdicts rest on come first, then information. Circles mark change points found by sgabench history on that machine."
txt_machines="The cells that were run on the most machines, median per machine, of a metric that the machine's load does not move (the fastest window per CPU second, or an exact count). Machines are named by hostname and the start of their fingerprint. Nightly regressions compare only within one machine; this view compares across them on purpose."

# history_left: the sentence on the load-noise metrics the history leaves out.
history_left() {
	[ -s "$d/history-left.tsv" ] || return 0
	printf 'Not plotted, because they move with the load of the machine rather than with sgabench (README): '
	awk -F'	' '{ printf "%s%s on %s", (NR > 1 ? "; " : ""), $2, $1 }' "$d/history-left.tsv"
	printf '. sgabench history --metric NAME --machine FINGERPRINT shows any of them.\n\n'
}
html_history_left() {
	[ -s "$d/history-left.tsv" ] || return 0
	printf '<p>%s</p>\n' "$(history_left | html_escape)"
}

# designs_merged: the designs drawn as one line, as a plain list.
designs_merged() {
	awk '{ printf "%s%s", (NR > 1 ? "; " : ""), $0 }' "$d/designs-merged.txt"
}

# html_head TITLE [CSS]: the page's head, the report's style plus CSS, and <body>.
html_head() {
	cat <<HEAD
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$1</title>
<style>
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; max-width: 1240px; margin: 2em auto; padding: 0 1em; color: #222; line-height: 1.45; }
h1 { font-size: 1.7em; margin-bottom: 0.2em; } h4 { margin: 1.4em 0 0.3em; } h2 { border-bottom: 1px solid #ccc; padding-bottom: 0.2em; margin-top: 2em; }
figure { margin: 1.2em 0; } figure img { max-width: 100%; height: auto; border: 1px solid #ddd; }
figcaption { font-size: 0.9em; color: #555; }
.scroll { overflow-x: auto; } table { border-collapse: collapse; font-size: 0.85em; margin: 0.8em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: left; vertical-align: top; } th { background: #f0f0f0; }
td { white-space: nowrap; } td.w { white-space: normal; max-width: 32em; overflow-wrap: break-word; } pre { background: #f6f6f6; padding: 0.8em; white-space: pre-wrap; }
.empty { color: #777; font-style: italic; } .broken { color: #b00; font-weight: bold; }
nav a { margin-right: 1em; }
${2:-}
</style>
</head>
<body>
HEAD
}

write_html() {
	html_head "sgabench report"
	printf '<h1>sgabench report</h1>\n<p>Generated %s from <code>%s</code> (schema version %s).</p>\n' \
		"$(now_iso)" "$(html_escape "$(db_shown "$db")")" "$ver"
	printf '<nav><a href="#summary">Summary</a><a href="#cover">Cover letter</a><a href="#scaling">SGA scaling</a><a href="#history">History</a><a href="#designs">TLB designs</a><a href="#machines">Machines</a><a href="#verdicts">Verdicts</a><a href="#runs">Runs</a>%s</nav>\n' \
		"$([ "$kernels_page" = 1 ] && printf '<a href="kernels.html">Kernels</a>')"
	printf '<h2 id="summary">Summary</h2>\n<pre>%s</pre>\n' "$(html_escape <"$out/summary.txt")"

	printf '<h2 id="cover">The cover-letter figure</h2>\n<p>%s</p>\n' "$(html_escape "$txt_cover")"
	printf '<p><b>%s</b></p>\n' "$(cover_verdict_text | html_escape)"
	[ ! -s "$d/table-checks.tsv" ] || html_table "$d/table-checks.tsv" "check (sgabench table)" result figures
	html_fig cover "Rounds against dTLB-load-misses (log-log): published 2016 points, model and native, normal vs shared context"
	cover_table html
	[ -n "$model" ] && printf '<p>Model backend: <code>%s</code>.</p>\n' "$(html_escape "$model")"
	if [ -s "$d/cover-missing.tsv" ]; then
		printf '<p>Runs whose dTLB-load-misses are missing (stored as NULL with a reason, never 0):</p>\n'
		html_table "$d/cover-missing.tsv" backend reason runs
	fi

	printf '<h2 id="scaling">SGA scaling</h2>\n<p>%s</p>\n' "$(html_escape "$txt_scaling")"
	if [ -n "$sweep" ]; then
		printf '<p>Sweep: %s (<code>%s</code>).</p>\n' "$(html_escape "$sweep_label")" "$(html_escape "$sweep")"
		printf '<p%s>Runs of this sweep: %s.</p>\n' "$([ "$(cat "$d/sweep-complete")" != 0 ] || echo ' class="broken"')" \
			"$(html_escape <"$d/sweep-state.txt")"
		scaling_figs html
		scaling_table html
	else
		echo '<p class="empty">No native scaling sweep in this database (a sweep of the TLB model is in TLB designs): run <code>scripts/sweep configs/sga-scaling</code>.</p>'
	fi

	printf '<h2 id="history">Nightly history</h2>\n<p>%s</p>\n' "$(html_escape "$txt_history")"
	if [ -s "$d/history-plots" ]; then
		history_figs html
		html_history_left
		printf '<p>Change points (sgabench history: %s):</p>\n' "$(html_escape "$cp_method")"
		if [ -s "$d/history-cp.tsv" ]; then
			html_table "$d/history-cp.tsv" machine metric cell night change p
		else
			echo '<p class="empty">none found in the metrics plotted</p>'
		fi
	else
		echo '<p class="empty">No nightly runs in this database: <code>scripts/nightly configs/nightly</code> adds one each night.</p>'
	fi

	printf '<h2 id="designs">TLB designs (model)</h2>\n'
	designs_body html

	printf '<h2 id="machines">Machines</h2>\n<p>%s</p>\n' "$(html_escape "$txt_machines")"
	html_fig machines "The same cells across machines"
	html_table "$d/machines-table.tsv" fingerprint hostname arch CPU microcode kernel VM "first seen" runs

	printf '<h2 id="verdicts">Verdicts</h2>\n'
	printf '<h3>The latest comparison at a glance</h3>\n'
	glance_body html
	printf '<h3>Every recent verdict</h3>\n'
	verdicts_body html
	printf '<h3>A/A noise floors</h3>\n'
	html_noise

	printf '<h2 id="runs">Sweeps and runs</h2>\n'
	html_table "$d/sweeps.tsv" sweep started "order seed" runs uuid
	html_table "$d/labels.tsv" label backend status runs first last
	mux_body html
	cat <<'TAIL'
<p>Regenerate with <code>report/mkreport --db DATABASE --out DIRECTORY</code>.</p>
<script>
/* Mark any plot that did not load, and record for the test suite the count, the height and the broken cells. */
window.addEventListener('load', function () {
	var imgs = document.images, ok = 0;
	for (var i = 0; i < imgs.length; i++) {
		if (imgs[i].complete && imgs[i].naturalWidth > 0) {
			ok++;
		} else {
			var p = document.createElement('p');
			p.className = 'broken';
			p.textContent = 'plot ' + imgs[i].getAttribute('src') + ' did not load';
			imgs[i].parentNode.insertBefore(p, imgs[i]);
		}
	}
	document.body.setAttribute('data-images', ok + '/' + imgs.length);
	/* The page's height, and the table cells of one word broken over lines
	 * (a p value or a CI wrapped digit by digit). */
	var cells = document.getElementsByTagName('td'), broken = 0, range = document.createRange();
	for (var j = 0; j < cells.length; j++) {
		var t = cells[j].textContent, rects, tops = {}, lines = 0;
		if (t.length < 2 || /\s/.test(t)) continue;
		range.selectNodeContents(cells[j]);
		rects = range.getClientRects();
		for (var k = 0; k < rects.length; k++) {
			if (!tops[Math.round(rects[k].top)]) { tops[Math.round(rects[k].top)] = 1; lines++; }
		}
		if (lines > 1) broken++;
	}
	document.body.setAttribute('data-height', document.documentElement.scrollHeight);
	document.body.setAttribute('data-broken-cells', broken);
});
</script>
</body>
</html>
TAIL
}

# shellcheck disable=SC2016 # backquotes are Markdown
write_markdown() {
	printf '# sgabench report\n\nGenerated %s from `%s` (schema version %s).\n\n' "$(now_iso)" "$(md_escape "$(db_shown "$db")")" "$ver"
	printf '## Summary\n\n'
	md_escape <"$out/summary.txt" | sed 's/^/- /'
	printf '\n## The cover-letter figure\n\n%s\n\n' "$txt_cover"
	printf '**%s**\n\n' "$(cover_verdict_text | md_escape)"
	[ ! -s "$d/table-checks.tsv" ] || md_table "$d/table-checks.tsv" "check (sgabench table)" result figures
	md_fig cover "Rounds against dTLB-load-misses, log-log"
	cover_table md
	[ -s "$d/cover-missing.tsv" ] && md_table "$d/cover-missing.tsv" backend "missing reason" runs
	printf '## SGA scaling\n\n%s\n\n' "$txt_scaling"
	if [ -n "$sweep" ]; then
		printf 'Sweep: %s.\n\n' "$(md_escape "$sweep_label")"
		printf 'Runs of this sweep: %s.\n\n' "$(md_escape <"$d/sweep-state.txt")"
		scaling_figs md
		scaling_table md
	else
		printf '_No native scaling sweep in this database (a sweep of the TLB model is in TLB designs): run `scripts/sweep configs/sga-scaling`._\n\n'
	fi
	printf '## Nightly history\n\n%s\n\n' "$txt_history"
	if [ -s "$d/history-plots" ]; then
		history_figs md
		history_left | md_escape
		printf 'Change points (sgabench history: %s):\n\n' "$(md_escape "$cp_method")"
		md_table "$d/history-cp.tsv" machine metric cell night change p
	else
		printf '_No nightly runs in this database._\n\n'
	fi
	printf '## TLB designs (model)\n\n'
	designs_body md
	printf '## Machines\n\n%s\n\n' "$txt_machines"
	md_fig machines "The same cells across machines"
	md_table "$d/machines-table.tsv" fingerprint hostname arch CPU microcode kernel VM "first seen" runs
	printf '## Verdicts\n\n### The latest comparison at a glance\n\n'
	glance_body md
	printf '### Every recent verdict\n\n'
	verdicts_body md
	printf '### A/A noise floors\n\n'
	md_noise
	printf '## Sweeps and runs\n\n'
	md_table "$d/sweeps.tsv" sweep started "order seed" runs uuid
	md_table "$d/labels.tsv" label backend status runs first last
	mux_body md
}
