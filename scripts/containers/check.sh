#!/usr/bin/env bash
# `npm test`'s container step: Studio started the ways users deploy it (docs/operations.md,
# "Container images"). Builds the stand-in base images where no real ones are here, the four
# service images from the Dockerfile unchanged, then runs them as plain containers, as the
# Kubernetes manifests (podman kube play) and as docker-compose.yml, each seeing a live broker
# event through the containerised gateway. Needs podman, runc, debootstrap and docker-compose
# (.ci/run installs Debian's); runs after the other tests, alone on the machine's NATS.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
timed() {
  local started=$SECONDS
  "$@"
  echo "containers: $(basename "${@: -1}") took $((SECONDS - started)) s"
}
timed bash "$here/stand-in-images.sh"
timed bash "$here/build-images.sh"
timed bash "$here/check-images.sh"
timed bash "$here/check-kube-play.sh"
timed bash "$here/check-compose.sh"
