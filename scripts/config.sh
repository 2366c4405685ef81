# config.sh - the sweep configs (scripts/configs, sgabench-config(5)):
# finding, checking and loading one, its metric lists, axes and cells,
# and a pass plan's order. POSIX sh; sourced by lib.sh, which every
# harness script sources, so nothing sources it on its own.
# shellcheck shell=sh
# shellcheck disable=SC2034 # the settings are read by the sourcing scripts
# shellcheck disable=SC2154 # top is set by the script that sources lib.sh

# config_resolve NAME: print the path of config NAME. NAME may be a path
# to a file, "configs/NAME" (resolved under scripts/), or a bare NAME
# (resolved under scripts/configs/ first, so "nightly" is the config, never
# scripts/nightly itself). Returns 1 when there is none.
config_resolve() {
	case "$1" in
	*/*) set -- "$1" "$top/scripts/$1" ;;
	*) set -- "$top/scripts/configs/$1" "$PWD/$1" ;;
	esac
	for c in "$@"; do
		if [ -f "$c" ]; then
			printf '%s\n' "$c"
			return 0
		fi
	done
	return 1
}

# config_check FILE: a config is data, not a program. Accept only comment
# lines, blank lines and NAME=VALUE assignments of SWEEP_* variables
# (optionally after "export"), whose value is quoted plain text with no
# command substitution or expansion. Prints the first bad line and returns 1.
config_check() {
	awk '
	/^[ \t]*(#.*)?$/ { next }
	/^(export[ \t]+)?SWEEP_[A-Z0-9_]+="[^"`$\\]*"[ \t]*(#.*)?$/ { next }
	/^(export[ \t]+)?SWEEP_[A-Z0-9_]+=\047[^\047]*\047[ \t]*(#.*)?$/ { next }
	/^(export[ \t]+)?SWEEP_[A-Z0-9_]+=[A-Za-z0-9_.,:\/+=-]*[ \t]*(#.*)?$/ { next }
	{ printf "line %d: %s\n", NR, $0; bad = 1; exit }
	END { exit bad }' "$1"
}

# The settings a config may make besides its axes' values (SWEEP_ left off).
CONFIG_SETTINGS="ARGS AXES BASELINE COMMAND COMPARE_ARGS DESCRIPTION EXCLUDE HUGEPAGES INFO_METRICS JOBS METRICS \
NAME NOISE NOISE_RESAMPLES NOISE_SWEEPS ORDER_SEED PASSES RUNS RUN_SEED WARMUP"

# config_load FILE: check FILE, reset every SWEEP_* setting to its
# default, then read FILE. Validates the values; on error prints why and
# returns 2 (a usage error).
config_load() {
	cfg_file=$1
	if ! why=$(config_check "$cfg_file"); then
		error "config '$cfg_file' is not a plain SWEEP_*=value file: $why"
		case "$why" in
		*": SWEEP_"[A-Z0-9_]*=[!\"\']*)
			hint "quote a value that holds ';' or blanks, e.g. SWEEP_TLB=\"'l1d:64,4way,lru;l2:4096,8way,lru' l1d:96,full,lru\"" ;;
		esac
		return 2
	fi
	# Forget every setting of a config loaded before.
	for v in $(set | sed -n 's/^\(SWEEP_[A-Z0-9_]*\)=.*/\1/p'); do
		unset "$v"
	done
	SWEEP_NAME=$(basename "$cfg_file")
	SWEEP_DESCRIPTION=""
	SWEEP_COMMAND="run"
	SWEEP_AXES="tasks layout"
	SWEEP_EXCLUDE=""
	SWEEP_TASKS="1"
	SWEEP_LAYOUT="4k"
	SWEEP_ARGS=""
	SWEEP_PASSES=3
	SWEEP_RUNS=1
	SWEEP_WARMUP=1
	SWEEP_ORDER_SEED=""
	SWEEP_RUN_SEED=1
	SWEEP_METRICS="first-touch-faults"
	SWEEP_INFO_METRICS=""
	SWEEP_HUGEPAGES=0
	SWEEP_NOISE=1
	SWEEP_NOISE_RESAMPLES=200
	SWEEP_NOISE_SWEEPS=1
	SWEEP_BASELINE="last-7-nights"
	SWEEP_COMPARE_ARGS=""
	# shellcheck disable=SC1090 # the config is checked above
	case "$cfg_file" in
	*/*) . "$cfg_file" ;;
	*) . "./$cfg_file" ;; # '.' would search PATH for a bare name
	esac
	for v in "$SWEEP_PASSES" "$SWEEP_RUNS" "$SWEEP_WARMUP" "$SWEEP_RUN_SEED" \
		"$SWEEP_HUGEPAGES" "$SWEEP_NOISE" "$SWEEP_NOISE_RESAMPLES" "$SWEEP_NOISE_SWEEPS" ${SWEEP_ORDER_SEED:+"$SWEEP_ORDER_SEED"}; do
		case "$v" in
		'' | *[!0-9]*)
			error "config '$cfg_file': '$v' is not a whole number"
			return 2 ;;
		esac
	done
	if [ "$SWEEP_PASSES" -lt 1 ] || [ "$SWEEP_RUNS" -lt 1 ]; then
		error "config '$cfg_file': SWEEP_PASSES and SWEEP_RUNS must be at least 1"
		return 2
	fi
	case "$SWEEP_COMMAND" in
	run | sim) ;;
	*) error "config '$cfg_file': SWEEP_COMMAND must be run (this machine) or sim (the TLB model), not '$SWEEP_COMMAND'"; return 2 ;;
	esac
	[ -n "$SWEEP_AXES" ] || { error "config '$cfg_file': SWEEP_AXES is empty"; return 2; }
	sh_words "$SWEEP_ARGS" >/dev/null || {
		error "config '$cfg_file': SWEEP_ARGS: an unclosed quote or a backslash"
		return 2
	}
	for axis in $SWEEP_AXES; do
		case "$axis" in
		*[!a-z0-9-]*) error "config '$cfg_file': bad axis name '$axis'"; return 2 ;;
		esac
		sh_words "$(axis_values "$axis")" >/dev/null || {
			error "config '$cfg_file': $(axis_var "$axis"): an unclosed quote or a backslash"
			return 2
		}
		[ -n "$(axis_words "$axis")" ] || {
			error "config '$cfg_file': axis '$axis' has no values (set $(axis_var "$axis"))"
			return 2
		}
		case "$axis" in
		sharedctx | threads)
			for v in $(axis_words "$axis"); do
				axis_args "$axis" "$v" >/dev/null || {
					error "config '$cfg_file': axis '$axis' takes on or off, not '$v'"
					return 2
				}
			done ;;
		esac
		if [ "$axis" = layout ] && [ "$SWEEP_COMMAND" = sim ]; then
			error "config '$cfg_file': the layout axis is for SWEEP_COMMAND=run; the model takes --page-size"
			return 2
		fi
		if [ "$axis" = layout ]; then
			for l in $(axis_words layout); do
				layout_args "$l" >/dev/null || {
					error "config '$cfg_file': unknown layout '$l'"
					hint "layouts: 4k thp 2m-pud 2m-pmd 1g-pud 1g-pmd, optionally +shm +memfd +file"
					return 2
				}
			done
		fi
	done
	# a misspelt setting would be dropped without a word (SWEEP_TASK for
	# SWEEP_TASKS): every name set is a setting or an axis of SWEEP_AXES
	set_names=$(sed -n 's/^[ \t]*\(export[ \t]\{1,\}\)\{0,1\}\(SWEEP_[A-Z0-9_]*\)=.*/\2/p' "$cfg_file")
	for v in $set_names; do
		case " $CONFIG_SETTINGS " in *" ${v#SWEEP_} "*) continue ;; esac
		known=""
		for axis in $SWEEP_AXES; do
			[ "$v" != "$(axis_var "$axis")" ] || known=1
		done
		[ -z "$known" ] || continue
		error "config '$cfg_file': unknown setting $v (not a setting, nor the values of an axis of SWEEP_AXES: $SWEEP_AXES)"
		hint "the settings: sgabench-config(5); an axis's values are SWEEP_ and its name in capitals"
		return 2
	done
	exclude_check "$cfg_file" || return 2
	for m in $SWEEP_METRICS $SWEEP_INFO_METRICS; do
		case "$m" in
		*:*)
			error "config '$cfg_file': metric '$m': a metric is a bare name"
			hint "which way is better comes from the metric registry: sgabench metrics"
			return 2 ;;
		esac
	done
	return 0
}

