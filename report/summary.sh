# summary.sh - sourced by report/mkreport: write_summary prints five plain
# lines that say what the database holds and what it shows. Reads the data
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

write_summary() {
	q database-summary
	line=$(awk -F'	' '$1 == 1000000 { printf "published normal %s vs shared %s", $2, $3; if ($4 != "-") printf "; model (median over its seeds) normal %s vs shared %s", $4, $5 }' "$d/cover-table.tsv")
	miss=$(awk -F'	' '$1 == "native" { n += $3; r = $2 } END { if (n) printf "; native: missing (%s) on %d runs", r, n }' "$d/cover-missing.tsv")
	# the verdict of 'sgabench table --json' (report/cover.sh), else that it is not given
	verdict="verdict not given (mkreport --table)"
	[ -s "$d/table-verdict.txt" ] && verdict=$(cat "$d/table-verdict.txt")
	echo "cover-letter table (sgabench table): $verdict; dTLB-load-misses at 10^6 rounds: $line$miss"
	if [ -n "${sweep:-}" ]; then
		pt=$(at_max_tasks pagetables-delta-bytes 1024 "%.0f KiB")
		ft=$(at_max_tasks first-touch-faults 1 "%.0f")
		wt=$(at_max_tasks wall-s 1 "%.2f s")
		echo "page tables (PageTables delta) ${pt:-not measured}"
		echo "first-touch minor faults ${ft:-not measured}; wall time per run ${wt#at * tasks: }"
	else
		echo "SGA scaling: no sweep in this database (scripts/sweep configs/sga-scaling)"
		echo "first-touch faults and wall time: no sweep in this database"
	fi
	v=$(q latest-verdicts)
	if [ -n "$v" ]; then
		# the machines of the latest comparison, from the glance table
		on=$(cut -f1 "$d/glance.tsv" | sort -u | awk '{ printf "%s%s", (NR > 1 ? ", " : ""), $0 }')
		echo "latest comparison ($(q latest-comparison))${on:+ on $on}: $v"
	else
		echo "verdicts: none yet (scripts/nightly configs/nightly compares each night with the last 7)"
	fi
}
