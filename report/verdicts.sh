# verdicts.sh - sourced by report/mkreport: the recent verdicts, one table
# per comparison (time, baseline, candidate). The comparison's method is
# said once above its table, and its cells show only the settings that vary
# between its rows (the others are named once). Every row names its machine.
# shellcheck shell=sh
# shellcheck disable=SC2154 # d is set by report/mkreport

# write_verdicts: $d/verdicts.tsv (the query's rows), and per comparison N
# (1 = newest) $d/verdicts-N.tsv (machine, cell, metric, verdict, ratio,
# CI, p, q, runs, reason), $d/verdicts-N.title, $d/verdicts-N.methods
# (metric, method JSON per row) and $d/verdicts-N.common; $d/verdicts-list
# lists the N.
write_verdicts() {
	rm -f "$d"/verdicts-[0-9]*
	: >"$d/verdicts-list"
	q verdicts-table >"$d/verdicts.tsv"
	[ -s "$d/verdicts.tsv" ] || return 0
	awk -F'	' -v OFS='	' -v D="$d/verdicts-" '
	{ k = $1 SUBSEP $2 SUBSEP $3
	  if (!(k in num)) { num[k] = ++nk; key[nk] = k; title[nk] = $1 ": baseline " $2 ", candidate " $3 }
	  c = num[k]; nr[c]++; row[c, nr[c]] = $0
	  n = split($13, t, " "); for (i = 1; i <= n; i++) if (!((c, nr[c], t[i]) in seen)) { seen[c, nr[c], t[i]] = 1; cnt[c, t[i]]++ } }
	END {
		for (c = 1; c <= nk; c++) {
			print c > (D "list")
			print title[c] > (D c ".title")
			for (r = 1; r <= nr[c]; r++) { split(row[c, r], f, "\t"); print f[12], f[4] > (D c ".methods") }
			split(row[c, 1], f1, "\t"); n1 = split(f1[13], t1, " "); com = ""
			for (i = 1; i <= n1; i++) if (cnt[c, t1[i]] == nr[c]) com = com (com == "" ? "" : " ") t1[i]
			print com > (D c ".common")
			for (r = 1; r <= nr[c]; r++) {
				split(row[c, r], f, "\t"); n = split(f[13], t, " "); s = ""
				for (i = 1; i <= n; i++) if (cnt[c, t[i]] < nr[c]) s = s (s == "" ? "" : " ") t[i]
				if (s == "") s = "(the one cell)"
				v = f[6]; if (v == "regression") v = "REGRESSION"
				print f[5], s, f[12], v, f[7], f[8], f[9], f[10], f[11], f[14] > (D c ".tsv")
			}
		}
	}' "$d/verdicts.tsv"
}

# verdicts_method N: the method of comparison N, from each row's method
# JSON: "all<TAB>KEY<TAB>VALUE" for what every row shares, then
# "METRIC<TAB>KEY<TAB>VALUE" for what every row of one metric shares beyond
# that. What differs from row to row (the floor a row used, its baseline's
# sessions) is left out: the table and 'sgabench compare --json' have it.
# A nested object (a row's multiplexing) is one setting a leaf, its keys
# joined by dots.
verdicts_method() {
	jq -R -s -r '
	def v: if type == "number" then (. * 1e6 | round / 1e6 | tostring)
		elif type == "string" then . else tojson end;
	def flat($pre): to_entries | map(.key as $k | if (.value | type) == "object"
		then (.value | flat($pre + $k + ".")) else {($pre + $k): .value} end) | add // {};
	[split("\n")[] | select(length > 0) | split("\t") | {m: .[0], j: ((.[1] | fromjson?) // {})}
	 | select(.j | type == "object") | .j |= flat("")] as $rows
	| ($rows | map(.j | keys) | add // [] | unique) as $keys
	| [$keys[] as $k | select([$rows[] | .j | has($k)] | all)
	   | select([$rows[] | .j[$k]] | unique | length == 1) | $k] as $common
	| ($common[] as $k | ["all", $k, ($rows[0].j[$k] | v)] | @tsv),
	  ($rows | group_by(.m)[] as $g | ($g | map(.j | keys) | add // [] | unique)[] as $k
	   | select(($common | index($k)) == null)
	   | select([$g[] | .j | has($k)] | all)
	   | select([$g[] | .j[$k]] | unique | length == 1)
	   | [$g[0].m, $k, ($g[0].j[$k] | v)] | @tsv)' "$d/verdicts-$1.methods"
}

# verdicts_body FMT: the section body, FMT html or md: per comparison its
# title, the settings every row shares, its method once and its table.
# shellcheck disable=SC2016 # backquotes are Markdown
verdicts_body() {
	t="The latest comparisons (sgabench compare), newest first: ratio of medians candidate/baseline with its bootstrap 95 % CI, Mann-Whitney p and Benjamini-Hochberg q."
	if [ "$1" = html ]; then printf '<p>%s</p>\n' "$t"; else printf '%s\n\n' "$t"; fi
	[ -s "$d/verdicts-list" ] || { "$1_table" /dev/null; return 0; }
	while read -r c; do
		verdicts_method "$c" >"$d/verdicts-$c.method"
		t=$("$1_escape" <"$d/verdicts-$c.title")
		m="Method: not stored."
		[ -s "$d/verdicts-$c.method" ] && m="Method of this comparison (as stored with its verdicts):"
		if [ "$1" = html ]; then
			printf '<h4>%s</h4>\n' "$t"
			[ -z "$(cat "$d/verdicts-$c.common")" ] ||
				printf '<p>Every row has: <code>%s</code>.</p>\n' "$(html_escape <"$d/verdicts-$c.common")"
			printf '<details><summary>%s</summary>\n' "$m"
		else
			printf '#### %s\n\n' "$t"
			[ -z "$(cat "$d/verdicts-$c.common")" ] ||
				printf 'Every row has: `%s`.\n\n' "$(cat "$d/verdicts-$c.common")"
			printf '%s\n\n' "$m"
		fi
		[ ! -s "$d/verdicts-$c.method" ] || "$1_table" "$d/verdicts-$c.method" "for" setting value
		[ "$1" = md ] || printf '</details>\n'
		"$1_table" "$d/verdicts-$c.tsv" machine cell metric verdict ratio "95 % CI" p q "runs base / cand" reason
	done <"$d/verdicts-list"
}
