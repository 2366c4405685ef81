# history.sh - sourced by report/mkreport: the nightly history, one plot
# per machine and metric (the verdict metrics of report/metrics.sh first,
# then information), each cell a line relative to its median over the
# nights, change points from 'sgabench history' marked. Writes
# $d/history-plots (machine id, metric, kind, machine label per plot),
# $d/history-cp.tsv (machine, metric, cell, night, change, p) and
# $d/history-left.tsv (machine, the load-noise metrics not plotted).
# shellcheck shell=sh
# shellcheck disable=SC2154 # d, db, out and the metric lists are set by report/mkreport
# shellcheck disable=SC2034 # cp_method is read by report/pages.sh

# history_kind METRIC: verdict, information or noise ('' when not listed).
history_kind() {
	case " $report_history_verdict " in *" $1 "*) echo verdict; return ;; esac
	case " $report_history_info " in *" $1 "*) echo information; return ;; esac
	case " $report_load_noise " in *" $1 "*) echo noise; return ;; esac
}

# history_plot ID LABEL FP METRIC KIND: one plot of METRIC on machine ID
# from $d/history-ID.tsv; its change points appended to history-cp.tsv.
history_plot() {
	hid=$1 hlabel=$2 hfp=$3 m=$4 kind=$5
	awk -F'	' -v m="$m" '$3 == m' "$d/history-$hid.tsv" >"$d/h.tsv"
	[ -s "$d/h.tsv" ] || return 0
	base="history-$hid-$m"
	# percent of each cell's median over all nights
	cut -f2,5 "$d/h.tsv" | median >"$d/h-med.tsv"
	awk -F'	' -v OFS='	' 'FILENAME == ARGV[1] { med[$1] = $2; next }
	{ print $2, $4, med[$2] ? 100 * $5 / med[$2] : "NaN", $1 }' "$d/h-med.tsv" "$d/h.tsv" |
		sort -t'	' -k1,1 -k2,2 >"$d/h-rel.tsv"
	cut -f1-3 "$d/h-rel.tsv" | blocks >"$d/$base.dat"
	: >"$d/$base-cp.tsv"
	if [ "$have_history_cmd" -eq 1 ] &&
		"$SGABENCH" history --db "$db" --metric "$m" --machine "$hfp" --json >"$d/hist.json" 2>>"$d/history.log"; then
		cp_method=$(jq -r '"\(.method.change_points), p < \(.method.p_threshold)"' "$d/hist.json")
		jq -r '.series[] | .cell as $c | .change_points[] | [$c, .label[8:16], .change, .p] | @tsv' "$d/hist.json" |
			awk -F'	' -v OFS='	' '{ printf "%s\t%s\t%+.1f %%\t%.2g\n", $1, $2, 100 * $3, $4 }' >"$d/cp.tsv"
		awk -F'	' -v OFS='	' -v m="$m" -v cpf="$d/$base-cp.tsv" -v ml="$hlabel" '
			FILENAME == ARGV[1] { cp[$1, $2] = $3 OFS $4; next }
			(($4 SUBSEP $2) in cp) { print $2, $3, $1 > cpf; print ml, m, $1, $2, cp[$4, $2] }' \
			"$d/cp.tsv" "$d/h-rel.tsv" >>"$d/history-cp.tsv"
	fi
	cp=""
	[ -s "$d/$base-cp.tsv" ] && cp="$d/$base-cp.tsv"
	nb=$(grep -c '^"' "$d/$base.dat" || true)
	# The x axis spans the nights, half a night beyond each end (a day
	# beyond a single night), with a tic every day or every few days so
	# that at most about 8 show: never gnuplot's guess for an empty range.
	first=$(date -u -d "$(cut -f2 "$d/h-rel.tsv" | sort | head -n 1)" +%s)
	last=$(date -u -d "$(cut -f2 "$d/h-rel.tsv" | sort | tail -n 1)" +%s)
	days=$(((last - first) / 86400))
	pad=43200
	[ "$days" -gt 0 ] || pad=86400
	xstep=$((((days + 7) / 8) * 86400))
	[ "$xstep" -gt 0 ] || xstep=86400
	nights=$(cut -f2 "$d/h-rel.tsv" | sort -u | wc -l | tr -d ' ')
	what="verdict metric"
	[ "$kind" = verdict ] || what="information, not a verdict"
	plot "$base" history "data='$d/$base.dat'; nblocks=$nb; cp='$cp'; xstep=$xstep; xmin=$((first - pad)); xmax=$((last + pad)); ttl='$(gp_str "$hlabel"): $m ($what)'; sub='$nights night(s) (UTC month-day), each cell relative to its median over them'; ylab='$m (% of the cell median)'"
	printf '%s\t%s\t%s\t%s\n' "$hid" "$m" "$kind" "$hlabel" >>"$d/history-plots"
}

# write_history: every plot of the section, machine by machine (the latest
# nightly machine first).
write_history() {
	: >"$d/history-plots"
	: >"$d/history-cp.tsv"
	: >"$d/history-left.tsv"
	have_history_cmd=0
	"$SGABENCH" history --help >/dev/null 2>&1 && have_history_cmd=1
	cp_method="not available (sgabench history does not run here)"
	for hid in $(q nightly-machines); do
		hlabel=$(q machine-label "$hid")
		hfp=$(q machine-fingerprint "$hid")
		q nightly-points "$hid" | median >"$d/history-$hid.tsv"
		for m in $report_history_verdict $report_history_info; do
			history_plot "$hid" "$hlabel" "$hfp" "$m" "$(history_kind "$m")"
		done
		left=""
		for m in $report_load_noise; do
			awk -F'	' -v m="$m" '$3 == m { f = 1 } END { exit !f }' "$d/history-$hid.tsv" &&
				left="$left${left:+, }$m"
		done
		[ -z "$left" ] || printf '%s\t%s\n' "$hlabel" "$left" >>"$d/history-left.tsv"
	done
}

# history_figs FMT: the plots, under a heading per machine; FMT html or md.
history_figs() {
	last=""
	while IFS='	' read -r hid m kind hlabel; do
		if [ "$hid" != "$last" ] && [ "$1" = html ]; then
			printf '<h3>Machine %s</h3>\n' "$(html_escape "$hlabel")"
		elif [ "$hid" != "$last" ]; then
			printf '### Machine %s\n\n' "$(md_escape "$hlabel")"
		fi
		last=$hid
		"$1_fig" "history-$hid-$m" "$hlabel: nightly $m per cell ($kind), relative to the cell median, change points marked"
	done <"$d/history-plots"
}