# metric_lists "NAME ...": sets metrics (the names, comma-separated) and
# higher (those of them the metric registry says are better higher), as
# compare's --metric and --higher-better take them. Returns 1 when
# 'sgabench metrics' fails.
metric_lists() {
	metrics="" higher=""
	registry_higher=$("$SGABENCH" metrics --names --where direction=higher) || return 1
	registry_higher=" $(printf '%s' "$registry_higher" | tr '\n' ' ') "
	for m in $1; do
		metrics="$metrics${metrics:+,}$m"
		case "$registry_higher" in
		*" $m "*) higher="$higher${higher:+,}$m" ;;
		esac
	done
}

# axis_var AXIS: the config variable holding AXIS's values (sga-size ->
# SWEEP_SGA_SIZE).
axis_var() {
	printf 'SWEEP_%s\n' "$(printf '%s' "$1" | tr 'a-z-' 'A-Z_')"
}

# axis_values AXIS: the values of AXIS from the loaded config, as written.
axis_values() {
	eval "printf '%s\n' \"\${$(axis_var "$1"):-}\""
}

# axis_words AXIS: the values of AXIS, one per line: the config's text
# split by sh_words, so a value may hold commas, semicolons and, quoted,
# blanks (SWEEP_TLB="'l1d:64,4way,lru;l2:4096,8way,lru' l1d:96,full,lru").
axis_words() {
	sh_words "$(axis_values "$1")"
}

