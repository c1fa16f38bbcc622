#!/usr/bin/env bash
# Installs Debian's Chromium for the end-to-end suite when /usr/bin/chromium is missing.
# Never `npx playwright install`: Playwright drives this system browser (e2e/browser.mjs).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  echo "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo present)"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y chromium
