# designs.sh - sourced by report/mkreport: the TLB designs section, the
# latest (or the chosen) sweep of the TLB model. Each design is a cell of
# the sweep without its task count; a line is named by what tells it apart
# from the sweep's other designs (its preset, its shared context, its --tlb
# spec without what every design shares), and the specs table gives the
# full TLB as the model ran it. The clock and walk cycles of each design
# come from its run's machine record ('sgabench show'), the sweep's name,
# description and axes from the sweep record (the config it ran), a
# metric's unit and meaning from the registry ($d/registry.tsv).
# shellcheck shell=sh
# shellcheck disable=SC2154 # d, db, dsweep, dsweep_config, top are set by report/mkreport
# shellcheck disable=SC2016 # backquotes are Markdown

# sweep_kind SWEEP_UUID: model, native or none (sweep-record).
sweep_kind() {
	q sweep-record "$1" | cut -f3
}

# designs_names: from design-runs on stdin (cell, uuid), one row per design:
# key (the cell without tasks), name, preset, full tlb spec, page, uuid.
designs_names() {
	awk -F'	' -v OFS='	' '
	function val(c, k,   i, n, f) { n = split(c, f, " "); for (i = 1; i <= n; i++) if (index(f[i], k "=") == 1) return substr(f[i], length(k) + 2); return "" }
	{ key = " " $1 " "; sub(/ tasks=[^ ]* /, " ", key); sub(/^ /, "", key); sub(/ $/, "", key)
	  if (key in seen) next; seen[key] = 1; o[n++] = key; uuid[key] = $2
	  m = split(key, f, " "); for (i = 1; i <= m; i++) { k = f[i]; sub(/=.*/, "", k); if (!(k in kseen)) { kseen[k] = 1; ko[nk++] = k } } }
	END {
		for (j = 0; j < nk; j++) { k = ko[j]; nv = 0; delete vs
			for (i = 0; i < n; i++) { v = val(o[i], k); if (!(v in vs)) { vs[v] = 1; nv++ } }
			vary[k] = nv > 1 }
		# a key the preset explains: it varies, but never between designs of one backend
		for (j = 0; j < nk; j++) { k = ko[j]; expl[k] = 0
			if (!vary[k] || !vary["backend"] || k == "backend") continue
			expl[k] = 1; delete first
			for (i = 0; i < n; i++) { b = val(o[i], "backend"); v = val(o[i], k)
				if (b in first && first[b] != v) { expl[k] = 0; break }; first[b] = v } }
		# tlb attributes (,ps=...) that every level of every design has tell none apart
		nl = 0; delete cnt
		for (i = 0; i < n; i++) { t = val(o[i], "tlb"); if (t == "") continue; L = split(t, lv, ";")
			for (l = 1; l <= L; l++) { nl++; F = split(lv[l], a, ","); delete once
				for (x = 2; x <= F; x++) if (a[x] ~ /=/ && !(a[x] in once)) { once[a[x]] = 1; cnt[a[x]]++ } } }
		for (i = 0; i < n; i++) {
			t = val(o[i], "tlb"); short = ""
			L = split(t, lv, ";")
			for (l = 1; l <= L; l++) { F = split(lv[l], a, ","); s = a[1]
				for (x = 2; x <= F; x++) if (!(a[x] ~ /=/ && cnt[a[x]] == nl)) s = s "," a[x]
				short = short (l > 1 ? ";" : "") s }
			sh[i] = short
		}
		# a short spec that two different specs share: the full ones
		for (i = 0; i < n; i++) { c = sh[i]; if (c in owner && owner[c] != val(o[i], "tlb")) clash[c] = 1; owner[c] = val(o[i], "tlb") }
		for (i = 0; i < n; i++) {
			key = o[i]; b = val(key, "backend"); preset = substr(b, 7); nm = ""
			for (j = 0; j < nk; j++) { k = ko[j]
				if (!vary[k] || expl[k] || k == "backend" || k == "sharedctx") continue
				if (k == "tlb") v = (sh[i] in clash) ? val(key, k) : sh[i]
				else v = k "=" val(key, k)
				nm = nm (nm == "" ? "" : " ") v }
			if (vary["backend"] || nm == "") nm = preset (nm == "" ? "" : " ") nm
			if (vary["sharedctx"] && val(key, "sharedctx") == 1) nm = nm " shared"
			if (used[nm]++) nm = nm " #" used[nm]
			print key, nm, preset, val(key, "tlb"), val(key, "page"), uuid[key]
		}
	}'
}

