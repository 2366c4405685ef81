# cover.sh - sourced by report/mkreport: the verdict of the 2016 table and
# the prose of the cover-letter section. The verdict, its four checks and
# the model/published ratios are those 'sgabench table --json' computed
# (mkreport --table FILE); nothing here judges or recomputes them. The
# published column and the model's are read from the data files mkreport
# wrote, so the prose says what the figures show.
# shellcheck shell=sh
# shellcheck disable=SC2154 # d and table_json are set by report/mkreport
# shellcheck disable=SC2034 # txt_cover is read by report/pages.sh

# write_cover_verdict: from $d/table.json (absent: no verdict) write
#   $d/table-verdict.txt  one line: "reproduced" or "NOT reproduced: failed:
#                         CHECK (FIGURES); ..."
#   $d/table-checks.tsv   check, result (pass / FAIL), figures
#   $d/table-about.txt    the table's backend, seeds and time
#   $d/cover-ratio.tsv    rounds, model/published normal, shared (2 decimals)
#   $d/table-other.txt    when the JSON's rows are not the stored model's
#                         medians ($d/cover-model.tsv): that they differ
# An empty verdict file means the report has no table JSON.
write_cover_verdict() {
	: >"$d/table-verdict.txt"
	: >"$d/table-checks.tsv"
	: >"$d/table-about.txt"
	: >"$d/cover-ratio.tsv"
	: >"$d/table-other.txt"
	[ -s "$d/table.json" ] || return 0
	jq -r '.rows[] | [.rounds, .normal, .shared] | @tsv' "$d/table.json" |
		awk -F'	' 'FILENAME == ARGV[1] { m[$1] = sprintf("%.0f %.0f", $2, $3); next }
		!($1 in m) || m[$1] != sprintf("%.0f %.0f", $2, $3) { n++ }
		END { if (n) printf "%d of its rows are not the medians of the stored model runs plotted here\n", n }' \
		"$d/cover-model.tsv" - >"$d/table-other.txt"
	jq -r '.rows[] | [.rounds, .normal_ratio, .shared_ratio] | @tsv' "$d/table.json" |
		awk -F'	' -v OFS='	' '{ print $1, sprintf("%.2f", $2), sprintf("%.2f", $3) }' >"$d/cover-ratio.tsv"
	# f2: a positive number to 2 decimals, as the table prints its ratios
	jq -r 'def f2: (. * 100 | round) as $n | "\($n / 100 | floor).\($n % 100 | tostring | if length < 2 then "0" + . else . end)";
		(.rows | first) as $f | (.rows | last) as $l |
		["slope of the normal column within 10 % of the published", .slope_within_10pct,
		 "\(.slope | f2) misses/round" +
		 (if .slope_min_seed != null then " (one seed alone: \(.slope_min_seed | f2) to \(.slope_max_seed | f2))" else "" end)],
		["shared column under 1 % of the normal one at \($l.rounds) rounds", .shared_flat,
		 "shared \($l.shared | round), normal \($l.normal | round)"],
		["first row within a factor of 2 of the published", .first_row_within_2x,
		 "normal \($f.normal | round) is \($f.normal_ratio | f2)x \($f.normal_published), shared \($f.shared | round) is \($f.shared_ratio | f2)x \($f.shared_published)"],
		["every cell within a factor of 2 of the published", .cells_within_2x,
		 (.cells_outside_2x // "all \(.rows | length * 2) cells")]
		| [.[0], (if .[1] then "pass" else "FAIL" end), .[2]] | @tsv' "$d/table.json" >"$d/table-checks.tsv"
	jq -r '"\(.backend), \(.seeds) seed(s) from \(.seed), made \(.time) on \(.host)"' "$d/table.json" >"$d/table-about.txt"
	if [ "$(jq -r .reproduced "$d/table.json")" = true ]; then
		echo reproduced
	else
		awk -F'	' '$2 == "FAIL" { f = f (f == "" ? "" : "; ") $1 " (" $3 ")" }
			END { print "NOT reproduced: failed: " f }' "$d/table-checks.tsv"
	fi >"$d/table-verdict.txt"
}

# cover_text: the section's prose (plain text) into txt_cover. The
# published shared column's first and last points, and the model's shared
# range, come from $d/cover-published.tsv and $d/cover-model.tsv.
cover_text() {
	pub=$(awk -F'	' 'NR == 1 { a = $3; r0 = $1 } { b = $3; r1 = $1 }
		END { if (NR) printf "from %s at %s round%s to %s at %s rounds", a, r0, (r0 == 1 ? "" : "s"), b, r1 }' "$d/cover-published.tsv")
	mod=$(awk -F'	' '$3 != "NaN" { v = sprintf("%.0f", $3) + 0; if (n++ == 0 || v + 0 < lo) lo = v; if (n == 1 || v + 0 > hi) hi = v }
		END { if (n) printf (lo == hi ? "flat %s %s" : "range %s %s"), lo, hi }' "$d/cover-model.tsv")
	startup=""
	[ -s "$d/table.json" ] && startup=$(jq -r '.startup_pages // empty' "$d/table.json")
	txt_cover="The 2016 shared-context RFC measured dTLB-load-misses of two tasks touching pages of one shared mapping on an UltraSPARC T2 (Niagara 2), Linux 4.9 + the RFC: with normal contexts misses grow by about 98 per round; with a shared context they grow far less, but they grow: the published shared column rises ${pub:-(no published points)}. Dots are the published points. The model line replays the same access order on a software TLB (the runs of sgabench table, the median over their seeds at each round count, as the table prints it)"
	# "flat LO HI" or "range LO HI": the model's shared column, median per round count
	lo=${mod#* } && lo=${lo%% *} && hi=${mod##* }
	case "$mod" in
	flat*) txt_cover="$txt_cover; its shared column is flat, $lo at every round count: the start-up pages${startup:+ ($startup per task)} and compulsory misses, with no growth over rounds, so it does not follow the published rise" ;;
	range*) txt_cover="$txt_cover; its shared column ranges from $lo to $hi" ;;
	esac
	txt_cover="$txt_cover. Native points need a hardware PMU and are absent where the counter is missing."
}

# cover_verdict_text: the verdict as one sentence (plain text), or how to
# get it when the report has no table JSON.
cover_verdict_text() {
	if [ -s "$d/table-verdict.txt" ]; then
		printf 'sgabench table (%s): %s%s\n' "$(cat "$d/table-about.txt")" "$(cat "$d/table-verdict.txt")" \
			"$([ ! -s "$d/table-other.txt" ] || printf ' (note: %s)' "$(cat "$d/table-other.txt")")"
	else
		printf 'The verdict of sgabench table is not in this report: give mkreport --table FILE, the output of sgabench table --json (make run does).\n'
	fi
}
