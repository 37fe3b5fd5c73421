#!/usr/bin/env bash
# docker-compose.yml, started as a user starts it: Compose (Debian's docker-compose) against
# podman's Docker-compatible API, with stand-ins for PostgreSQL, NATS, Artemis and nginx under
# their official names (scripts/containers/stand-in-images.sh) and the project's images built from
# the Dockerfile (scripts/containers/build-images.sh). The whole file runs: both Artemis nodes,
# the four services, two gateways, the proxy; every service turns healthy; signed in as the first
# admin through the proxy, the live/backup pair registered as one cluster, a broker event arrives
# over SSE through it. Everything runs on its own network with its own PostgreSQL and NATS.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
command -v docker-compose >/dev/null || die "docker-compose is missing (Debian: apt-get install docker-compose)"
project=studio-compose-check
socket="/run/studio-compose-check.sock"
export DOCKER_HOST="unix://$socket" STUDIO_SECRET_KEY COMPOSE_HTTP_TIMEOUT=300
compose() { docker-compose --project-directory "$root" -f "$root/docker-compose.yml" -p "$project" "$@"; }
pids=()
cleanup() {
  compose down --volumes --timeout 30 >/dev/null 2>&1 || true
  [ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null || true
  rm -f "$socket"
}
trap cleanup EXIT

podman system service --time=0 "unix://$socket" 2>/dev/null &
pids+=($!)
for _ in $(seq 1 50); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || die "podman's API did not start at $socket"
health_ticker &
pids+=($!)

# The project's images were built by build-images.sh (behind CI's proxy a build needs its CA as a
# secret, which Compose 1 cannot pass): compose runs them as they are.
compose down --volumes --timeout 5 >/dev/null 2>&1 || true
started=$(date +%s)
compose up -d --no-build 2>&1 | sed 's/^/  compose: /'
for service in postgres scraper notifier event-store gateway-1 gateway-2; do
  container="$(compose ps -q "$service")"
  deadline=$(($(date +%s) + 180))
  until [ "$(podman inspect --format '{{.State.Health.Status}}' "$container")" = healthy ]; do
    [ "$(date +%s)" -gt "$deadline" ] && { podman logs --tail 30 "$container" >&2; die "$service never turned healthy"; }
    sleep 2
  done
done
say "every service healthy $(($(date +%s) - started)) s after compose up"

# The pair as deploy/compose/README.md registers it.
ARTEMIS_USER=studio ARTEMIS_PASSWORD=studio node "$root/scripts/containers/live-event.mjs" \
  http://127.0.0.1:8080 "compose pair" \
  "primary=http://artemis-primary:8161/console/jolokia,amqp://artemis-primary:61616" \
  "backup=http://artemis-backup:8161/console/jolokia,amqp://artemis-backup:61616" || {
  dump_logs $(compose ps -q scraper notifier event-store gateway-1 gateway-2)
  die "no broker event reached the console through the compose services"
}

# stop_grace_period: the notifier's stop (its handover's time) within it, not cut at 10 s.
notifier="$(compose ps -q notifier)"
stopping=$(date +%s)
compose stop notifier 2>&1 | sed 's/^/  compose: /'
took=$(($(date +%s) - stopping))
code="$(podman inspect --format '{{.State.ExitCode}}' "$notifier")"
# Alone, it hands over to nobody: its leases go at once, it waits a third of a lease's time for a
# taker (LEASE_TTL_MS 15 s) and closes. Well inside the 30 s, or a slower stop is a bug.
if [ "$code" != 0 ] || [ "$took" -gt 20 ]; then
  podman logs --tail 40 "$notifier" >&2
  die "the notifier exited $code after $took s when compose stopped it (137: killed at the grace period)"
fi
say "compose stop: the notifier handed over and exited 0 in $took s (stop_grace_period 30 s)"
say "passed"
