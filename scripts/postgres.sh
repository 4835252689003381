#!/usr/bin/env bash
# Installs (Debian's packages) and starts a PostgreSQL server for tests and development: loopback
# only, its own cluster under $UKCD_PG_DIR, owned by the unprivileged `postgres` user. Idempotent:
# when the server already answers, it only prints the URL.
#
#   scripts/postgres.sh          -> prints DATABASE_URL for the test database
#   scripts/postgres.sh stop
#
# With UKCD_PG_REPLICA_OF=<port of a server started by this script>, the cluster is instead a hot
# standby of that server (pg_basebackup, streaming replication), and the URL printed is the
# standby's, for DATABASE_READ_URL.
set -euo pipefail

PORT="${UKCD_PG_PORT:-54329}"
DIR="${UKCD_PG_DIR:-/var/tmp/ukcd-postgres}"
DB="${UKCD_PG_DB:-ukcd_test}"
PRIMARY_PORT="${UKCD_PG_REPLICA_OF:-}"
URL="postgres://ukcd:ukcd@127.0.0.1:${PORT}/${DB}"

as_postgres() {
  if [ "$(id -un)" = postgres ]; then "$@"; else runuser -u postgres -- "$@"; fi
}

bin_dir() {
  local pg_config
  pg_config=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$pg_config" ] && echo "$pg_config"
}

if [ "${1:-}" = stop ]; then
  BIN=$(bin_dir) || exit 0
  [ -f "$DIR/data/PG_VERSION" ] && as_postgres "$BIN/pg_ctl" -D "$DIR/data" -m fast stop >/dev/null 2>&1 || true
  exit 0
fi

if ! BIN=$(bin_dir) || [ ! -x "$BIN/initdb" ]; then
  echo "installing PostgreSQL from Debian's packages..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
  BIN=$(bin_dir)
fi

if ! "$BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT"; then
  mkdir -p "$DIR"
  chown postgres:postgres "$DIR"
  if [ ! -f "$DIR/data/PG_VERSION" ] && [ -n "$PRIMARY_PORT" ]; then
    # A copy of the primary that keeps following it; -R writes its primary_conninfo and standby.signal.
    as_postgres "$BIN/pg_basebackup" -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -D "$DIR/data" -R -X stream -c fast
    cat >>"$DIR/data/postgresql.conf" <<CONF
port = $PORT
unix_socket_directories = '$DIR'
hot_standby = on
CONF
  elif [ ! -f "$DIR/data/PG_VERSION" ]; then
    as_postgres "$BIN/initdb" -D "$DIR/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
    cat >>"$DIR/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $PORT
unix_socket_directories = '$DIR'
shared_buffers = 512MB
max_wal_size = 4GB
max_connections = 100
fsync = on
CONF
  fi
  as_postgres "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 start >/dev/null
fi

if [ -n "$PRIMARY_PORT" ]; then
  # A standby is read-only: its roles and databases are the primary's.
  echo "$URL"
  exit 0
fi

psql_admin() { "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -v ON_ERROR_STOP=1 -qAt "$@"; }
if [ "$(psql_admin -c "select 1 from pg_roles where rolname = 'ukcd'")" != 1 ]; then
  psql_admin -c "create role ukcd login password 'ukcd' createdb" >/dev/null
fi
# Tests drop their databases WITH (FORCE), which must be able to end an autovacuum worker.
psql_admin -c "grant pg_signal_backend to ukcd" >/dev/null
if [ "$(psql_admin -c "select 1 from pg_database where datname = '$DB'")" != 1 ]; then
  psql_admin -c "create database $DB owner ukcd" >/dev/null
fi
echo "$URL"
