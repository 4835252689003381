#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests (test/web/*-browser.test.ts drive it with
# playwright-core) and prints its path. Idempotent: when it is installed, it only prints the path.
#
#   scripts/chromium.sh          -> prints the path of the chromium executable
set -euo pipefail

BIN="${UKCD_CHROMIUM:-/usr/bin/chromium}"

if [ ! -x "$BIN" ]; then
  echo "installing Chromium from Debian's packages..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  # Fonts so that pages render text (screenshots); no recommends: no desktop extras.
  apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >&2
fi

if ! "$BIN" --headless --no-sandbox --version >/dev/null 2>&1 && ! "$BIN" --version >/dev/null 2>&1; then
  echo "chromium at $BIN does not run" >&2
  exit 1
fi
echo "$BIN"
