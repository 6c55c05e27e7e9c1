#!/usr/bin/env bash
# Installs Debian's headless Java when it is missing: the Nu Html Checker
# (vnu-jar, from npm) runs on it in make test.
set -euo pipefail
if command -v java >/dev/null 2>&1; then exit 0; fi
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq default-jre-headless >/dev/null
command -v java
