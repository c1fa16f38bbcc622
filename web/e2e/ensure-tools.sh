#!/usr/bin/env bash
# Installs the Debian packages the end-to-end suite needs when they are missing: Chromium
# (/usr/bin/chromium; never `npx playwright install`: Playwright drives this system browser,
# e2e/browser.mjs) and a Java runtime for the Nu HTML Checker (e2e/html.spec.mjs).
set -euo pipefail
need=()
if [ -x /usr/bin/chromium ]; then
  echo "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo present)"
else
  need+=(chromium)
fi
if command -v java >/dev/null; then
  echo "java: $(java -version 2>&1 | head -n 1)"
else
  need+=(default-jre-headless)
fi
[ ${#need[@]} -eq 0 ] && exit 0
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y "${need[@]}"
