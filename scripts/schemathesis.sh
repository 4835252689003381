#!/usr/bin/env bash
# Installs Schemathesis (PyPI, a pinned version) into a virtual environment of its own for the fuzz
# test, and prints the path of its command. Idempotent: when that version is installed, it only
# prints the path. Needs python3 with venv (Debian's python3-venv is installed when missing).
set -euo pipefail

VERSION="${UKCD_SCHEMATHESIS_VERSION:-4.32.5}"
DIR="${UKCD_SCHEMATHESIS_DIR:-/var/tmp/ukcd-schemathesis}"
BIN="$DIR/bin/schemathesis"

if [ -x "$BIN" ] && "$BIN" --version 2>/dev/null | grep -qx "schemathesis, version $VERSION"; then
  echo "$BIN"
  exit 0
fi

if ! command -v python3 >/dev/null; then
  echo "installing python3 from Debian's packages..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq python3 python3-venv >&2
fi
if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' 2>/dev/null; then
  echo "installing python3-venv from Debian's packages..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq python3-venv >&2
fi

echo "installing Schemathesis $VERSION from PyPI into $DIR..." >&2
rm -rf "$DIR"
python3 -m venv "$DIR" >&2
"$DIR/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$VERSION" >&2
"$BIN" --version >&2
echo "$BIN"
