# mux.sh - sourced by report/mkreport: the runs whose counted events were
# multiplexed estimates, each with how far to trust it, as 'sgabench show
# --json' judges it (machine/perf_mux.h: the report keeps no threshold of
# its own). Runs whose every reading was exact add nothing.
# shellcheck shell=sh
# shellcheck disable=SC2154 # d, db and SGABENCH are set by report/mkreport

# write_mux: $d/mux.tsv, a row per such run and event that is not exact
# (run, label, started, event, trust, counted, rotations), the runs newest
# first (the named query's order), the events by name; $d/mux.min the
# rotations a scaled estimate needs.
write_mux() {
	: >"$d/mux.tsv"
	: >"$d/mux.min"
	q mux-scaled-runs >"$d/mux-runs.tsv"
	while IFS='	' read -r uuid label started; do
		"$SGABENCH" show "$uuid" --db "$db" --json >"$d/mux-show.json" ||
			die 1 "cannot show run $uuid"
		jq -r '.multiplexing.min_rotations' "$d/mux-show.json" >"$d/mux.min"
		jq -r --arg u "$uuid" --arg l "$label" --arg s "$started" '
			.multiplexing as $m
			| $m.events | to_entries | sort_by(.key)[] | select(.value.trust != "exact")
			| [($u | .[0:8]), $l, $s, .key, .value.trust,
			   "\(.value.running_ratio * 100 | round) %",
			   (if .value.rotations == null then "unknown (interval \($m.interval_missing))"
			    else (.value.rotations * 10 | round / 10 | tostring) end)] | @tsv' "$d/mux-show.json" >>"$d/mux.tsv"
	done <"$d/mux-runs.tsv"
	rm -f "$d/mux-show.json"
}

# mux_body FMT: the note and table, FMT html or md; nothing when no run was multiplexed.
mux_body() {
	[ -s "$d/mux.tsv" ] || return 0
	t="Multiplexed estimates: these runs counted more hardware events than the PMU has counters, so the kernel rotated them and scaled each count by the share of the time it was counted (the least among the run's tasks). Over fewer than $(cat "$d/mux.min") rotations (few-rotations), or over an unknown number (the run's multiplexing interval unknown, with why), the estimate can be far off, and so can a verdict resting on it. Runs counted exactly are not listed."
	if [ "$1" = html ]; then printf '<h3>Multiplexed estimates</h3>\n<p>%s</p>\n' "$t"
	else printf '### Multiplexed estimates\n\n%s\n\n' "$t"; fi
	"$1_table" "$d/mux.tsv" run label started event trust counted rotations
}
