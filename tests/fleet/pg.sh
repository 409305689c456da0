# SPDX-License-Identifier: GPL-2.0-or-later
#
# pg.sh - a real PostgreSQL server of our own for the fleet's tests and
# speed script (sourced): Debian's postgresql (initdb and pg_ctl), in a
# temporary directory, on a Unix socket there only (no TCP port), trust
# authentication for the local socket but for the roles a test gives a
# password. As root, the server runs as the postgres user (initdb refuses
# root).
#
#   pg_start          PGDIR, PGHOST (the socket's directory), PGPORT, PGUSER
#                     set and exported; the database "ukb" made
#   pg_stop           stops it and removes the directory (every exit path:
#                     the caller traps EXIT)
#   pg_psql SQL...    runs SQL as the superuser
#   pg_uri [USER]     the URI of database ukb as USER (default postgres)
#   pg_fleet UKBENCH  the roles ukb_push and ukb_read made, the fleet's schema
#                     made by UKBENCH (the binary), granted to them; W and R
#                     set to their URIs, PGDB to ukb

pg_bindir() {
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -n -r); do
		[ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && { echo "$d"; return 0; }
	done
	return 1
}

# runs "$@" as the server's owner
pg_as() {
	if [ "$(id -u)" = 0 ]; then
		(cd / && runuser -u postgres -- "$@")
	else
		"$@"
	fi
}

pg_start() {
	PGBIN=$(pg_bindir) || { echo "pg.sh: no PostgreSQL server binaries (postgresql-15)" >&2; return 1; }
	PGDIR=$(mktemp -d "${PGTMP:-/tmp}/ukbench-pg.XXXXXX") || return 1
	chmod 755 "$PGDIR"
	[ "$(id -u)" = 0 ] && chown postgres "$PGDIR"
	pg_as "$PGBIN/initdb" -D "$PGDIR/data" -A trust -U postgres -E UTF8 --locale=C \
		${PG_NOSYNC:+--no-sync} >"$PGDIR/initdb.log" 2>&1 || { cat "$PGDIR/initdb.log" >&2; return 1; }
	# the roles given a password must give it; all others are trusted
	printf 'local all pwuser scram-sha-256\nlocal all all trust\n' | pg_as tee "$PGDIR/data/pg_hba.conf" >/dev/null
	PGPORT=$((20000 + $$ % 20000))
	pg_resume || { cat "$PGDIR/server.log" >&2; return 1; }
	PGHOST=$PGDIR
	PGUSER=postgres
	export PGHOST PGPORT PGUSER PGDIR PGBIN
	pg_psql "CREATE DATABASE ukb" >/dev/null
}

pg_psql() {
	"$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PGHOST" -p "$PGPORT" -U postgres -d "${PGDB:-postgres}" -At -c "$*"
}

# the same, the statements read from standard input (longer than an argument may be)
pg_psql_in() {
	"$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PGHOST" -p "$PGPORT" -U postgres -d "${PGDB:-postgres}" -At
}

pg_uri() {
	echo "postgresql:///ukb?host=$PGHOST&port=$PGPORT&user=${1:-postgres}"
}

pg_fleet() {
	pg_psql "CREATE ROLE ukb_push LOGIN; CREATE ROLE ukb_read LOGIN" >/dev/null || return 1
	PGDB=ukb
	"$1" fleet-init --db "$(pg_uri)" --writer ukb_push --reader ukb_read >/dev/null || return 1
	W=$(pg_uri ukb_push)
	R=$(pg_uri ukb_read)
}

# stops the server and keeps its directory (pg_stop removes it)
pg_halt() {
	pg_as "$PGBIN/pg_ctl" -D "$PGDIR/data" -m fast -w stop >/dev/null 2>&1
}

# is it up? (pg_ctl status: 0 when it runs)
pg_running() {
	pg_as "$PGBIN/pg_ctl" -D "$PGDIR/data" status >/dev/null 2>&1
}

# starts it on its socket (again, after pg_halt)
pg_resume() {
	pg_as "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/server.log" -w -t 60 \
		-o "-k $PGDIR -c listen_addresses= -p $PGPORT ${PG_NOSYNC:+-c fsync=off -c synchronous_commit=off}" \
		start >/dev/null
}

pg_stop() {
	[ -n "${PGDIR:-}" ] || return 0
	pg_as "$PGBIN/pg_ctl" -D "$PGDIR/data" -m immediate -w stop >/dev/null 2>&1
	rm -rf "$PGDIR"
	PGDIR=
}
