#!/usr/bin/env bash
# Usage: bash scripts/with-postgres.sh CMD [ARGS...]
#
# Starts a throwaway PostgreSQL 15 on a free loopback port in a temporary
# directory, creates the database `kathamala_test`, runs CMD with
#   DATABASE_URL=postgres://postgres@127.0.0.1:<port>/kathamala_test
# (and PGHOST/PGPORT/PGUSER/PGDATABASE to match), then always stops the server
# and removes the directory. Exits with CMD's status.
#
# WITH_POSTGRES_OPTIONS adds server settings (e.g. "-c shared_preload_libraries=pg_stat_statements").
#
# Durability is switched off (fsync, synchronous_commit, full_page_writes): the
# data is thrown away anyway. initdb refuses to run as root, so as root the
# server runs as the `postgres` user created by Debian's postgresql package.
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: $0 CMD [ARGS...]" >&2
  exit 2
fi

PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
if [ ! -x "$PG_BIN/initdb" ]; then
  echo "with-postgres: $PG_BIN/initdb not found (apt-get install -y postgresql)" >&2
  exit 1
fi

as_pg() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

PG_TMP="$(mktemp -d /tmp/kathamala-pg.XXXXXX)"
PG_DATA="$PG_TMP/data"
PG_LOG="$PG_TMP/postgres.log"
PG_STARTED=0

cleanup() {
  local status=$?
  if [ "$PG_STARTED" -eq 1 ]; then
    as_pg "$PG_BIN/pg_ctl" -D "$PG_DATA" -m immediate -w -t 30 stop >/dev/null 2>&1 || true
    # Belt and braces: if pg_ctl could not stop it, kill the postmaster by its pid.
    if [ -f "$PG_DATA/postmaster.pid" ]; then
      local pid
      pid="$(head -n 1 "$PG_DATA/postmaster.pid" 2>/dev/null || true)"
      if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        kill -QUIT "$pid" 2>/dev/null || true
        sleep 1
        kill -KILL "$pid" 2>/dev/null || true
      fi
    fi
  fi
  rm -rf "$PG_TMP"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ "$(id -u)" -eq 0 ]; then
  chown postgres: "$PG_TMP"
fi

free_port() {
  node -e '
    const s = require("node:net").createServer();
    s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });
  '
}

as_pg "$PG_BIN/initdb" -D "$PG_DATA" -U postgres -A trust \
  --locale=C.UTF-8 --encoding=UTF8 --no-sync >"$PG_TMP/initdb.log" 2>&1 || {
  echo "with-postgres: initdb failed:" >&2
  cat "$PG_TMP/initdb.log" >&2
  exit 1
}

# The free port may be taken between probing and binding: retry a few times.
PG_PORT=""
for attempt in 1 2 3 4 5; do
  port="$(free_port)"
  PG_STARTED=1
  if as_pg "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$PG_LOG" -w -t 60 -s start \
    -o "-c listen_addresses=127.0.0.1 -k $PG_TMP -p $port -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 ${WITH_POSTGRES_OPTIONS:-}" \
    >/dev/null 2>&1; then
    PG_PORT="$port"
    break
  fi
  PG_STARTED=0
  echo "with-postgres: start on port $port failed (attempt $attempt)" >&2
done
if [ -z "$PG_PORT" ]; then
  echo "with-postgres: could not start PostgreSQL; log:" >&2
  tail -n 40 "$PG_LOG" >&2 || true
  exit 1
fi

for _ in $(seq 1 100); do
  if "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" -U postgres; then
    break
  fi
  sleep 0.1
done
"$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" -U postgres || {
  echo "with-postgres: server not ready; log:" >&2
  tail -n 40 "$PG_LOG" >&2 || true
  exit 1
}

"$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres kathamala_test

export DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/kathamala_test"
# libpq defaults too, so `psql` (and `psql "$DATABASE_URL"` expanded too early,
# i.e. `psql ""`) reach the same database.
export PGHOST=127.0.0.1 PGPORT="$PG_PORT" PGUSER=postgres PGDATABASE=kathamala_test
echo "with-postgres: PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PG_PORT (database kathamala_test)" >&2

set +e
"$@"
cmd_status=$?
set -e
exit "$cmd_status"
