#!/usr/bin/env bash
# Sourced by the container checks, and by anyone running podman on a host like CI's: podman with
# this project's settings for such a host (deploy/podman/containers.conf says what each is for).
#   source scripts/containers/podman-env.sh && podman run …
studio_podman_env() {
  local deploy conf
  deploy="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../deploy/podman" && pwd)"
  command -v podman >/dev/null || { echo "podman is missing (Debian: apt-get install podman runc)" >&2; return 1; }
  command -v runc >/dev/null || { echo "runc is missing (Debian: apt-get install runc)" >&2; return 1; }
  # The settings name the runtime wrapper by its absolute path: written out for this checkout.
  conf="${XDG_CACHE_HOME:-$HOME/.cache}/artemis-studio/containers.conf"
  mkdir -p "$(dirname "$conf")"
  sed "s|@DEPLOY_PODMAN@|$deploy|" "$deploy/containers.conf" >"$conf.$$" && mv "$conf.$$" "$conf"
  export CONTAINERS_CONF="$conf"
}
studio_podman_env
