#!/usr/bin/env bash
# Set up everything the test suite needs and run it: form, lint, types, architecture, tests.
# The cheap checks and the fast lane come first, so that a plain failure shows in a minute; the
# slow lane (browser, server processes, PostgreSQL, terminal: marked slow beside the tests) runs last.
# Usage: bash scripts/test.sh [extra pytest arguments, given to both lanes]
set -euo pipefail
cd "$(dirname "$0")/.."

# The browser tests drive Debian's Chromium (browser downloads by test tools do not work here), and the
# deployment test runs Debian's nginx in front of the server (docs/deploy.md), one terminal test plays in tmux,
# and the server tests run on a throwaway cluster of Debian's PostgreSQL as well as on SQLite.
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    missing=""
    command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
    command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing="$missing nginx"
    command -v openssl >/dev/null 2>&1 || missing="$missing openssl"
    command -v tmux >/dev/null 2>&1 || missing="$missing tmux"  # a whole terminal game in a real 80x24 tmux
    ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || missing="$missing postgresql"
    if [ -n "$missing" ]; then
        # shellcheck disable=SC2086
        apt-get install -y -q $missing >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q $missing >/dev/null; }
    fi
fi

python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[dev]"

# One lane of the tests; a lane that the extra arguments leave empty (pytest's exit status 5) passes.
lane() {
    local status=0
    .venv/bin/python -m pytest -n 2 -m "$@" || status=$?
    if [ "$status" -ne 0 ] && [ "$status" -ne 5 ]; then
        exit "$status"
    fi
}

.venv/bin/ruff check
.venv/bin/ruff format --check
.venv/bin/lint-imports
lane "not slow" "$@"
.venv/bin/mypy
# The browser client's scripts: ESLint from npm (package.json, package-lock.json), its recommended
# rules and the house's form (eslint.config.js).
npm ci --no-audit --no-fund --silent
npx --no-install eslint src/tendays/web/static/js
lane slow "$@"
