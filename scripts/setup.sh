#!/usr/bin/env bash
# Creates .venv (if needed) and installs the project with its test tools and the chart
# extra (matplotlib, for `whist tournament --chart`). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

# The browser tests (tests/test_browser*.py) drive Debian's Chromium through Playwright's
# Python package (never `playwright install`: that downloads a browser of its own).
install_chromium() {
  [ -x /usr/bin/chromium ] && return 0
  local apt_get=""
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt_get="apt-get"
  elif command -v apt-get >/dev/null 2>&1 && command -v sudo >/dev/null 2>&1 \
      && sudo -n true 2>/dev/null; then
    apt_get="sudo -n apt-get"
  fi
  if [ -n "$apt_get" ]; then
    echo "setup: installing chromium (Debian) for the browser tests" >&2
    export DEBIAN_FRONTEND=noninteractive
    if ! { $apt_get update -qq && $apt_get install -y -qq chromium; } >/dev/null; then
      echo "setup: warning: apt-get could not install chromium; the browser tests will fail" >&2
    fi
  else
    echo "setup: warning: /usr/bin/chromium is missing and apt-get is not usable here;" \
      "install Debian's chromium package, or the browser tests will fail" >&2
  fi
}
# Chromium downloads and unpacks while Python packages install and compile (a minute saved
# on a new machine). Whatever happens below, the script waits for it: apt is never left
# running on its own, nor cut off in the middle of unpacking.
install_chromium &
chromium=$!
trap 'wait "$chromium" || true' EXIT

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[dev,chart]"
# Translations: .po catalogues -> the server's .mo files and the client's /i18n/<lang>.json
# (the JSON is committed too; compiling is deterministic, so this changes nothing there).
.venv/bin/python scripts/i18n.py compile >/dev/null
# The solver's numba kernel compiles once (about two minutes) into its on-disk cache: do it here,
# so that MASTER's first move at a table (or in the tests) does not pay for it. A no-op once
# cached.
.venv/bin/python -c "from whist.solver import solve; solve([1, 2, 4, 8], None, 0, [], True)"
wait "$chromium" || true
