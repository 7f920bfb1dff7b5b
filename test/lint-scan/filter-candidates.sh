#!/usr/bin/env bash
# Keeps only the candidate repositories (owner/name, one per line on stdin or as arguments) that a public-code
# precision scan may use: on the training side of the coin (first hex digit of sha256(lowercase(owner/name)) in 8-f;
# 0-7 is the unseen set's side), named nowhere under this tree's test/ (any unseen batch, corpus, holdout, training
# set, probes, scan lists), nowhere under test/ on the unmerged `curator-*` branches, and not on the studied list.
# It never says why a name was dropped (so that a dropped name tells nothing about an unseen batch).
#   bash test/lint-scan/filter-candidates.sh < candidates.txt > kept.txt
# Env: STUDIED  the studied list (default test/lint-scan/studied-repos.txt; point it at the team's working copy
#               during a session, when people append to it).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
studied="${STUDIED:-$root/test/lint-scan/studied-repos.txt}"
names=("$@")
if [ ${#names[@]} -eq 0 ]; then mapfile -t names; fi
excl=$(mktemp)
trap 'rm -f "$excl"' EXIT
{ grep -rhoE '[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9_.-]+' "$root/test" 2>/dev/null || true
  for b in $(git -C "$root" branch --no-merged main --format='%(refname:short)' 2>/dev/null | grep '^curator-' || true); do
    git -C "$root" grep -hoE '[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9_.-]+' "$b" -- test 2>/dev/null | sed 's/^[^:]*://' || true
  done
  cat "$studied"; } |
  tr 'A-Z' 'a-z' | sed 's/\.git$//; s/[.]$//' | sort -u > "$excl"
kept=0
for n in "${names[@]}"; do
  l=$(echo "$n" | tr 'A-Z' 'a-z' | xargs)
  [ -z "$l" ] && continue
  d=$(printf '%s' "$l" | sha256sum | cut -c1)
  case "$d" in 8|9|a|b|c|d|e|f) ;; *) continue ;; esac
  grep -qxF "$l" "$excl" && continue
  echo "$n"; kept=$((kept + 1))
done
echo "# kept $kept of ${#names[@]}" >&2