# designs_about: the sweep that ran, from its record: "Sweep NAME
# (started ..., order seed N): DESCRIPTION. Axes: ...; fixed options:
# ...", the axes read from the config it stored, else the cell settings
# that vary over its runs.
designs_about() {
	q sweep-record "$dsweep" | cut -f1,2 >"$d/designs-record.tsv"
	"$SGABENCH" db query --db "$db" --json sweep-record "$dsweep" | jq -r '.[0].config // ""' >"$d/designs-config"
	desc="" axes="" args=""
	if [ -s "$d/designs-config" ] &&
		cfg=$(config_load "$d/designs-config" >/dev/null 2>&1 &&
			printf '%s\t%s\t%s' "$SWEEP_DESCRIPTION" "$SWEEP_AXES" "$SWEEP_ARGS"); then
		desc=$(printf '%s' "$cfg" | cut -f1) axes=$(printf '%s' "$cfg" | cut -f2) args=$(printf '%s' "$cfg" | cut -f3)
	fi
	[ -n "$axes" ] || axes=$(q design-runs "$dsweep" | cut -f1 | awk '{ for (i = 1; i <= NF; i++) { k = $i; sub(/=.*/, "", k); v[k, $i] = 1; if (!(k in s)) { s[k] = 1; o[n++] = k } } }
		END { for (i = 0; i < n; i++) { c = 0; for (x in v) { split(x, p, SUBSEP); if (p[1] == o[i]) c++ } if (c > 1) printf "%s%s", (out++ ? " " : ""), o[i] } }')
	IFS='	' read -r rname rstart <"$d/designs-record.tsv"
	printf 'Sweep %s (started %s): %s. Axes: %s%s.\n' "$rname" "$rstart" \
		"${desc:-no description in its config (SWEEP_DESCRIPTION)}" "$(printf '%s' "$axes" | sed 's/  */, /g')" \
		"${args:+; fixed options: $args}"
}

# write_designs: the data of the section, nothing without $dsweep:
#   designs-names.tsv  key, name, preset, tlb, page, uuid per design
#   designs.tsv        name, tasks, metric, median, min, max, n
#   designs.dat, designs-merged.txt, the plot 'designs'
#   designs-table.tsv  design, tasks, page, GHz, walk cycles, dtlb-walks,
#                      the registry's designs metrics (s in ms), samples
#   designs-specs.tsv  design, preset, the full TLB spec
#   designs-head       the table's header, one a line
#   designs-about.txt  the sweep that ran; designs-summary.txt one line
#   designs-state.txt, designs-complete (report/sweep.sh)
write_designs() {
	for f in designs-table.tsv designs-specs.tsv designs-merged.txt designs-about.txt designs-summary.txt designs-head; do
		: >"$d/$f"
	done
	write_sweep_state "${dsweep:-}" "${dsweep_config:-}" designs
	[ -n "${dsweep:-}" ] || return 0
	dsweep_label=$(q sweep-label "$dsweep")
	designs_about >"$d/designs-about.txt"
	q design-runs "$dsweep" | designs_names >"$d/designs-names.tsv"
	# each design's clock and walk cycles, from its run's machine record
	while IFS='	' read -r key _ _ _ _ uuid; do
		"$SGABENCH" show --db "$db" --json "$uuid" |
			jq -r --arg k "$key" '[$k, (.config.machine.ghz // "-"), (.config.machine.walk_cycles // "-")] | @tsv'
	done <"$d/designs-names.tsv" >"$d/designs-clock.tsv"
	q design-points "$dsweep" |
		awk -F'	' -v OFS='	' 'FILENAME == ARGV[1] { nm[$1] = $2; next }
		{ key = " " $1 " "; sub(/ tasks=[^ ]* /, " ", key); sub(/^ /, "", key); sub(/ $/, "", key)
		  print nm[key], $4, $5, $6 }' "$d/designs-names.tsv" - | median >"$d/designs.tsv"
	# Designs whose page walks are the same at every task count (the
	# shared context on a machine without one) are one line, named by the
	# first and how many more; $d/designs-merged.txt names them all.
	awk -F'	' -v OFS='	' '$3 == "dtlb-walks" { print $1, $2, $4, $5, $6 }' "$d/designs.tsv" |
		sort -t'	' -k1,1 -k2,2n >"$d/designs-pts.tsv"
	awk -F'	' -v OFS='	' -v merged="$d/designs-merged.txt" '
	{ if (!($1 in sig)) o[n++] = $1; sig[$1] = sig[$1] " " $2 ":" $3; row[$1] = row[$1] $0 "\n" }
	END {
		for (i = 0; i < n; i++) { s = sig[o[i]]; if (!(s in name)) { name[s] = o[i]; g[ng++] = s; first[s] = o[i] } else { name[s] = name[s] " = " o[i]; cnt[s]++ } }
		for (j = 0; j < ng; j++) { s = g[j]; nm = first[s]
			if (cnt[s]) { print name[s] > merged; nm = nm " (+" cnt[s] " equal)" }
			k = split(row[first[s]], r, "\n")
			for (i = 1; i < k; i++) { sub(/^[^\t]*/, nm, r[i]); print r[i] } }
	}' "$d/designs-pts.tsv" | blocks >"$d/designs.dat"
	nb=$(grep -c '^"' "$d/designs.dat" || true)
	logy=1
	awk -F'	' '$3 == "dtlb-walks" && $4 <= 0 { f = 1 } END { exit !f }' "$d/designs.tsv" && logy=0
	[ "$nb" -gt 0 ] && plot designs scaling "data='$d/designs.dat'; nblocks=$nb; ttl='TLB model: page walks per design'; sub='model figures (deterministic), not measurements; x: tasks sharing the area'; keybelow=1; ylab='dtlb-walks (page walks), all tasks'; div=1; logy=$logy"
	# the metrics the registry shows here, with their units (seconds in ms)
	dms=$(registry_names plot=designs)
	{
		printf 'design\ntasks\npage\nGHz (assumed)\nwalk cycles (assumed)\ndtlb-walks (page walks, all tasks)\n'
		for m in $dms; do
			awk -F'	' -v m="$m" '$1 == m { u = $2 == "s" ? "ms" : $2; print m " (" (u == "" ? "" : u ", ") "estimate)" }' "$d/registry.tsv"
		done
		printf 'samples\n'
	} >"$d/designs-head"
	awk -F'	' -v OFS='	' -v ms="$dms" '
		FILENAME == ARGV[1] { unit[$1] = $2; next }
		FILENAME == ARGV[2] { page[$2] = $5; key[$2] = $1; next }
		FILENAME == ARGV[3] { ghz[$1] = $2; walk[$1] = $3; next }
		{ k = $1 OFS $2; if (!(k in s)) { s[k] = 1; o[n++] = k; nm[k] = $1 }; v[k, $3] = $4; c[k] = $7 }
		function f(k, m) {
			if (!((k SUBSEP m) in v)) return "-"
			if (unit[m] == "s") return sprintf("%.4g", v[k, m] * 1000)
			return sprintf("%.4g", v[k, m])
		}
		END { nms = split(ms, mm, " ")
			for (i = 0; i < n; i++) { k = o[i]; x = key[nm[k]]
				line = k OFS page[nm[k]] OFS ghz[x] OFS walk[x] OFS ((k SUBSEP "dtlb-walks") in v ? sprintf("%.0f", v[k, "dtlb-walks"]) : "-")
				for (j = 1; j <= nms; j++) line = line OFS f(k, mm[j])
				print line, c[k] } }' "$d/registry.tsv" "$d/designs-names.tsv" "$d/designs-clock.tsv" "$d/designs.tsv" |
		sort -t'	' -k1,1 -k2,2n >"$d/designs-table.tsv"
	awk -F'	' -v OFS='	' '{ print $2, $3, ($4 == "" ? "(the preset'"'"'s)" : $4) }' "$d/designs-names.tsv" >"$d/designs-specs.tsv"
	designs_summary >"$d/designs-summary.txt"
}

# designs_summary: one line, what the sweep found at its largest task
# count: the design with the fewest and most page walks, and the least
# and most of the first registry designs metric.
designs_summary() {
	m=$(registry_names plot=designs | cut -d' ' -f1)
	u=$(awk -F'	' -v m="$m" '$1 == m { print $2 }' "$d/registry.tsv")
	# the completeness when it is known, else the runs stored
	st=$(cat "$d/designs-state.txt")
	[ -s "$d/designs-complete" ] || st="${st%%,*}"
	awk -F'	' -v m="$m" -v u="$u" -v nm="${dsweep_label%%,*}" -v st="$st" '
	$2 + 0 > max { max = $2 + 0 }
	{ v[$3, $1, $2 + 0] = $4; if (!($1 in s)) { s[$1] = 1; o[n++] = $1 } }
	function ext(met, lw, fmt, sc,   i, x, lo, hi, a, b) {
		for (i = 0; i < n; i++) { if (!((met, o[i], max) in v)) continue; x = v[met, o[i], max]
			if (lo == "" || x < lo) { lo = x; a = o[i] }; if (hi == "" || x > hi) { hi = x; b = o[i] } }
		if (lo == "") return ""
		return sprintf("%s %s: %s " fmt ", most: %s " fmt, lw, met, a, lo * sc, b, hi * sc) }
	END { if (!n) exit
		w = ext("dtlb-walks", "fewest", "%.0f", 1)
		e = ext(m, "least", u == "s" ? "%.4g ms" : "%.4g", u == "s" ? 1000 : 1)
		printf "TLB designs (model, sweep %s, %d designs%s): at %d tasks, %s%s\n", nm, n, (st == "" ? "" : "; " st), max, w, (e == "" ? "" : "; " e) }' "$d/designs.tsv"
}

txt_designs="The TLB model (sgabench sim) replays the same access order as the native backend on a software TLB: page walks of all tasks against the number of tasks, one line per design of the sweep below. A line is named by what tells it apart from the sweep's other designs: its machine preset, shared if it ran with a shared context (SPARC; an ASID machine cannot share one), and its --tlb spec without the settings every design shares; the specs table gives each TLB in full. Replacement and strand timing are assumed: model figures, not measurements, and comparable only at one page size, clock and walk cost, which the table gives per row."

# designs_body FMT: the section after its heading, FMT html or md.
designs_body() {
	fmt=$1
	if [ "$fmt" = html ]; then printf '<p>%s</p>\n' "$(html_escape "$txt_designs")"; else printf '%s\n\n' "$txt_designs"; fi
	if [ -z "${dsweep:-}" ]; then
		t="No model sweep in this database: run scripts/sweep configs/tlb-designs, or a config with SWEEP_COMMAND=sim."
		if [ "$fmt" = html ]; then printf '<p class="empty">%s</p>\n' "$t"; else printf '_%s_\n\n' "$t"; fi
		return 0
	fi
	para() { if [ "$fmt" = html ]; then printf '<p%s>%s</p>\n' "${2:-}" "$(html_escape "$1")"; else printf '%s\n\n' "$(md_escape "$1")"; fi; }
	para "$(cat "$d/designs-about.txt")"
	broken=""
	[ "$(cat "$d/designs-complete")" != 0 ] || broken=' class="broken"'
	para "Runs of this sweep: $(cat "$d/designs-state.txt")." "$broken"
	for m in $(registry_names plot=designs); do
		para "$m: $(awk -F'	' -v m="$m" '$1 == m { print $3 }' "$d/registry.tsv")."
	done
	"${fmt}_fig" designs "Tasks against page walks in the TLB model, one line per design"
	[ ! -s "$d/designs-merged.txt" ] ||
		para "One line (named by the first and how many more) stands for designs whose page walks are equal at every task count: $(designs_merged)."
	# shellcheck disable=SC2046 # split on newlines only
	(IFS='
'
	set -- $(cat "$d/designs-head")
	"${fmt}_table" "$d/designs-table.tsv" "$@")
	"${fmt}_table" "$d/designs-specs.tsv" design preset "TLB (as the model ran it)"
}
