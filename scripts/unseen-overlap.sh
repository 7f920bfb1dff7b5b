#!/bin/bash
# Which of the given repositories a case of the unseen lint set (test/lint-unseen) is modelled on.
# Whoever runs it learns that those repositories are in the set: run it only as someone who does not change
# src/lint (the author of a new batch, or whoever filters candidates for the rules' authors). In session 19 the
# rules' authors ran it themselves, and that exposed batch 2 (test/lint-unseen/README.md).
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
