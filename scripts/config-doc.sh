#!/usr/bin/env bash
# Rewrites the configuration table of docs/configuration.md from config.Vars
# (go run ./scripts/configtable), so the two never drift apart.
set -euo pipefail
cd "$(dirname "$0")/.."
table=$(go run ./scripts/configtable)
python3 - "$table" <<'PY'
import sys, re
table = sys.argv[1].strip() + "\n"
p = "docs/configuration.md"
s = open(p).read()
start = s.index("| Variable | Default | Meaning |")
end = s.index("\n\n", start) + 1
open(p, "w").write(s[:start] + table + s[end:])
PY
