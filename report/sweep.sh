# sweep.sh - sourced by report/mkreport: whether a sweep the report shows
# (the scaling section's, the designs section's) ran to its end. What the database keeps of that: the runs
# the sweep timed (timing rows, 'sweep-runs'), their labels ('sweep-samples':
# scripts/sweep relabels the runs of an interrupted sweep as
# interrupted:LABEL) and their status ('labels-table'). The plan itself is
# not readable from the database, so the planned runs come from the config
# the sweep ran (mkreport --config, which main-job passes): its invocations
# ('scripts/sweep --dry-run') times SWEEP_RUNS. Without it the page says
# what is stored and that the planned count is not known.
# shellcheck shell=sh
# shellcheck disable=SC2154 # d and top are set by report/mkreport

# write_sweep_state SWEEP_UUID CONFIG PREFIX: $d/PREFIX-state.txt, one
# line, empty without a sweep (CONFIG may be empty):
#   "complete: R of P planned runs stored"
#   "NOT complete: R of P planned runs stored; I labelled interrupted:...
#    (the sweep was interrupted); F failed"
#   "R runs stored, none stored as failed ... (planned runs not known: ...)"
#   without a config and with no sign of a cut
# and $d/PREFIX-complete: 1 (complete), 0 (not) or "" (not known).
write_sweep_state() {
	ws_sweep=$1 ws_config=$2 ws_p=$d/$3
	: >"$ws_p-state.txt"
	: >"$ws_p-complete"
	[ -n "$ws_sweep" ] || return 0
	stored=$(q sweep-runs "$ws_sweep")
	# the sweep's labels: interrupted ones, and runs that failed under them
	q sweep-samples "$ws_sweep" | cut -f1 | sort -u >"$ws_p-labels"
	q labels-table >"$ws_p-labels-table.tsv"
	inter=$(awk -F'	' 'FILENAME == ARGV[1] { l[$1] = 1; next } ($1 in l) && $1 ~ /^interrupted:/ { n += $4 }
		END { print n + 0 }' "$ws_p-labels" "$ws_p-labels-table.tsv")
	failed=$(awk -F'	' 'FILENAME == ARGV[1] { l[$1] = 1; next } ($1 in l) && $3 == "failed" { n += $4 }
		END { print n + 0 }' "$ws_p-labels" "$ws_p-labels-table.tsv")
	ilabel=$(grep -m 1 '^interrupted:' "$ws_p-labels" || true)
	planned=""
	if [ -n "$ws_config" ]; then
		inv=$("$top/scripts/sweep" --dry-run "$ws_config" 2>/dev/null |
			sed -n 's/^# sweep [^:]*: \([0-9][0-9]*\) invocations.*/\1/p')
		per=$(config_load "$ws_config" >/dev/null 2>&1 && printf '%s' "$SWEEP_RUNS")
		[ -z "$inv" ] || [ -z "$per" ] || planned=$((inv * per))
	fi
	why=""
	[ "$inter" -eq 0 ] || why="$inter labelled $ilabel (the sweep was interrupted)"
	[ "$failed" -eq 0 ] || why="${why:+$why; }$failed failed (the sweep stops at a failed run)"
	if [ -n "$planned" ]; then
		if [ "$stored" -ge "$planned" ] && [ -z "$why" ]; then
			echo 1 >"$ws_p-complete"
			echo "complete: $stored of $planned planned runs stored"
		else
			echo 0 >"$ws_p-complete"
			echo "NOT complete: $stored of $planned planned runs stored${why:+; $why}"
		fi
	elif [ -n "$why" ]; then
		echo 0 >"$ws_p-complete"
		echo "NOT complete: $stored runs stored; $why"
	else
		echo "$stored runs stored, none stored as failed or relabelled interrupted (planned runs not known: mkreport --config CONFIG)"
	fi >"$ws_p-state.txt"
}