# sh_words STRING: STRING split into words as sh splits a command line,
# without any expansion: blanks separate words; '...' and "..." quote
# what they hold, taken as it is; quoted and plain parts side by side are
# one word. One word per line. An unclosed quote or a backslash outside
# quotes prints nothing and returns 1.
sh_words() {
	printf '%s\n' "$1" | awk '
	NR > 1 { bad = 1; exit }
	{
		n = length($0); w = ""; inw = 0; q = ""
		for (i = 1; i <= n; i++) {
			ch = substr($0, i, 1)
			if (q != "") { if (ch == q) q = ""; else w = w ch; continue }
			if (ch == "\047" || ch == "\"") { q = ch; inw = 1; continue }
			if (ch == " " || ch == "\t") { if (inw) word[nw++] = w; w = ""; inw = 0; continue }
			if (ch == "\\") { bad = 1; exit }
			w = w ch; inw = 1
		}
		if (q != "") { bad = 1; exit }
		if (inw) word[nw++] = w
	}
	END { if (bad) exit 1; for (i = 0; i < nw; i++) print word[i] }'
}

# sh_word WORD: WORD as one sh word: as it is when it holds only
# characters sh takes literally, else in single quotes.
sh_word() {
	case "$1" in
	'' | *[!A-Za-z0-9_.,:/+=@%-]*) printf "'%s'\n" "$(printf '%s' "$1" | sed "s/'/'\"'\"'/g")" ;;
	*) printf '%s\n' "$1" ;;
	esac
}

# layout_args LAYOUT: the sgabench options of a layout name: 4k, thp,
# 2m-pud, 2m-pmd, 1g-pud, 1g-pmd, each optionally followed by +shm, +memfd
# or +file. Returns 1 for an unknown name.
layout_args() {
	base=${1%%+*}
	backing=""
	case "$1" in
	*+shm) backing=" --backing shm" ;;
	*+memfd) backing=" --backing memfd" ;;
	*+file) backing=" --backing file" ;;
	*+*) return 1 ;;
	esac
	case "$base" in
	4k | thp) printf '%s\n' "--page-size $base$backing" ;;
	2m-pud | 2m-pmd | 1g-pud | 1g-pmd)
		printf '%s\n' "--page-size ${base%-*} --align ${base#*-}$backing" ;;
	*) return 1 ;;
	esac
}

# axis_args AXIS VALUE: the sgabench options for one axis value. The flag
# axes sharedctx and threads take on (the flag) or off (nothing); another
# value returns 1.
axis_args() {
	case "$1" in
	layout) layout_args "$2" ;;
	sharedctx | threads)
		case "$2" in
		on) printf '%s\n' "--$1" ;;
		off) printf '\n' ;;
		*) return 1 ;;
		esac ;;
	*) printf '%s\n' "--$1 $(sh_word "$2")" ;;
	esac
}

