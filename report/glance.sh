# glance.sh - sourced by mkreport: the latest comparison at a glance. One
# row per machine, cell and metric of the newest 'sgabench compare --store-verdicts'
# (same baseline, candidate and time): the verdict, the ratio of medians
# with its 95 % CI, the A/A floor, the minimum detectable effect and the
# runs on each side. The cell shows only the settings that vary between
# the rows; the others go to $d/glance-common.txt.
# shellcheck shell=sh
# shellcheck disable=SC2154 # d and ver are set by report/mkreport
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
			print f[1], s, f[3], v, f[5], f[6], f[7], f[8]
		}
	}' "$d/glance-rows.tsv" >"$d/glance.tsv"
}
