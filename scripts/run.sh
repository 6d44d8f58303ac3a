#!/usr/bin/env bash
# Sets everything up, then starts the main job: a terminal game of German Whist against
# computer players (pass other arguments of `whist play` to change it).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/whist play "${@:-german}"
