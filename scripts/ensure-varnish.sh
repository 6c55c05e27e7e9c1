#!/usr/bin/env bash
# Installs Debian's Varnish (and wrk, which make bench drives it with)
# when missing, and prints varnishd's path. tests/proxy runs the site's
# own VCL (deploy/varnish/site.vcl) in it. The package's service is not
# started by this script (containers have no init; the tests start their
# own varnishd on a free port).
set -euo pipefail
find_varnishd() { command -v varnishd 2>/dev/null || { [ -x /usr/sbin/varnishd ] && echo /usr/sbin/varnishd; }; }
if v=$(find_varnishd) && command -v wrk >/dev/null 2>&1; then echo "$v"; exit 0; fi
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq varnish wrk >/dev/null
find_varnishd
