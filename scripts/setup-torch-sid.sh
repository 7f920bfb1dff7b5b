#!/usr/bin/env bash
# Builds a Debian sid root with torch 2.x and HF transformers (Debian's python3-torch 2.14, python3-transformers
# 5.12) for the recorder's torch-2 tests, and a wrapper interpreter that runs the root's python3 with the
# directories it needs bind-mounted at the same paths:
#
#   .cache/torch-sid/root/            the debootstrap'ed root (minbase, --no-install-recommends; ~1.4 GB)
#   .cache/torch-sid/bin/python3      the wrapper: use it like any python3 (cwd, arguments, environment pass through)
#   .cache/torch-sid/installed.txt    marker: present once everything is installed
#
# Needs root (debootstrap, chroot, mount). About 15 minutes and 280 MB of downloads the first time; afterwards
# a run only checks the marker. Override the location with TORCH_SID_CACHE.
#
# Usage: bash scripts/setup-torch-sid.sh
set -euo pipefail

SID_PACKAGES=(python3-torch python3-numpy python3-pytest python3-transformers python3-tokenizers python3-safetensors libopenblas0-pthread)
root_dir=$(cd "$(dirname "$0")/.." && pwd)
cache=${TORCH_SID_CACHE:-$root_dir/.cache/torch-sid}
sid=$cache/root
marker=$cache/installed.txt
want_marker="packages=${SID_PACKAGES[*]}"
say() { printf '[setup-torch-sid] %s\n' "$*"; }
die() { printf '[setup-torch-sid] ERROR: %s\n' "$*" >&2; exit 1; }
started=$(date +%s)

mkdir -p "$cache"
exec 9>"$cache/lock"
flock 9   # two runs at once (e.g. npm test while a background build runs) wait for each other

write_wrapper() {
  mkdir -p "$cache/bin"
  cat >"$cache/bin/python3" <<WRAPPER
#!/usr/bin/env bash
# Runs python3 of the Debian sid root $sid (torch 2.x) with the project, /tmp and the current directory
# visible at the same paths (plus the colon-separated directories in TORCH_SID_BINDS). The bind mounts live in
# a private mount namespace (unshare) that ends with the process: nothing stays mounted inside the root, so
# no tool walking or deleting .cache/ can reach the project or /tmp through it.
set -euo pipefail
exec unshare --mount --propagation private -- /bin/bash -c '
  set -euo pipefail
  sid=\$1 project=\$2 cwd=\$3
  shift 3
  bind() {
    [ -d "\$1" ] || return 0
    mkdir -p "\$sid\$1"
    mount --bind "\$1" "\$sid\$1"
  }
  mount -t proc proc "\$sid/proc"
  mount --rbind /dev "\$sid/dev"
  bind /tmp
  bind "\$project"
  IFS=: read -r -a extra <<<"\${TORCH_SID_BINDS:-}"
  for dir in "\${extra[@]}"; do [ -n "\$dir" ] && bind "\$(cd "\$dir" && pwd)"; done
  case "\$cwd" in /tmp | /tmp/* | "\$project" | "\$project"/*) ;; *) bind "\$cwd" ;; esac
  exec chroot "\$sid" /usr/bin/env PATH=/usr/local/bin:/usr/bin:/bin /bin/sh -c "cd \\"\\\$0\\" && exec /usr/bin/python3 \\"\\\$@\\"" "\$cwd" "\$@"
' bash '$sid' '$root_dir' "\$PWD" "\$@"
WRAPPER
  chmod +x "$cache/bin/python3"
}

if [ -f "$marker" ] && [ "$(cat "$marker")" = "$want_marker" ] && [ -x "$sid/usr/bin/python3" ]; then
  write_wrapper
  say "already installed ($sid)"
  exit 0
fi
[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot, mount); run: sudo bash $0"
command -v unshare >/dev/null 2>&1 || die "needs unshare (util-linux) for the wrapper's private mounts"

if ! command -v debootstrap >/dev/null 2>&1; then
  say "apt-get install debootstrap"
  for attempt in 1 2 3 4 5 6; do
    if DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
       DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; then break; fi
    [ "$attempt" = 6 ] && die "apt-get install debootstrap failed"
    sleep 20
  done
fi

mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
[ -n "$mirror" ] || mirror=$(awk '/^deb / {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
[ "$mirror" != "${mirror%debian-security}" ] && mirror=http://deb.debian.org/debian

unmount_all() {
  local m
  for m in $(awk -v p="$sid/" 'index($2, p) == 1 {print $2}' /proc/mounts | sort -r); do umount -l "$m" || true; done
}

trap unmount_all EXIT  # never leave /proc mounted inside the cache, even when a step fails

if [ ! -f "$cache/debootstrap.done" ]; then
  unmount_all
  rm -rf "$sid"
  say "debootstrap sid from $mirror (about 5 minutes)"
  debootstrap --variant=minbase sid "$sid" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
    die "debootstrap failed: see $cache/debootstrap.log"
  touch "$cache/debootstrap.done"
fi

mountpoint -q "$sid/proc" || mount -t proc proc "$sid/proc"
cp /etc/resolv.conf "$sid/etc/resolv.conf" 2>/dev/null || true
say "apt-get install ${SID_PACKAGES[*]} in the sid root (about 10 minutes)"
chroot "$sid" env DEBIAN_FRONTEND=noninteractive apt-get -o Acquire::Check-Valid-Until=false update -qq ||
  die "apt-get update in the sid root failed"
chroot "$sid" env DEBIAN_FRONTEND=noninteractive apt-get -o Acquire::Check-Valid-Until=false install -y -qq --no-install-recommends "${SID_PACKAGES[@]}" >"$cache/apt.log" 2>&1 ||
  die "apt-get install in the sid root failed: see $cache/apt.log"
chroot "$sid" apt-get clean
unmount_all
write_wrapper
"$cache/bin/python3" -c 'import torch, transformers; print("[setup-torch-sid] torch", torch.__version__, "transformers", transformers.__version__)' ||
  die "the sid root's python3 cannot import torch and transformers"
echo "$want_marker" >"$marker"
say "done in $(( $(date +%s) - started )) s"
