#!/usr/bin/env bash
# ensure-deb.sh COMMAND PACKAGE [apt-get install options]: installs Debian's PACKAGE with apt
# when COMMAND (a name on PATH or a path) is missing. The test targets use it for the tools they
# drive: chromium and Java for the end-to-end suite (web/e2e/ensure-tools.sh), promtool (package
# prometheus) for the deployment's Prometheus files (make test-deploy).
set -euo pipefail
cmd=$1 pkg=$2
shift 2
if command -v "$cmd" >/dev/null 2>&1; then
  echo "$pkg: $(command -v "$cmd")"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y "$@" "$pkg"
