#!/usr/bin/env bash
# Prints the path of promtool, fetching it when missing: from Debian's
# prometheus package, unpacked into .cache/tools (not installed: the
# package would also set up a Prometheus server). make test checks the
# alert rules with it.
set -euo pipefail
cd "$(dirname "$0")/.."
if command -v promtool >/dev/null 2>&1; then command -v promtool; exit 0; fi
dir=.cache/tools/prometheus
bin=$dir/usr/bin/promtool
if [ ! -x "$bin" ]; then
  mkdir -p "$dir"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  ( cd "$tmp" && apt-get download prometheus >/dev/null 2>&1 ) || {
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq >/dev/null
    ( cd "$tmp" && apt-get download prometheus >/dev/null )
  }
  dpkg-deb -x "$tmp"/prometheus_*.deb "$tmp/x"
  mkdir -p "$dir/usr/bin"
  cp "$tmp/x/usr/bin/promtool" "$bin"
fi
echo "$PWD/$bin"
