# summary.sh - sourced by report/mkreport: write_summary prints five plain
# lines that say what the database holds and what it shows, and a sixth
# with a sweep of the TLB model (report/designs.sh). Reads the data
# files mkreport wrote in $d. Plain text for a terminal: not escaped.
# shellcheck shell=sh
# shellcheck disable=SC2154 # d, db, out, ver, plots, sweep... are set by report/mkreport

# at_max_tasks METRIC DIVISOR FORMAT: "layout value, ..." at the largest
# task count of the scaling data.
at_max_tasks() {
	awk -F'	' -v m="$1" -v div="$2" -v fmt="$3" '
	$3 == m { if ($2 + 0 > max) max = $2 + 0; v[$1, $2] = $4; if (!($1 in s)) { s[$1] = 1; l[n++] = $1 } }
	END { out = ""; for (i = 0; i < n; i++) if ((l[i] SUBSEP max) in v) out = out (out == "" ? "" : ", ") l[i] " " sprintf(fmt, v[l[i], max] / div)
		if (out != "") printf "at %d tasks: %s\n", max, out }' "$d/scaling.tsv"
}

# pud_vs_pmd: the effect of shared PMD page tables at the largest task
# count, in first-touch faults: "at N tasks: 2m-pud (shared page tables) A
# vs 2m-pmd (unshared) B, A/B times as many; LAYOUT C..." for the other layouts;
# nothing when either layout is missing there.
pud_vs_pmd() {
	awk -F'	' '$3 == "first-touch-faults" { if ($2 + 0 > max) max = $2 + 0; v[$1, $2] = $4; if (!($1 in s)) { s[$1] = 1; l[n++] = $1 } }
	END { if (!(("2m-pud" SUBSEP max) in v) || !(("2m-pmd" SUBSEP max) in v) || v["2m-pmd", max] == 0) exit
		a = v["2m-pud", max]; b = v["2m-pmd", max]
		out = sprintf("at %d tasks: 2m-pud (shared PMD page tables) %.0f vs 2m-pmd (unshared) %.0f, %.2f times as many", max, a, b, a / b)
		for (i = 0; i < n; i++) if (l[i] != "2m-pud" && l[i] != "2m-pmd" && (l[i] SUBSEP max) in v) out = out sprintf("; %s %.0f", l[i], v[l[i], max])
		print out }' "$d/scaling.tsv"
}

# spread METRIC: " (...)", how far a system-wide bytes METRIC moves where
# the sweep changes nothing: the widest min-to-max range of one cell's
# runs (the first such cell) and the range of the cells' medians, in KiB;
# nothing without data.
spread() {
	awk -F'	' -v m="$1" '$3 == m { r = ($6 - $5) / 1024; if (n++ == 0 || r > w) { w = r; wc = $1 ", " $2 " tasks" }
		if (n == 1 || $4 < lo) lo = $4; if (n == 1 || $4 > hi) hi = $4 }
	END { if (n) printf " (every process moves it: the runs of one cell differ by up to %.0f KiB, %s; cell medians range from %.0f to %.0f KiB)", w, wc, lo / 1024, hi / 1024 }' "$d/scaling.tsv"
}

write_summary() {
	# the database, and whether the sweep shown ran to its end (report/sweep.sh)
	printf '%s%s\n' "$(q database-summary)" \
		"$([ ! -s "$d/sweep-state.txt" ] || printf '; sweep %s: %s' "${sweep_label%%,*}" "$(cat "$d/sweep-state.txt")")"
	line=$(awk -F'	' '$1 == 1000000 { printf "published normal %s vs shared %s", $2, $3; if ($4 != "-") printf "; model (median over its seeds) normal %s vs shared %s", $4, $5 }' "$d/cover-table.tsv")
	miss=$(awk -F'	' '$1 == "native" { n += $3; r = $2 } END { if (n) printf "; native: missing (%s) on %d runs", r, n }' "$d/cover-missing.tsv")
	# the verdict of 'sgabench table --json' (report/cover.sh), else that it is not given
	verdict="verdict not given (mkreport --table)"
	[ -s "$d/table-verdict.txt" ] && verdict=$(cat "$d/table-verdict.txt")
	[ -s "$d/cover-model.tsv" ] || [ -s "$d/cover-native.tsv" ] ||
		miss="$miss; no cover-table runs stored (sgabench table, or make run)"
	echo "cover-letter table (sgabench table): $verdict; dTLB-load-misses at 10^6 rounds: $line$miss"
	if [ -n "${sweep:-}" ]; then
		ft=$(pud_vs_pmd)
		[ -n "$ft" ] || ft=$(at_max_tasks first-touch-faults 1 "%.0f")
		pt=$(at_max_tasks pagetables-delta-bytes 1024 "%.0f KiB")
		wt=$(at_max_tasks wall-s 1 "%.2f s")
		echo "first-touch minor faults ${ft:-not measured}"
		echo "wall time per run ${wt:-not measured}; system-wide PageTables delta$(spread pagetables-delta-bytes) ${pt:-not measured}"
	else
		echo "SGA scaling: no native scaling sweep in this database (scripts/sweep configs/sga-scaling)"
		echo "first-touch faults and wall time: no native scaling sweep in this database"
	fi
	[ ! -s "$d/designs-summary.txt" ] || cat "$d/designs-summary.txt"
	v=$(q latest-verdicts)
	if [ -n "$v" ]; then
		# the machines of the latest comparison, from the glance table
		on=$(cut -f1 "$d/glance.tsv" | sort -u | awk '{ printf "%s%s", (NR > 1 ? ", " : ""), $0 }')
		echo "latest comparison ($(q latest-comparison))${on:+ on $on}: $v"
	else
		echo "verdicts: none yet (scripts/nightly configs/nightly compares each night with the last 7)"
	fi
}
