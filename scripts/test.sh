#!/usr/bin/env bash
# Sets everything up, then runs the whole test suite: ruff (lint and format), mypy --strict,
# node --test, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/services.sh
.venv/bin/ruff check src tests bench
.venv/bin/ruff format --check src tests bench scripts
.venv/bin/mypy
# The browser client's pure helpers, with node's own test runner (no npm packages).
if command -v node >/dev/null 2>&1; then
  node --test tests/js/
else
  echo "test: warning: node is not installed: tests/js skipped" >&2
fi
# Two workers (a 2-core machine is busy with two); idle ones take tests from the busy one.
.venv/bin/python -m pytest -n 2 --dist worksteal "$@"
