#!/usr/bin/env bash
# Installs Debian's Chromium for the end-to-end suite when /usr/bin/chromium is missing.
# Never `npx playwright install`: Playwright drives this system browser (e2e/browser.mjs).
set -euo pipefail
exec bash "$(dirname "$0")/../../tools/ensure-deb.sh" /usr/bin/chromium chromium
