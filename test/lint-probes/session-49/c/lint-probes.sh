#!/usr/bin/env bash
# Lints every probe of this folder as a labelled case is linted: each single file alone, each folder as its own workspace.
# Usage: bash lint-probes.sh path/to/dist/cli.js
CLI=${1:?cli.js}
cd "$(dirname "$0")"
for f in single/*.py; do node "$CLI" lint "$f"; done
for d in folder/*/; do node "$CLI" lint "${d%/}"; done
exit 0
