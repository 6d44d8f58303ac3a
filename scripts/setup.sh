#!/usr/bin/env bash
# Creates .venv (if needed) and installs the project with its test tools and the chart
# extra (matplotlib, for `whist tournament --chart`). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[dev,chart]"
# Translations: .po catalogues -> the server's .mo files and the client's /i18n/<lang>.json
# (the JSON is committed too; compiling is deterministic, so this changes nothing there).
.venv/bin/python scripts/i18n.py compile >/dev/null
