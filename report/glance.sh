# glance.sh - sourced by mkreport: the latest comparison at a glance. One
# row per machine, cell and metric of the newest 'sgabench compare --store-verdicts'
# (same baseline, candidate and time): the verdict, the ratio of medians
# with its 95 % CI, the A/A floor, the minimum detectable effect and the
# runs on each side; a verdict whose estimates were scaled over few or an
# unknown number of rotations (compare's multiplexing object, kept in the
# stored method) says so, with how many runs of each side. The cell shows only the settings that vary between
# the rows; the others go to $d/glance-common.txt.
# shellcheck shell=sh
# shellcheck disable=SC2154 # d and ver are set by report/mkreport
# shellcheck disable=SC2016 # backquotes are Markdown
# Uses q, $d and $ver from mkreport.

write_glance() {
	: >"$d/glance.tsv"
	: >"$d/glance-common.txt"
	: >"$d/glance-title.txt"
	rows=glance-rows
	[ "$ver" -ge 2 ] || rows=glance-rows-v1
	q glance-key >"$d/glance-key.tsv"
	[ -s "$d/glance-key.tsv" ] || return 0
	IFS='	' read -r gb gc gt <"$d/glance-key.tsv"
	printf '%s\n' "baseline $gb, candidate $gc, compared $gt" >"$d/glance-title.txt"
	q "$rows" "$gb" "$gc" "$gt" >"$d/glance-rows.tsv"
	awk -F'	' -v OFS='	' -v common="$d/glance-common.txt" '
	{ row[NR] = $0; n = split($2, t, " "); for (i = 1; i <= n; i++) if (!((NR, t[i]) in seen)) { seen[NR, t[i]] = 1; cnt[t[i]]++ } }
	END {
		split(row[1], f1, "\t"); n1 = split(f1[2], t1, " ")
		for (i = 1; i <= n1; i++) if (cnt[t1[i]] == NR) { c = c (c == "" ? "" : " ") t1[i] }
		print (c == "" ? "(none)" : c) >common
		for (r = 1; r <= NR; r++) {
			split(row[r], f, "\t")
			n = split(f[2], t, " "); s = ""
			for (i = 1; i <= n; i++) if (cnt[t[i]] < NR) s = s (s == "" ? "" : " ") t[i]
			if (s == "") s = "(the one cell)"
			v = f[4]; if (v == "regression") v = "REGRESSION"
			if (f[9] != "") v = v " (estimates over few or unknown rotations in " f[9] " runs (base / cand): treat with care)"
			print f[1], s, f[3], v, f[5], f[6], f[7], f[8]
		}
	}' "$d/glance-rows.tsv" >"$d/glance.tsv"
}

txt_rule="A regression is significant (Mann-Whitney U p <= 0.01, Benjamini-Hochberg q <= 0.05) with the ratio of medians beyond max(2 %, the floor); a ratio marked \"of q90\" compares 90th percentiles instead, for a metric that noise only makes worse (compare --one-sided-noise, tested by permutation). MDE: the smallest change the row could have caught (80 % power); a smaller regression there goes unseen."

# glance_body FMT: the section body, FMT html or md: what was compared
# and the rule, the settings every row shares (when some), the table; or
# that there is no comparison yet.
glance_body() {
	if [ ! -s "$d/glance.tsv" ]; then
		t="No comparison stored yet: scripts/nightly stores one each night, sgabench compare --store-verdicts one by hand."
		if [ "$1" = html ]; then printf '<p class="empty">%s</p>\n' "$t"; else printf '_%s_\n\n' "$t"; fi
		return 0
	fi
	t="$(cat "$d/glance-title.txt"). $txt_rule"
	if [ "$1" = html ]; then printf '<p>%s' "$(html_escape "$t")"; else printf '%s' "$(md_escape "$t")"; fi
	if [ "$(cat "$d/glance-common.txt")" != "(none)" ]; then
		if [ "$1" = html ]; then
			printf ' Settings common to every row: <code>%s</code>.' "$(html_escape <"$d/glance-common.txt")"
		else
			printf ' Settings common to every row: `%s`.' "$(cat "$d/glance-common.txt")"
		fi
	fi
	if [ "$1" = html ]; then printf '</p>\n'; else printf '\n\n'; fi
	"$1_table" "$d/glance.tsv" machine cell metric verdict "ratio [95 % CI]" "A/A floor" MDE "runs base / cand"
}
