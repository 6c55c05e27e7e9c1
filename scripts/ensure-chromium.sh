#!/usr/bin/env bash
# Installs Debian's Chromium when it is missing. Browser tests never
# download a browser of their own (that cannot work on this network).
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then exit 0; fi
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
command -v chromium
