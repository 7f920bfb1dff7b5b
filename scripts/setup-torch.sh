#!/usr/bin/env bash
# Installs PyTorch from Debian bookworm (torch 1.13) for the recorder's Python tests (test/python), called as
# /usr/bin/python3 (the python3 first on PATH may be another interpreter, e.g. pyenv, that cannot import Debian's
# torch). OpenBLAS makes Debian torch's matmuls ~10x faster than the reference BLAS.
# Idempotent: a second run only checks dpkg (well under a second).
#
# Usage: bash scripts/setup-torch.sh
set -euo pipefail

APT_PACKAGES=(python3-torch python3-pytest python3-numpy libopenblas0-pthread)
say() { printf '[setup-torch] %s\n' "$*"; }
die() { printf '[setup-torch] ERROR: %s\n' "$*" >&2; exit 1; }

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  command -v apt-get >/dev/null 2>&1 || die "missing ${missing[*]} and no apt-get: install PyTorch >= 1.13 for /usr/bin/python3 by hand"
  sudo=()
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || die "missing Debian packages ${missing[*]}; run as root: apt-get install -y ${missing[*]}"
    sudo=(sudo)
  fi
  say "apt-get install ${missing[*]} (a few minutes the first time)"
  # apt may be locked for a moment by another apt-get on the machine: retry a few times.
  for attempt in 1 2 3 4 5 6; do
    if "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
       "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
      break
    fi
    [ "$attempt" = 6 ] && die "apt-get install ${missing[*]} failed"
    say "apt-get failed (attempt $attempt), retrying in 20 s"
    sleep 20
  done
fi
/usr/bin/python3 -c 'import torch, numpy, pytest; print("[setup-torch] torch", torch.__version__, "numpy", numpy.__version__, "pytest", pytest.__version__)'
