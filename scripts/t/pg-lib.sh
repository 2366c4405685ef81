# pg-lib.sh - a throw-away PostgreSQL server for the tests, sourced after
# test-lib.sh. POSIX sh.
# shellcheck shell=sh
#
#   pg_start || skip_all "$pg_why"   # sets $PG_URI, $PG_SOCK, $PG_PASSWORD
#   psql_pg "SELECT 1"                # one statement as the superuser
#
# pg_start runs initdb and pg_ctl from $PG_BIN as the postgres user, in a
# fresh directory under /tmp (the postgres user cannot enter $TMPD). The
# server listens only on a Unix socket in that directory (no TCP), asks
# every connection for a password (scram-sha-256), and holds one role and
# one database, both "sgabench", as a team's server would. test_atexit
# stops it (immediate shutdown) and removes the directory, so nothing is
# left running. Needs root, the postgres user and Debian's postgresql.

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PG_PASSWORD=sgabench-test
pg_why=""

# pg_as CMD [ARGS]: run CMD as the postgres user.
pg_as() {
	setpriv --reuid=postgres --regid=postgres --init-groups "$@"
}

# pg_start: start the server; 1 with $pg_why set when it cannot run here.
pg_start() {
	[ "$(id -u)" -eq 0 ] || { pg_why="needs root to run the server as postgres"; return 1; }
	for b in initdb pg_ctl; do
		[ -x "$PG_BIN/$b" ] || { pg_why="$PG_BIN/$b not installed (Debian postgresql)"; return 1; }
	done
	command -v psql >/dev/null 2>&1 || { pg_why="psql not installed (Debian postgresql-client)"; return 1; }
	command -v setpriv >/dev/null 2>&1 || { pg_why="setpriv not installed"; return 1; }
	id postgres >/dev/null 2>&1 || { pg_why="no postgres user"; return 1; }
	PG_DIR=$(mktemp -d /tmp/sgabench-pg.XXXXXX) || { pg_why="mktemp failed"; return 1; }
	test_atexit pg_stop
	PG_SOCK=$PG_DIR/sock
	if ! { mkdir "$PG_SOCK" && printf '%s\n' "$PG_PASSWORD" >"$PG_DIR/pw" &&
		chown -R postgres:postgres "$PG_DIR" && chmod 711 "$PG_DIR"; }; then
		pg_why="cannot prepare $PG_DIR"
		return 1
	fi
	if ! pg_as "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres --pwfile="$PG_DIR/pw" \
		--auth=scram-sha-256 -E UTF8 --locale=C >"$PG_DIR/initdb.log" 2>&1; then
		pg_why="initdb failed: $(tail -n 1 "$PG_DIR/initdb.log")"
		return 1
	fi
	if ! pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
		-o "-c listen_addresses='' -k $PG_SOCK -c fsync=off -c shared_buffers=16MB -c max_connections=40 -c huge_pages=off" \
		start >/dev/null 2>&1; then
		pg_why="pg_ctl start failed: $(tail -n 1 "$PG_DIR/server.log" 2>/dev/null)"
		return 1
	fi
	if ! { psql_pg "CREATE ROLE sgabench LOGIN PASSWORD '$PG_PASSWORD'" &&
		psql_pg "CREATE DATABASE sgabench OWNER sgabench"; }; then
		pg_why="cannot create the role and database"
		return 1
	fi
	PG_URI="postgresql://sgabench:$PG_PASSWORD@/sgabench?host=$PG_SOCK"
}

# psql_pg SQL [DB]: run SQL as the superuser (in DB, default sgabench once
# created), unaligned, tuples only.
psql_pg() {
	PGPASSWORD=$PG_PASSWORD psql -X -q -At -v ON_ERROR_STOP=1 -h "$PG_SOCK" -U postgres \
		-d "${2:-postgres}" -c "$1"
}

# pg_stop: stop the server (immediate) and remove its directory.
pg_stop() {
	[ -n "${PG_DIR:-}" ] || return 0
	if [ -f "$PG_DIR/data/postmaster.pid" ]; then
		pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
	fi
	rm -rf "$PG_DIR"
	PG_DIR=""
}
