#!/usr/bin/env bash
# False-positive scan: lint the .py/.ipynb files of the repositories in repos.txt (at the listed commits)
# with the built CLI and summarise the findings per rule and repository.
# Usage: [CLI=path/to/cli.js] [ISOLATE=1] bash test/lint-scan/scan.sh [OUT_DIR]   (run `npm run build` first)
# ISOLATE=1 lints every .py file alone (file arguments: no workspace, no cross-file evidence), as a single-file case
# of the labelled sets is linted; compared with a workspace run it shows the findings the rest of a repository
# silences and the ones only its other files make.
# Needs each repository's git directory at $MIRROR/<owner>+<name>/repo (MIRROR defaults to /work/.mirror).
# REPOS=FILE scans another list in the same format (default repos.txt beside this script), e.g. repos-fresh-s46.txt
# or repos-fresh-s47.txt.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
mirror="${MIRROR:-/work/.mirror}"
out="${1:-${TMPDIR:-/tmp}/lint-scan}"
mkdir -p "$out/src" "$out/json"
grep -v '^#' "${REPOS:-$here/repos.txt}" | while read -r repo commit; do
  [ -n "$repo" ] || continue
  key="${repo/\//+}"
  git_dir="$mirror/$key/repo"
  dest="$out/src/$key"
  if [ ! -d "$dest" ] && [ ! -d "$git_dir" ]; then
    echo "scan.sh: no snapshot of $repo at $git_dir; skipped" >&2
    continue
  fi
  if [ ! -d "$dest" ]; then
    mkdir -p "$dest"
    # Blob by blob: a snapshot may lack its largest files, which must not stop the rest.
    # A repository without a .py/.ipynb file gives grep nothing to print: not a failure (set -e with pipefail).
    git -C "$git_dir" ls-tree -r "$commit" | { grep -E $'\t.*\\.(py|ipynb)$' || true; } | while IFS=$'\t' read -r meta path; do
      sha="${meta##* }"
      mkdir -p "$dest/$(dirname "$path")"
      git -C "$git_dir" cat-file blob "$sha" > "$dest/$path" 2>/dev/null || rm -f "$dest/$path"
    done
  fi
  if [ "${ISOLATE:-0}" = 1 ]; then
    bash "$here/lint-alone.sh" "$dest" > "$out/json/$key.json" || true
  else
    node "${CLI:-$root/dist/cli.js}" lint --format json "$dest" > "$out/json/$key.json" || true
  fi
done
node "$here/summarise.mjs" "$out"