# exclude_check FILE: every word of SWEEP_EXCLUDE is one or more
# axis=value (a cell's words; quote a word of two), each axis one of
# SWEEP_AXES and each value one of its values; each word leaves out some
# cell no other word does (a word of two values of one axis matches no
# cell: a cell holds one); and some cell is left. So an exclusion that
# would leave out nothing is refused. Prints why and returns 1 otherwise.
exclude_check() {
	sh_words "${SWEEP_EXCLUDE:-}" >/dev/null || {
		error "config '$1': SWEEP_EXCLUDE: an unclosed quote or a backslash"
		return 1
	}
	sh_words "$SWEEP_EXCLUDE" | while IFS= read -r e; do
		kvs=$(sh_words "$e") && [ -n "$kvs" ] || {
			error "config '$1': SWEEP_EXCLUDE '$e': an unclosed quote or a backslash"
			exit 1
		}
		printf '%s\n' "$kvs" | while IFS= read -r kv; do
			axis=${kv%%=*}
			case "$kv" in
			*=*) ;;
			*) axis="" ;;
			esac
			case " $SWEEP_AXES " in
			*" ${axis:-?} "*) ;;
			*)
				error "config '$1': SWEEP_EXCLUDE '$e': '$kv' is not axis=value of an axis of SWEEP_AXES ($SWEEP_AXES)"
				exit 1 ;;
			esac
			axis_words "$axis" | grep -Fqx -- "${kv#*=}" || {
				error "config '$1': SWEEP_EXCLUDE '$e': '${kv#*=}' is not a value of axis '$axis' ($(axis_values "$axis"))"
				exit 1
			}
		done || exit 1
	done || return 1
	[ -n "$SWEEP_EXCLUDE" ] || return 0
	matches=$(exclude_matches)
	# the first word that leaves out no cell: "N none", or "N others" when
	# every cell it holds another word leaves out too
	idle=$(printf '%s\n' "$matches" | awk -F'\t' -v nw="$(sh_words "$SWEEP_EXCLUDE" | wc -l)" '
	{ n = split($1, w, " "); for (i = 1; i <= n; i++) { cnt[w[i]]++; if (n == 1) own[w[i]]++ } }
	END { for (i = 1; i <= nw; i++) if (!cnt[i] || !own[i]) { print i, cnt[i] ? "others" : "none"; exit } }')
	if [ -n "$idle" ]; then
		e=$(sh_words "$SWEEP_EXCLUDE" | sed -n "${idle% *}p")
		if [ "${idle#* }" = others ]; then
			error "config '$1': SWEEP_EXCLUDE '$e' leaves out no cell that another of its words does not"
			hint "drop the word, or say what it should leave out"
			return 1
		fi
		twice=$(sh_words "$e" | sed 's/=.*//' | sort | uniq -d | head -n 1)
		[ -z "$twice" ] || twice=" (a cell holds one value of axis '$twice')"
		error "config '$1': SWEEP_EXCLUDE '$e' matches no cell$twice"
		hint "a word leaves out the cells that hold all its axis=value; to leave out each, make them words of their own: SWEEP_EXCLUDE=\"$(sh_words "$e" | tr '\n' ' ' | sed 's/ $//')\""
		return 1
	fi
	printf '%s\n' "$matches" | grep -q '^	' || {
		error "config '$1': SWEEP_EXCLUDE leaves no cell to run"
		return 1
	}
}

