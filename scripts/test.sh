#!/usr/bin/env bash
# Sets everything up, then runs the whole test suite: ruff, mypy --strict, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check src tests bench
.venv/bin/mypy
.venv/bin/python -m pytest -n 2 "$@"
