#!/bin/bash
# Which of the given repositories a case of the unseen lint set (test/lint-unseen) is modelled on, and which the
# training set (test/lint-train) uses.
# Whoever runs it learns that those repositories are in the unseen set: run it only as someone who does not change
# src/lint (the author of a new batch, or whoever filters candidates for the rules' authors). In session 19 the
# rules' authors ran it themselves, and that exposed batch 2 (test/lint-unseen/README.md).
# The training set is read by everyone, so its collisions are printed on their own lines: a repository there is
# spent for the unseen measure (the unseen unit test fails if a batch uses one) and must not be used for a new batch.
# Usage: bash scripts/unseen-overlap.sh owner/repo [owner/repo ...]   (or the names on stdin, one per line)
# It prints only those of YOUR names that collide (case-insensitive) and a count; nothing else from the set.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
names=("$@")
if [ ${#names[@]} -eq 0 ]; then mapfile -t names; fi
headers() { grep -rhoE '^# modelled-on: [A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9_.-]+' "$@" 2>/dev/null | sed 's/^# modelled-on: //' | tr 'A-Z' 'a-z' | sort -u || true; }
set_repos=$(headers "$root/test/lint-unseen")
train_repos=$(headers "$root/test/lint-train")
hits=0
train_hits=0
for n in "${names[@]}"; do
  l=$(echo "$n" | tr 'A-Z' 'a-z' | xargs)
  [ -z "$l" ] && continue
  if grep -qxF "$l" <<<"$set_repos"; then echo "OVERLAP: $n"; hits=$((hits + 1)); fi
  if grep -qxF "$l" <<<"$train_repos"; then echo "OVERLAP (training set, spent for the unseen set): $n"; train_hits=$((train_hits + 1)); fi
done
echo "checked ${#names[@]} name(s): $hits overlap(s) with the unseen set, $train_hits with the training set"
