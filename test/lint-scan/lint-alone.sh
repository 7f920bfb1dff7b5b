#!/usr/bin/env bash
# Lints every .py file under DIR alone (file arguments: no workspace, no cross-file evidence), as a single-file case of
# the labelled sets is linted, and prints the findings as one JSON array (the shape `lint --format json DIR` prints).
# Usage: [CLI=path/to/cli.js] bash test/lint-scan/lint-alone.sh DIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dir=$1
# One JSON array per chunk of files (xargs), merged into one.
find "$dir" -name '*.py' -print0 | sort -z | xargs -0 -r -n 400 node "${CLI:-$root/dist/cli.js}" lint --format json 2>/dev/null |
  node -e '
let text = "";
process.stdin.on("data", (d) => (text += d)).on("end", () => {
  const all = [];
  for (const chunk of text.split(/(?<=\])\s*(?=\[)/)) if (chunk.trim()) all.push(...JSON.parse(chunk));
  process.stdout.write(JSON.stringify(all, null, 2) + "\n");
});'
