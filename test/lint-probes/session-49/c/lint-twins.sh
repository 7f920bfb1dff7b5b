#!/usr/bin/env bash
# Lints the buggy twins (every one holds a bug its probe fixes; expected: one finding each): single files alone, folders as workspaces.
CLI=${1:?cli.js}
cd "$(dirname "$0")"
for f in twins/*.py; do node "$CLI" lint "$f"; done
for d in twins/*/; do node "$CLI" lint "${d%/}"; done
exit 0
