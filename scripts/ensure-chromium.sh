#!/usr/bin/env bash
# Installs Debian's Chromium and its headless shell when missing. The
# browser tests run in the shell (a page load costs it about 40 % of the
# full browser's CPU); the Push API tests and Lighthouse's measurements
# use the full browser. Browser tests never download a browser of their
# own (that cannot work on this network).
set -euo pipefail
if command -v chromium >/dev/null 2>&1 && command -v chromium-headless-shell >/dev/null 2>&1; then exit 0; fi
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-headless-shell >/dev/null
command -v chromium chromium-headless-shell
