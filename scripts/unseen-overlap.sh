#!/bin/bash
# Which of the given repositories a case of the unseen lint set (test/lint-unseen) is modelled on, for engineers who
# gather new regression cases and must stay away from those repositories without reading the set.
# Usage: bash scripts/unseen-overlap.sh owner/repo [owner/repo ...]   (or the names on stdin, one per line)
# It prints only those of YOUR names that collide (case-insensitive) and a count; nothing else from the set.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
names=("$@")
if [ ${#names[@]} -eq 0 ]; then mapfile -t names; fi
set_repos=$(grep -rhoE '^# modelled-on: [A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9_.-]+' "$root/test/lint-unseen" | sed 's/^# modelled-on: //' | tr 'A-Z' 'a-z' | sort -u)
hits=0
for n in "${names[@]}"; do
  l=$(echo "$n" | tr 'A-Z' 'a-z' | xargs)
  [ -z "$l" ] && continue
  if grep -qxF "$l" <<<"$set_repos"; then echo "OVERLAP: $n"; hits=$((hits + 1)); fi
done
echo "checked ${#names[@]} name(s): $hits overlap(s)"
