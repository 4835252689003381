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

# A real PostgreSQL (Debian's packages) and a real Elasticsearch (Maven Central, run as an
# unprivileged user), installed if missing and started if not running.
UKCD_TEST_DATABASE_URL="$(bash scripts/postgres.sh)"
UKCD_TEST_ELASTICSEARCH_URL="$(bash scripts/elasticsearch.sh)"
# Schemathesis (PyPI) in a virtual environment of its own, for the fuzz test over /openapi.json.
UKCD_TEST_SCHEMATHESIS="$(bash scripts/schemathesis.sh)"
# Debian's Chromium, driven by playwright-core in the browser tests (test/web/*-browser.test.ts).
UKCD_TEST_CHROMIUM="$(bash scripts/chromium.sh)"
# Debian's Tesseract and poppler-utils, which read the scanned accounts PDFs (test/pdf-accounts/).
UKCD_TEST_TESSERACT="$(bash scripts/tesseract.sh)"
export UKCD_TEST_DATABASE_URL UKCD_TEST_ELASTICSEARCH_URL UKCD_TEST_SCHEMATHESIS UKCD_TEST_CHROMIUM UKCD_TEST_TESSERACT

npm test