# exclude_matches: each cell of the cross product (config_product), a
# line "WORDS<TAB>CELL": WORDS the numbers (from 1) of the words of
# SWEEP_EXCLUDE that leave it out, blank-separated, empty for a cell run.
exclude_matches() {
	# one exclusion a line, its axis=value words joined by a unit separator
	ex=$(sh_words "${SWEEP_EXCLUDE:-}" | while IFS= read -r e; do
		sh_words "$e" | awk 'NF { printf "%s%s", sep, $0; sep = "\037" } END { print "" }'
	done)
	config_product | while IFS= read -r c; do
		m=$(printf '%s\n' "$ex" | kvs=$(sh_words "$c") awk -F'\037' '
			BEGIN { n = split(ENVIRON["kvs"], a, "\n"); for (i = 1; i <= n; i++) has[a[i]] = 1 }
			NF { all = 1; for (i = 1; i <= NF; i++) if (!($i in has)) all = 0
			     if (all) { printf "%s%d", sep, NR; sep = " " } }
			END { print "" }')
		printf '%s\t%s\n' "$m" "$c"
	done
}

# exclude_summary: the cells of the loaded config in words, "N of M cells
# (K excluded by SWEEP_EXCLUDE: 3 by 'machine=x sharedctx=on', ...)", or
# "M cells" when it excludes none.
exclude_summary() {
	if [ -z "${SWEEP_EXCLUDE:-}" ]; then
		printf '%s cells\n' "$(config_product | grep -c .)"
		return
	fi
	exclude_matches | awk -F'\t' -v words="$(sh_words "$SWEEP_EXCLUDE")" '
	{ m++; if ($1 == "") left++; n = split($1, w, " "); for (i = 1; i <= n; i++) cnt[w[i]]++ }
	END {
		nw = split(words, W, "\n"); s = ""
		for (i = 1; i <= nw; i++) s = s (i > 1 ? ", " : "") cnt[i] + 0 " by \047" W[i] "\047"
		printf "%d of %d cells (%d excluded by SWEEP_EXCLUDE: %s)\n", left, m, m - left, s
	}'
}

# exclude_warn: a warning for each axis value SWEEP_EXCLUDE leaves out
# whole (every cell of machine=x): legal, but likely a word of two pairs
# written as two words; the hint shows the quotes. Prints nothing else.
exclude_warn() {
	[ -n "${SWEEP_EXCLUDE:-}" ] || return 0
	run=$(config_cells | while IFS= read -r c; do sh_words "$c"; done | sort -u)
	singles=$(sh_words "$SWEEP_EXCLUDE" | grep -v '[ 	]' || true)
	for axis in $SWEEP_AXES; do
		axis_words "$axis" | while IFS= read -r v; do
			! printf '%s\n' "$run" | grep -Fqx -- "$axis=$v" || continue
			pair="$axis=$(sh_word "$v")"
			other=$(printf '%s\n' "$singles" | grep -v "^$axis=" | head -n 1)
			if [ -z "$other" ]; then
				for a in $SWEEP_AXES; do
					[ -n "$other" ] || [ "$a" = "$axis" ] || other="$a=$(axis_words "$a" | head -n 1)"
				done
			fi
			# the two pairs in the order of SWEEP_AXES, as a cell has them
			word="$pair $other"
			case " $SWEEP_AXES " in
			*" ${other%%=*} "*"$axis "*) word="$other $pair" ;;
			esac
			warning "SWEEP_EXCLUDE leaves out every cell of $pair: no run has that value"
			if [ -n "$other" ]; then
				hint "a word of two pairs leaves out only the cells holding both; quote it as one word: SWEEP_EXCLUDE=\"'$word'\""
			else
				hint "or drop '$v' from $(axis_var "$axis")"
			fi
		done
	done
}

# config_product: the whole cross product of the loaded config's axes,
# one cell a line, as config_cells writes them, no cell left out.
config_product() {
	cells=""
	for axis in $SWEEP_AXES; do
		vals=$(axis_words "$axis" | while IFS= read -r v; do sh_word "$v"; done)
		cells=$(printf '%s\n' "$cells" | while IFS= read -r c; do
			printf '%s\n' "$vals" | while IFS= read -r v; do
				printf '%s\n' "${c:+$c }$axis=$v"
			done
		done)
	done
	printf '%s\n' "$cells"
}

# config_cells: every cell of the loaded config, one per line, as
# "axis=value axis=value ..." in the order of SWEEP_AXES (the cross
# product, less the cells SWEEP_EXCLUDE leaves out), each value a word of
# sh (sh_word: quoted when it must be).
config_cells() {
	if [ -z "${SWEEP_EXCLUDE:-}" ]; then
		config_product
		return
	fi
	exclude_matches | awk -F'\t' '$1 == "" { print substr($0, 2) }'
}

# cell_args CELL: the sgabench options of a cell ("tasks=4 layout=4k"),
# after the config's fixed SWEEP_ARGS, as a command line for sh: every
# word that needs quotes quoted (a value "a;b" stays one argument).
cell_args() {
	{
		sh_words "$SWEEP_ARGS" | while IFS= read -r w; do sh_word "$w"; done
		sh_words "$1" | while IFS= read -r kv; do axis_args "${kv%%=*}" "${kv#*=}"; done
	} | awk 'NF { printf "%s%s", sep, $0; sep = " " } END { print "" }'
}

# plan_order SEED: the interleaved run order of the loaded config: for each
# of SWEEP_PASSES passes, every cell once, shuffled with SEED + pass. Lines
# are "PASS<TAB>CELL".
plan_order() {
	p=1
	while [ "$p" -le "$SWEEP_PASSES" ]; do
		config_cells | shuffle $(($1 + p)) | sed "s/^/$p	/"
		p=$((p + 1))
	done
}
