#!/usr/bin/env bash
# False-positive scan of Hugging Face transformers' model code as Debian packages it (python3-transformers, 5.12.1 in
# sid: 2,459 .py files, about a million lines, most of them attention code whose numbers match their checkpoints), from
# the sid root that scripts/setup-torch-sid.sh installs for the torch-2 tests (`.cache/torch-sid/root`).
# Usage: [CLI=path/to/cli.js] [ISOLATE=1] bash test/lint-scan/scan-debian-transformers.sh [OUT_DIR]   (run `npm run build` first)
# ISOLATE=1 lints every file alone (lint-alone.sh), as scan.sh's isolation mode does.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
pkg="${TORCH_SID_CACHE:-$root/.cache/torch-sid}/root/usr/lib/python3/dist-packages/transformers"
out="${1:-${TMPDIR:-/tmp}/lint-scan-transformers}"
if [ ! -d "$pkg" ]; then
  echo "scan-debian-transformers.sh: no $pkg; run bash scripts/setup-torch-sid.sh first (it installs python3-transformers)" >&2
  exit 1
fi
mkdir -p "$out/src" "$out/json"
version=$(sed -n 's/^__version__ = "\(.*\)"/\1/p' "$pkg/__init__.py")
dest="$out/src/transformers-$version"
rm -rf "$dest"
mkdir -p "$dest"
(cd "$pkg" && find . -name '*.py' -print0 | xargs -0 cp --parents -t "$dest")
if [ "${ISOLATE:-0}" = 1 ]; then
  bash "$here/lint-alone.sh" "$dest" > "$out/json/transformers-$version.json" || true
else
  node "${CLI:-$root/dist/cli.js}" lint --format json "$dest" > "$out/json/transformers-$version.json" || true
fi
node "$here/summarise.mjs" "$out"
