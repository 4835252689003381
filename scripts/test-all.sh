#!/usr/bin/env bash
# The README's test command: installs what the tests need, then type-checks, lints and runs every
# test. Idempotent and quick when everything is already installed.
set -euo pipefail
cd "$(dirname "$0")/.."

# npm ci only when node_modules is missing or older than the lock file.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi

npm run --silent typecheck
npm run --silent lint

# A real PostgreSQL for the store and loader tests (installed from Debian's packages if missing).
UKCD_TEST_DATABASE_URL="$(bash scripts/postgres.sh)"
export UKCD_TEST_DATABASE_URL

npm test
