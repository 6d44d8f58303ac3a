#!/usr/bin/env bash
# Sets everything up, then starts the main job: the club server on http://127.0.0.1:8000/
# with its SQLite database in ./whist-data (created and migrated on first start). Extra
# arguments go to `whist serve` (--host, --port, --data-dir).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/whist serve "$@"
