#!/usr/bin/env bash
# False-positive scan of Hugging Face transformers' model code as Debian packages it (python3-transformers, 5.12.1 in
# sid: 2,459 .py files, about a million lines, most of them attention code whose numbers match their checkpoints), from
# the sid root that scripts/setup-torch-sid.sh installs for the torch-2 tests (`.cache/torch-sid/root`).
# Usage: [CLI=path/to/cli.js] bash test/lint-scan/scan-debian-transformers.sh [OUT_DIR]   (run `npm run build` first)
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
node "${CLI:-$root/dist/cli.js}" lint --format json "$dest" > "$out/json/transformers-$version.json" || true
node "$here/summarise.mjs" "$out"
