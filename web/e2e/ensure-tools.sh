#!/usr/bin/env bash
# Installs the Debian packages the end-to-end suite needs when they are missing: Chromium
# (never `npx playwright install`: Playwright drives this system browser, e2e/browser.mjs) and a
# Java runtime for the Nu HTML Checker (e2e/html.spec.mjs).
set -euo pipefail
ensure="$(dirname "$0")/../../tools/ensure-deb.sh"
bash "$ensure" /usr/bin/chromium chromium
bash "$ensure" java default-jre-headless
