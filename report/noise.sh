# noise.sh - sourced by report/mkreport: the A/A noise floors as one row per
# cell and one column per metric, showing only the axes that vary between
# the cells (the others are named once above the table). Floors that cannot
# mean anything are left out, with the reason; very wide ones are marked.
# shellcheck shell=sh
# shellcheck disable=SC2154 # d is set by report/mkreport

# The metrics left out (noise_system_wide) are listed in report/metrics.sh.
# Floors at or above this fraction are marked noisy.
noise_noisy=0.5

# noise_table: from the noise table of $db, write $d/noise.tsv (the rows),
# $d/noise-head (the column names, one per line), $d/noise-fixed (the cell
# fields every row shares) and $d/noise-left (the metrics left out, with
# the range of their floors).
noise_table() {
	q noise-floors >"$d/noise-raw.tsv"
	: >"$d/noise.tsv"
	: >"$d/noise-head"
	: >"$d/noise-fixed"
	: >"$d/noise-left"
	[ -s "$d/noise-raw.tsv" ] || return 0
	awk -F'	' -v OFS='	' -v sys=" $noise_system_wide " -v noisy="$noise_noisy" -v D="$d" '
	index(sys, " " $2 " ") {
		if (!($2 in lo) || $3 < lo[$2]) lo[$2] = $3
		if (!($2 in hi) || $3 > hi[$2]) hi[$2] = $3
		next
	}
	{
		r = $5 SUBSEP $1
		if (!(r in seen)) { seen[r] = 1; row[nr++] = r; mach[r] = $5; cell[r] = $1
			if (!($5 in machs)) { machs[$5] = 1; nm++ } }
		if (!($2 in hasm)) { hasm[$2] = 1; met[nmet++] = $2 }
		fl[r, $2] = $3; ns[r, $2] = $4
	}
	END {
		for (i = 0; i < nr; i++) {
			r = row[i]; nf = split(cell[r], f, " ")
			for (j = 1; j <= nf; j++) {
				k = f[j]; v = k; sub(/=.*/, "", k); sub(/^[^=]*=?/, "", v)
				if (!(k in hask)) { hask[k] = 1; key[nk++] = k }
				val[r, k] = v
			}
		}
		for (j = 0; j < nk; j++) {
			k = key[j]; nd = 0; delete dv
			for (i = 0; i < nr; i++) {
				v = ((row[i], k) in val) ? val[row[i], k] : "-"
				if (!(v in dv)) { dv[v] = 1; nd++ }
			}
			if (nd > 1) vary[nv++] = k
			else fixed = fixed (fixed == "" ? "" : " ") k "=" v
		}
		for (j = 0; j < nv; j++) print vary[j] > (D "/noise-head")
		if (nm > 1) print "machine" > (D "/noise-head")
		for (m = 0; m < nmet; m++) print met[m] > (D "/noise-head")
		print "samples" > (D "/noise-head")
		print fixed > (D "/noise-fixed")
		for (i = 0; i < nr; i++) {
			r = row[i]; s = ""
			for (j = 0; j < nv; j++) s = s (j ? OFS : "") (((r, vary[j]) in val) ? val[r, vary[j]] : "-")
			if (nm > 1) s = s (s == "" && !nv ? "" : OFS) mach[r]
			nlo = ""; nhi = ""
			for (m = 0; m < nmet; m++) {
				x = met[m]; c = "-"
				if ((r, x) in fl) {
					c = sprintf("%.2f %%", 100 * fl[r, x])
					if (fl[r, x] >= noisy) c = c " (noisy)"
					if (nlo == "" || ns[r, x] < nlo) nlo = ns[r, x]
					if (nhi == "" || ns[r, x] > nhi) nhi = ns[r, x]
				}
				s = s ((s == "" && !nv && nm < 2 && !m) ? "" : OFS) c
			}
			print s, (nlo == nhi ? nlo : nlo "-" nhi)
		}
		for (x in lo) printf "%s\t%.0f %%\t%.0f %%\n", x, 100 * lo[x], 100 * hi[x] > (D "/noise-left")
	}' "$d/noise-raw.tsv" | sort -V >"$d/noise.tsv"
}

# noise_note: the sentences above the table (plain text).
noise_note() {
	printf 'The A/A noise floor of a cell and metric is how far the medians of two random halves of its samples differ (95th percentile over the splits; for a metric that the compare options of its config judge with --one-sided-noise, their 90th percentiles, or 10th when lower is better); sgabench compare flags a change only beyond max(2 %%, the floor). One row per cell; the columns before the metrics are the settings that differ between the cells.'
	[ -s "$d/noise-fixed" ] && [ -n "$(cat "$d/noise-fixed")" ] &&
		printf ' Every cell has: %s.' "$(cat "$d/noise-fixed")"
	printf ' Floors of %s %% or more are marked noisy: a change that size cannot be told from noise.' \
		"$(awk -v x="$noise_noisy" 'BEGIN { print 100 * x }')"
	while IFS='	' read -r m lo hi; do
		printf ' %s is left out: it is the change of the system-wide PageTables, which every other process on the machine moves too, so its floor (here %s to %s) says nothing about the cell.' \
			"$m" "$lo" "$hi"
	done <"$d/noise-left"
}

# html_noise / md_noise: the section body in each page.
html_noise() {
	printf '<p>%s</p>\n' "$(noise_note | html_escape)"
	# shellcheck disable=SC2046 # one column name per line
	(IFS='
'; set -- $(cat "$d/noise-head"); html_table "$d/noise.tsv" "$@")
}
md_noise() {
	printf '%s\n\n' "$(noise_note)"
	# shellcheck disable=SC2046 # one column name per line
	(IFS='
'; set -- $(cat "$d/noise-head"); md_table "$d/noise.tsv" "$@")
}
