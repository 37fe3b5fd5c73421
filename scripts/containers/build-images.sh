#!/usr/bin/env bash
# Builds the four service images from the Dockerfile, as a user would with podman, and prints each
# image's own size (what it adds to its base). Behind a TLS-inspecting proxy (as CI is), the CA
# bundle Node.js is told to trust (NODE_EXTRA_CA_CERTS) and npm's user configuration
# (NPM_CONFIG_USERCONFIG or ~/.npmrc), when there are, go in as build secrets: nothing of them
# stays in an image.
#   scripts/containers/build-images.sh [tag]          (default tag: local)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/scripts/containers/podman-env.sh"
tag="${1:-local}"
cd "$root"

secrets=()
[ -s "${NODE_EXTRA_CA_CERTS:-}" ] && secrets+=(--secret "id=ca,src=$NODE_EXTRA_CA_CERTS")
npmrc="${NPM_CONFIG_USERCONFIG:-$HOME/.npmrc}"
[ -s "$npmrc" ] && secrets+=(--secret "id=npmrc,src=$npmrc")

version="$(node -p 'require("./package.json").version')"
revision="$(git rev-parse HEAD 2>/dev/null || echo unknown)"
started=$(date +%s)
for service in scraper notifier event-store gateway; do
  # One build stage for all four: the second and later targets reuse its cached layers.
  # Docker format: OCI images cannot hold a HEALTHCHECK, and podman builds OCI by default.
  podman build --format docker --network host --pull=never "${secrets[@]}" \
    --build-arg "VERSION=$version" --build-arg "REVISION=$revision" \
    --target "$service" -t "artemis-studio-$service:$tag" . >"/tmp/artemis-studio-build-$service.log" 2>&1 ||
    { tail -40 "/tmp/artemis-studio-build-$service.log" >&2; echo "build-images: $service failed" >&2; exit 1; }
done
echo "build-images: built in $(($(date +%s) - started)) s; each image's own layers (beyond its base):"
base_layers="$(podman image inspect --format '{{len .RootFS.Layers}}' docker.io/library/node:24-bookworm-slim)"
for service in scraper notifier event-store gateway; do
  node "$root/scripts/containers/image-size.mjs" "artemis-studio-$service:$tag" "$base_layers"
done
