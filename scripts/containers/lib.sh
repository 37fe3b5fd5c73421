#!/usr/bin/env bash
# What the container checks share: podman as this host needs it, the database and broker they run
# against, secrets made for the run, and waiting on containers. Sourced, not run.
# shellcheck disable=SC2034 # the variables are the sourcing script's
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$root/scripts/containers/podman-env.sh"
source "$root/scripts/node-runtime.sh"

SERVICES=(scraper notifier event-store gateway)
declare -A SERVICE_PORT=([scraper]=8081 [notifier]=8082 [event-store]=8083 [gateway]=8080)
TAG="${STUDIO_IMAGE_TAG:-local}"
# One database for the checks that use the machine's PostgreSQL and NATS: one installation, so
# the image's and the manifests' runs follow each other on the NATS without a refusal.
CHECK_DATABASE=studio_containers
CHECK_DATABASE_URL="postgres://postgres@127.0.0.1:5432/$CHECK_DATABASE"
STUDIO_SECRET_KEY="$(node -e "process.stdout.write(require('crypto').randomBytes(32).toString('base64'))")"
STUDIO_ADMIN_PASSWORD="$(node -e "process.stdout.write(require('crypto').randomBytes(15).toString('base64url'))")"
export STUDIO_ADMIN_PASSWORD

say() { echo "$(basename "$0" .sh): $*"; }
die() { echo "$(basename "$0" .sh): $*" >&2; exit 1; }

# Each check is a new installation on the machine's NATS: the one before must have left it first.
fresh_database() {
  node "$root/scripts/containers/nats-quiet.mjs" nats://127.0.0.1:4222 45
  psql -q postgres://postgres@127.0.0.1:5432/postgres \
    -c "DROP DATABASE IF EXISTS $CHECK_DATABASE WITH (FORCE)" -c "CREATE DATABASE $CHECK_DATABASE" >/dev/null
}

# The tests' broker (scripts/artemis.sh profile "test"), its env lines as variables.
test_broker() {
  bash "$root/scripts/artemis.sh" start test >/dev/null
  eval "$(bash "$root/scripts/artemis.sh" env test | sed 's/^/export /')"
}

# Waits until a URL answers 2xx, or dies saying why (timed out, or the container's state and exit
# code) with the container's last lines, its routes' start-up listing left out.
wait_ready() { # url container [seconds]
  local deadline=$(($(date +%s) + ${3:-120})) state
  until curl -fs -o /dev/null "$1"; do
    state="$(podman inspect --format '{{.State.Status}} (exit code {{.State.ExitCode}})' "$2" 2>&1)" ||
      state="gone: $state"
    if [ "$(date +%s)" -gt "$deadline" ] || [[ "$state" != running* ]]; then
      podman logs --tail 200 "$2" 2>&1 | grep -vE '"context":"(RouterExplorer|RoutesResolver|InstanceLoader)"' |
        tail -n 30 >&2 || true
      die "$2 was not ready at $1 within ${3:-120} s; the container is $state"
    fi
    sleep 1
  done
}

# The last lines of each container's log: what the services said when a check did not see what it
# waited for (a CI run keeps only the output, and the containers go with the run).
dump_logs() { # container…
  local container
  for container in "$@"; do
    echo "--- $container (last 40 lines)" >&2
    podman logs --tail 40 "$container" 2>&1 | sed 's/^/  /' >&2 || true
  done
}

# podman schedules HEALTHCHECKs with systemd timers; without systemd (CI) they never run by
# themselves, so the check runs the image's own HEALTHCHECK as the timer would, until healthy.
wait_healthy() { # container [seconds]
  local deadline=$(($(date +%s) + ${2:-120}))
  until podman healthcheck run "$1" >/dev/null 2>&1; do
    [ "$(date +%s)" -gt "$deadline" ] && { podman logs --tail 30 "$1" >&2; die "$1 never turned healthy"; }
    sleep 2
  done
  [ "$(podman inspect --format '{{.State.Health.Status}}' "$1")" = healthy ] || die "$1: health is not 'healthy'"
}

# Runs every running container's HEALTHCHECK every 2 s, as podman's systemd timers would, so that
# health turns 'healthy' (and compose's `condition: service_healthy` is met) on a host without
# systemd. Runs in the background until the calling script exits.
health_ticker() {
  while sleep 2; do
    for container in $(podman ps --filter health=starting --filter health=unhealthy --format '{{.ID}}' 2>/dev/null); do
      podman healthcheck run "$container" >/dev/null 2>&1 || true
    done
  done
}
