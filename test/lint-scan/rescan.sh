#!/usr/bin/env bash
# Precision rescan of one build, workspace mode: every pinned repository of TREE's test/lint-scan/repos.txt whose
# snapshot the mirror holds, plus HF transformers from Debian's sid root, linted with TREE's dist/cli.js through
# TREE's own scan.sh / scan-debian-transformers.sh; writes one line per finding to OUT.tsv:
#   repo<TAB>path<TAB>line<TAB>rule<TAB>message   (sorted; '#' header lines say what was scanned)
# and the summarise.mjs output (files, lines, per rule, per repo) to OUT.summary.txt.
# Usage: bash test/lint-scan/rescan.sh TREE OUT.tsv      (ISOLATE=1: each .py file linted alone, as scan.sh's mode)
#        bash test/lint-scan/rescan-diff.sh A.tsv B.tsv  (a before/after: findings only in A, only in B)
# Env:   MIRROR (default /work/.mirror), TORCH_SID_CACHE (default TREE/.cache/torch-sid),
#        RESCAN_SRC (shared extraction, default TREE/.cache/lint-scan-src: point two trees at one folder to extract once),
#        TMPDIR, KEEP=1 keeps the JSON work dir,
#        NO_TRANSFORMERS=1 / ONLY_TRANSFORMERS=1 to leave out / scan only the transformers tree.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tree="$(cd "${1:?usage: rescan.sh TREE OUT.tsv}" && pwd)"
outfile="${2:?usage: rescan.sh TREE OUT.tsv}"
mirror="${MIRROR:-/work/.mirror}"
sid="${TORCH_SID_CACHE:-$tree/.cache/torch-sid}"
shared="${RESCAN_SRC:-$tree/.cache/lint-scan-src}"
mode=workspace; [ "${ISOLATE:-0}" = 1 ] && mode=alone
cli="$tree/dist/cli.js"
[ -f "$cli" ] || { echo "rescan.sh: no $cli (build TREE first)" >&2; exit 1; }
work="$(mktemp -d "${TMPDIR:-/tmp}/rescan-$mode-XXXXXX")"
start=$(date +%s)

# 1. Extract each repository's .py/.ipynb files at its pinned commit once, into the shared folder, the way scan.sh
#    does (blob by blob), but into KEY.part and renamed when whole, so an interrupted run never leaves a partial tree
#    that scan.sh would take for complete. A lock keeps two rescans from extracting the same repository at once.
mkdir -p "$shared"
(
  flock 9
  grep -v '^#' "$tree/test/lint-scan/repos.txt" | while read -r repo commit; do
    [ -n "$repo" ] || continue
    key="${repo/\//+}"; git_dir="$mirror/$key/repo"; dest="$shared/$key"
    [ -d "$dest" ] || [ ! -d "$git_dir" ] && continue
    rm -rf "$dest.part"; mkdir -p "$dest.part"
    git -C "$git_dir" ls-tree -r "$commit" | grep -E $'\t.*\\.(py|ipynb)$' | while IFS=$'\t' read -r meta path; do
      sha="${meta##* }"
      mkdir -p "$dest.part/$(dirname "$path")"
      git -C "$git_dir" cat-file blob "$sha" > "$dest.part/$path" 2>/dev/null || rm -f "$dest.part/$path"
    done || true
    mv "$dest.part" "$dest"
  done
) 9>"$shared/.lock"

# 2. Lint with TREE's scan.sh: its src/ is a symlink to the shared extraction (it skips extraction when src/KEY
#    exists), its json/ is this run's own.
if [ "${ONLY_TRANSFORMERS:-0}" != 1 ]; then
  mkdir -p "$work/repos/json"; ln -s "$shared" "$work/repos/src"
  CLI="$cli" MIRROR="$mirror" bash "$tree/test/lint-scan/scan.sh" "$work/repos" > "$work/repos.summary.txt" 2> "$work/repos.stderr.txt" || true
fi

# 3. HF transformers from the sid root (scan-debian-transformers.sh copies the tree afresh), when it is installed.
pkg="$sid/root/usr/lib/python3/dist-packages/transformers"
tf="not scanned"
if [ "${NO_TRANSFORMERS:-0}" = 1 ]; then
  tf="left out (NO_TRANSFORMERS=1)"
elif [ -d "$pkg" ] && [ -f "$sid/installed.txt" ]; then
  CLI="$cli" TORCH_SID_CACHE="$sid" bash "$tree/test/lint-scan/scan-debian-transformers.sh" "$work/transformers" \
    > "$work/transformers.summary.txt" 2> "$work/transformers.stderr.txt" || true
  tf="scanned ($(ls "$work/transformers/src"), $pkg)"
else
  tf="SKIPPED: $pkg not installed yet (scripts/setup-torch-sid.sh)"
fi
end=$(date +%s)

# 4. One TSV of every finding, sorted; a summary beside it.
held=$(find "$work/repos/json" -name '*.json' 2>/dev/null | wc -l)
{
  echo "# rescan $mode: tree $tree ($(git -C "$tree" rev-parse --short HEAD 2>/dev/null || echo 'not a git tree')), $(date -u +%FT%TZ), $((end - start)) s"
  echo "# repositories linted: $held of $(grep -v '^#' "$tree/test/lint-scan/repos.txt" | grep -c .) in repos.txt (the others have no snapshot in $mirror)"
  echo "# transformers: $tf"
  echo "# repo	path	line	rule	message"
  node "$here/to-tsv.mjs" "$work/repos" "$work/transformers"
} > "$outfile"
{ cat "$work/repos.summary.txt" 2>/dev/null || true; echo; cat "$work/transformers.summary.txt" 2>/dev/null || true; } > "${outfile%.tsv}.summary.txt"
echo "rescan.sh: $(grep -vc '^#' "$outfile") findings ($mode) -> $outfile, $((end - start)) s; transformers $tf" >&2
[ "${KEEP:-0}" = 1 ] && echo "rescan.sh: work dir kept: $work" >&2 || rm -rf "$work"
