#!/usr/bin/env bash
# Makes sure the services the tests talk to are running on this machine, starting them
# where they are absent: PostgreSQL on 127.0.0.1:5432 (trust authentication, database
# "test"; the tests make a database of their own in it) and Redis on 127.0.0.1:6379. The
# cluster tests also start private redis-server processes of their own (the binary must be
# installed). Idempotent; says what it did on stderr.
set -uo pipefail

pg_up() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }

if command -v pg_isready >/dev/null 2>&1 && ! pg_up; then
  echo "services: PostgreSQL is not running: starting it" >&2
  if command -v pg_ctlcluster >/dev/null 2>&1 && pg_lsclusters -h 2>/dev/null | grep -q .; then
    read -r version name _ < <(pg_lsclusters -h | head -1)
    pg_ctlcluster "$version" "$name" start || true
  else
    # No cluster of the system's: one of our own, owned by the postgres user (initdb
    # refuses to run as root).
    data=/tmp/whist-postgres
    run() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
    bin=$(dirname "$(command -v initdb 2>/dev/null || ls /usr/lib/postgresql/*/bin/initdb | tail -1)")
    if [ ! -d "$data" ]; then
      mkdir -p "$data" && { [ "$(id -u)" -ne 0 ] || chown postgres "$data"; }
      run "$bin/initdb" -D "$data" -A trust -U postgres >/dev/null
    fi
    run "$bin/pg_ctl" -D "$data" -l "$data/log" -o "-h 127.0.0.1 -p 5432" start >/dev/null || true
  fi
  for _ in $(seq 1 50); do pg_up && break; sleep 0.2; done
fi
if pg_up; then
  psql -h 127.0.0.1 -U postgres -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'test'" \
    | grep -q 1 || psql -h 127.0.0.1 -U postgres -d postgres -qc "CREATE DATABASE test" || true
else
  echo "services: warning: PostgreSQL is not reachable: its tests will be skipped" >&2
fi

if command -v redis-server >/dev/null 2>&1; then
  if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
    echo "services: Redis is not running: starting it" >&2
    redis-server --port 6379 --bind 127.0.0.1 --save "" --appendonly no --daemonize yes >/dev/null
  fi
else
  echo "services: warning: redis-server is not installed: the cluster tests will be skipped" >&2
fi
