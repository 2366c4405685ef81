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

# hugepages_free: the 2 MiB hugepages free for a new mapping right now:
# HugePages_Free less HugePages_Rsvd, the free pages other processes have
# mapped (reserved) and not yet touched. Test knob: SGABENCH_TEST_MEMINFO
# replaces /proc/meminfo.
hugepages_free() {
	awk '/^HugePages_Free:/ { f = $2 } /^HugePages_Rsvd:/ { r = $2 } END { print f - r }' \
		"${SGABENCH_TEST_MEMINFO:-/proc/meminfo}"
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

# db_shown DB: DB for messages: a server URI's password (user:PASSWORD@
# or password=PASSWORD) as ***.
db_shown() {
	printf '%s\n' "$1" | sed -e 's|^\(postgres[a-z]*://[^:/@]*:\)[^@/]*@|\1***@|' \
		-e 's/\([?&]password=\)[^&]*/\1***/'
}

# db_rerun DB: DB for a command printed to be run again, as one sh word
# (quoted when it holds '&' or '?'): a server URI without its password
# (there, libpq takes it from PGPASSWORD or the PGPASSFILE/.pgpass file, as
# the nightly service does), never a mask that would be sent as the password.
db_rerun() {
	sh_word "$(printf '%s\n' "$1" | sed -e 's|^\(postgres[a-z]*://[^:/@]*\):[^@/]*@|\1@|' \
		-e 's/\([?&]\)password=[^&]*&\{0,1\}/\1/; s/[?&]$//')"
}

# db_default: the database of a script given no --db, as every sgabench
# command's: SGABENCH_DB, else results/sgabench.db under the checkout.
db_default() {
	printf '%s\n' "${SGABENCH_DB:-$top/results/sgabench.db}"
}

# db_dir_ok DB: 0 when DB is a server or an SQLite file whose directory
# exists (the checkout's own results/ is created); else print the error
# and the mkdir that fixes it, as 'sgabench run' does, and return 3 (a
# missing resource); 2 for an address of another scheme (a usage error).
# No other directory is made: a mistyped path must not become one (as
# root, anywhere).
db_dir_ok() {
	db_is_server "$1" && return 0
	# an address of another scheme (postgressql://) is no file to make: 2
	case "$1" in
	*://* | postgres:* | postgresql:*)
		error "'$1' is not a database address"
		hint "a server is postgresql://[USER@][HOST][:PORT]/DATABASE (or postgres://); an SQLite database is a file's path"
		return 2 ;;
	esac
	_dir=$(dirname "$1")
	if [ "$1" = "$top/results/sgabench.db" ]; then
		mkdir -p "$_dir"
		return 0
	fi
	[ -d "$_dir" ] && return 0
	error "cannot use database '$1': its directory does not exist"
	hint "create it first: mkdir -p '$_dir'"
	return 3
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
	/* | *://*) echo "$1" ;;
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

# ---- configs: scripts/config.sh -------------------------------------------

# shellcheck source=scripts/config.sh
. "$top/scripts/config.sh"

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
