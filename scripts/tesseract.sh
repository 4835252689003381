#!/usr/bin/env bash
# Installs Debian's Tesseract (with its English data) and poppler-utils for reading scanned
# accounts PDFs (src/pdf-accounts/, test/pdf-accounts/) and prints the tesseract path. Idempotent:
# when all three programs and the English data are there, it only prints the path.
#
#   scripts/tesseract.sh          -> prints the path of the tesseract executable
set -euo pipefail

BIN="${UKCD_TESSERACT:-/usr/bin/tesseract}"

has_english() { "$BIN" --list-langs 2>/dev/null | grep -qx eng; }

if [ ! -x "$BIN" ] || ! has_english || ! command -v pdfimages >/dev/null || ! command -v pdftoppm >/dev/null; then
  echo "installing Tesseract and poppler-utils from Debian's packages..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends tesseract-ocr tesseract-ocr-eng poppler-utils >&2
fi

if ! "$BIN" --version >/dev/null 2>&1 || ! has_english; then
  echo "tesseract at $BIN does not run or has no English data" >&2
  exit 1
fi
echo "$BIN"
