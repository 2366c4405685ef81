# lib.sh - shell functions shared by the harness (scripts/sweep, nightly,
# main-job, hugepages) and report/mkreport. POSIX sh; source it with
#   . "$top/scripts/lib.sh"
# after setting $top to the repository root. Nothing here exits on its own
# except die(), which the callers use for their own errors.
# shellcheck shell=sh
# shellcheck disable=SC2034 # settings and SGABENCH are read by the sourcing scripts
# shellcheck disable=SC2120,SC2119 # the escapers take an optional argument

SGABENCH=${SGABENCH_BIN:-"$top/bench/sgabench"}
prog=${prog:-$(basename "$0")}
# sort, join and awk's numbers read and write the same on every machine:
# byte order and a decimal point, whatever the user's locale.
LC_ALL=C
export LC_ALL

# Messages in the house style: lowercase, no full stop, quoted subjects.
error() { printf '%s: error: %s\n' "$prog" "$*" >&2; }
warning() { printf '%s: warning: %s\n' "$prog" "$*" >&2; }
hint() { printf '%s: hint: %s\n' "$prog" "$*" >&2; }
note() { printf '%s: %s\n' "$prog" "$*" >&2; }

# die CODE MESSAGE: print an error and exit with CODE (0 ok, 1 failure,
# 2 usage, 3 resource missing).
die() {
	code=$1
	shift
	error "$*"
	exit "$code"
}

# usage_text FILE: the header comment of a script from its "# usage:" line
# to the comment's end (the "# exit:" lines included, however many), without
# the comment marks (what --help prints).
usage_text() {
	awk '/^# usage:/ { p = 1 } p && !/^#/ { exit } p' "$1" | sed 's/^# \{0,1\}//'
}

# hugepages_free: the free 2 MiB hugepages right now.
hugepages_free() {
	awk '/^HugePages_Free:/ { print $2 }' /proc/meminfo
}

# hugepages_short WHO N: 0 when at least N 2 MiB hugepages are free; else
# print "WHO needs N free 2 MiB hugepages, F are free; as root: scripts/
# hugepages reserve N" (the message and its exact fix) and return 1.
hugepages_short() {
	hp_free=$(hugepages_free)
	[ "$hp_free" -lt "$2" ] || return 0
	printf '%s needs %s free 2 MiB hugepages, %s are free; as root: scripts/hugepages reserve %s\n' \
		"$1" "$2" "$hp_free" "$2"
	return 1
}

# db_lock DB SECONDS: one sweep or nightly job at a time per database: take
# the lock on DB's .lock file (on file descriptor 9, held until the caller
# exits), waiting at most SECONDS, and saying so when it has to wait.
# Returns 1 on a timeout.
db_lock() {
	_lock=$(db_lock_file "$1")
	mkdir -p "$(dirname "$_lock")"
	exec 9>>"$_lock"
	flock -n 9 && return 0
	note "waiting for '$_lock' (another sweep or nightly job is using '$(db_shown "$1")')"
	flock -w "$2" 9
}

# db_is_server DB: whether DB is a PostgreSQL URI rather than an SQLite file.
db_is_server() {
	case "$1" in postgresql://* | postgres://*) return 0 ;; *) return 1 ;; esac
}

# db_lock_file DB: the lock of DB: next to an SQLite file; for a server,
# which many machines share, one per machine: results/server.lock here
# (SGABENCH_LOCK_DIR/server.lock when set: an installed sgabench-sweep's).
db_lock_file() {
	if db_is_server "$1"; then
		echo "${SGABENCH_LOCK_DIR:-$top/results}/server.lock"
	else
		echo "${1%.db}.lock"
	fi
}

# db_shown DB: DB for messages: a server URI's password as ***.
db_shown() {
	printf '%s\n' "$1" | sed 's|^\(postgres[a-z]*://[^:/@]*:\)[^@/]*@|\1***@|'
}

# db_default: the database of a script given no --db, as every sgabench
# command's: SGABENCH_DB, else results/sgabench.db under the checkout.
db_default() {
	printf '%s\n' "${SGABENCH_DB:-$top/results/sgabench.db}"
}

# db_dir_ok DB: 0 when DB is a server or an SQLite file whose directory
# exists (the checkout's own results/ is created); else print the error
# and the mkdir that fixes it, as 'sgabench run' does, and return 1. No
# other directory is made: a mistyped path must not become one (as root,
# anywhere).
db_dir_ok() {
	db_is_server "$1" && return 0
	_dir=$(dirname "$1")
	if [ "$1" = "$top/results/sgabench.db" ]; then
		mkdir -p "$_dir"
		return 0
	fi
	[ -d "$_dir" ] && return 0
	error "cannot use database '$1': its directory does not exist"
	hint "create it first: mkdir -p '$_dir'"
	return 1
}

