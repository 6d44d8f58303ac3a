#!/usr/bin/env bash
# Try the club as a cluster on this machine: two nodes (http://127.0.0.1:8001 and :8002)
# and one bot worker, on the local PostgreSQL (database whist_cluster) and Redis. Open either
# address: both serve every table, and the page's socket moves to the other node when one
# stops. Ctrl-C stops everything. Ports and URLs can be changed through the environment:
# WHIST_DATABASE_URL, WHIST_REDIS_URL, PORT_A, PORT_B.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/services.sh
PORT_A=${PORT_A:-8001}
PORT_B=${PORT_B:-8002}
if [ -z "${WHIST_DATABASE_URL:-}" ]; then
  psql -h 127.0.0.1 -U postgres -d postgres -tAc \
    "SELECT 1 FROM pg_database WHERE datname = 'whist_cluster'" | grep -q 1 \
    || psql -h 127.0.0.1 -U postgres -d postgres -qc "CREATE DATABASE whist_cluster"
  export WHIST_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/whist_cluster
fi
export WHIST_REDIS_URL=${WHIST_REDIS_URL:-redis://127.0.0.1:6379/0}
# The browser's socket tries both nodes in turn; each accepts pages of the other.
export WHIST_SOCKET_URLS="[\"ws://127.0.0.1:$PORT_A\", \"ws://127.0.0.1:$PORT_B\"]"
export WHIST_ALLOWED_ORIGINS="[\"http://127.0.0.1:$PORT_A\", \"http://127.0.0.1:$PORT_B\"]"

pids=()
stop() {
  trap - EXIT INT TERM
  kill -TERM "${pids[@]}" 2>/dev/null || true
  wait "${pids[@]}" 2>/dev/null || true
}
trap stop EXIT INT TERM
.venv/bin/whist bot-worker & pids+=($!)
.venv/bin/whist serve --port "$PORT_A" & pids+=($!)
.venv/bin/whist serve --port "$PORT_B" & pids+=($!)
sleep 3
.venv/bin/whist cluster status || true
echo "cluster: open http://127.0.0.1:$PORT_A/ or http://127.0.0.1:$PORT_B/ (Ctrl-C stops)" >&2
wait -n "${pids[@]}"