# machine_name: this machine's name as sgabench stores it with every run:
# SGABENCH_MACHINE, else the hostname. Returns 1 (printing nothing) when
# it is not 1-63 of A-Z a-z 0-9 . _ - (sgabench would not take it).
machine_name() {
	_m=${SGABENCH_MACHINE:-$(uname -n)}
	case "$_m" in '' | *[!A-Za-z0-9._-]*) return 1 ;; esac
	[ "${#_m}" -le 63 ] || return 1
	printf '%s\n' "$_m"
}

# db_abs DB: an SQLite path made absolute; a server URI as it is.
db_abs() {
	case "$1" in
	/*) echo "$1" ;;
	*) if db_is_server "$1"; then echo "$1"; else echo "$PWD/$1"; fi ;;
	esac
}

# html_escape [STRING]: escape & < > " ' for HTML text and attribute values.
# With an argument, escapes it; without, filters stdin to stdout. Tabs,
# newlines and every other byte pass through unchanged.
html_escape() {
	if [ $# -gt 0 ]; then
		printf '%s\n' "$1" | html_escape
		return
	fi
	sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' \
		-e 's/"/\&quot;/g' -e "s/'/\\&#39;/g"
}

# md_escape [STRING]: make a string safe inside a Markdown table cell: HTML
# escaped (Markdown renders raw HTML), and | \ ` * _ [ ] escaped.
md_escape() {
	if [ $# -gt 0 ]; then
		printf '%s\n' "$1" | md_escape
		return
	fi
	# shellcheck disable=SC2016 # backquote is data
	html_escape | sed -e 's/\\/\\\\/g' -e 's/|/\\|/g' -e 's/`/\\`/g' \
		-e 's/\*/\\*/g' -e 's/_/\\_/g' -e 's/\[/\\[/g' -e 's/\]/\\]/g'
}

# sql_quote STRING: STRING as an SQL string literal ('it''s').
sql_quote() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"
}

# shuffle SEED: print the lines of stdin in a pseudo-random order that
# depends only on SEED (Fisher-Yates driven by the MINSTD generator,
# x = x * 48271 mod 2^31-1, exact in awk's doubles), so the same seed
# gives the same order on every machine and every awk.
shuffle() {
	awk -v seed="$1" '
	{ line[n++] = $0 }
	END {
		x = seed % 2147483647
		if (x <= 0)
			x += 2147483646
		for (i = n - 1; i > 0; i--) {
			x = (x * 48271) % 2147483647
			j = x % (i + 1)
			t = line[i]; line[i] = line[j]; line[j] = t
		}
		for (i = 0; i < n; i++)
			print line[i]
	}'
}

# new_seed: a fresh 31-bit seed from the kernel's random pool.
new_seed() {
	od -An -N4 -tu4 /dev/urandom | awk '{ print $1 % 2147483647 + 1 }'
}

# new_uuid: a random UUID (v4), from the kernel.
new_uuid() {
	cat /proc/sys/kernel/random/uuid
}

# now_iso: the current time, ISO 8601 UTC.
now_iso() {
	date -u +%Y-%m-%dT%H:%M:%SZ
}

# fmt_secs N: N seconds as "1m05s" or "42s".
fmt_secs() {
	awk -v s="$1" 'BEGIN {
		s = int(s + 0.5)
		if (s >= 60) printf "%dm%02ds\n", s / 60, s % 60
		else printf "%ds\n", s
	}'
}

# ---- configs -------------------------------------------------------------

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

# config_cells: every cell of the loaded config, one per line, as
# "axis=value axis=value ..." in the order of SWEEP_AXES (the cross
# product), each value a word of sh (sh_word: quoted when it must be).
config_cells() {
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

# ---- databases -----------------------------------------------------------

# db_ensure DB: create DB with the current schema when it does not exist yet.
db_ensure() {
	"$SGABENCH" db init --db "$1"
}

# db_query DB NAME [ARG...]: a named query of 'sgabench db query' (the
# list: sgabench db query --list); tab-separated rows.
db_query() {
	_db=$1
	shift
	"$SGABENCH" db query --db "$_db" -- "$@"
}

# db_exec DB NAME [ARG...] | DB --stdin: a named write of 'sgabench db exec'
# (sgabench db exec --list), or "NAME<TAB>ARG..." lines from stdin, in one
# transaction.
db_exec() {
	_db=$1
	shift
	if [ "$1" = --stdin ]; then
		"$SGABENCH" db exec --db "$_db" --stdin
	else
		"$SGABENCH" db exec --db "$_db" -- "$@"
	fi
}

# kill_tree PID: stop PID and every process below it (found by parent id,
# pgrep -P), top down so that none starts another, then end them all with
# SIGTERM, which lets each clean up (segments, pools, databases). A script
# runs its children in the background for this: there a shell ignores
# SIGINT, so Ctrl-C alone would not end them, and a signal's trap runs at
# once instead of after the foreground child.
# shellcheck disable=SC2317 # called by traps
kill_tree() {
	kill -STOP "$1" 2>/dev/null || return 0
	for _child in $(pgrep -P "$1" 2>/dev/null); do
		kill_tree "$_child"
	done
	kill -TERM "$1" 2>/dev/null
	kill -CONT "$1" 2>/dev/null || :
}
