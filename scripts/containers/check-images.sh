#!/usr/bin/env bash
# The images, started as plain containers the way the manifests run them (uid 1000, read-only
# root, no capabilities), against this machine's PostgreSQL and NATS and the tests' broker:
#   - each image holds only its service (scripts/containers/image-files.mjs lists the files);
#   - each runs as uid 1000 on a read-only root and its HEALTHCHECK turns healthy;
#   - signed in as the first admin, the broker registered, a broker event arrives over SSE
#     through the containerised gateway (scripts/containers/live-event.mjs);
#   - SIGTERM lets the notifier hand its cluster over to a second one before the container stops.
# Needs the images (scripts/containers/build-images.sh); runs alone on the NATS (no other Studio).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
prefix=studio-check
# podman's complaints that it has no systemd to time HEALTHCHECKs with (wait_healthy stands in).
podman_log="$(mktemp)"
containers=()
cleanup() {
  [ ${#containers[@]} -eq 0 ] || podman rm -f -t 20 "${containers[@]}" >/dev/null 2>&1 || true
  rm -f "$podman_log"
}
trap cleanup EXIT

for service in "${SERVICES[@]}"; do
  podman run --rm --entrypoint find "artemis-studio-$service:$TAG" /app -xdev -not -type d 2>>"$podman_log" |
    node "$root/scripts/containers/image-files.mjs" "$service"
done

fresh_database
test_broker

start() { # name service port [extra args…]
  local name="$1" service="$2" port="$3"
  shift 3
  podman run -d --name "$name" --network host --read-only --tmpfs /tmp:size=64m \
    --cap-drop ALL --security-opt no-new-privileges \
    -e PORT="$port" -e DATABASE_URL="$CHECK_DATABASE_URL" -e NATS_URL=nats://127.0.0.1:4222 \
    -e STUDIO_SECRET_KEY="$STUDIO_SECRET_KEY" -e STUDIO_ADMIN_PASSWORD="$STUDIO_ADMIN_PASSWORD" \
    -e NOTIFIER_HANDOVER_SECONDS=15 "$@" "artemis-studio-$service:$TAG" >/dev/null 2>>"$podman_log"
  containers+=("$name")
}
# The event store first: it migrates the database the others wait for.
for service in event-store scraper notifier gateway; do
  start "$prefix-$service" "$service" "${SERVICE_PORT[$service]}"
done
for service in event-store scraper notifier gateway; do
  wait_ready "http://127.0.0.1:${SERVICE_PORT[$service]}/readyz" "$prefix-$service" 180
  wait_healthy "$prefix-$service"
  uid="$(podman exec "$prefix-$service" sh -c 'awk "/^Uid:/ {print \$2}" /proc/1/status')"
  [ "$uid" = 1000 ] || die "$service: PID 1 runs as uid $uid, not 1000"
  if podman exec "$prefix-$service" sh -c 'touch /app/written 2>/dev/null'; then
    die "$service: the root filesystem is writable"
  fi
done
say "all four ready and healthy, PID 1 as uid 1000 on a read-only root"

live_event() {
  node "$root/scripts/containers/live-event.mjs" http://127.0.0.1:8080 "test broker (image check)" \
    "$ARTEMIS_NODE0_NAME=$ARTEMIS_NODE0_JOLOKIA_URL,$ARTEMIS_NODE0_AMQP_URL" ||
    { dump_logs "${containers[@]}"; die "no broker event reached the console through the containers"; }
}
live_event

# A second notifier, then SIGTERM to the first: it hands the cluster over and stops in time.
start "$prefix-notifier-2" notifier 8092
wait_ready http://127.0.0.1:8092/readyz "$prefix-notifier-2" 120
started=$(date +%s)
podman stop -t 30 "$prefix-notifier" >/dev/null 2>>"$podman_log"
took=$(($(date +%s) - started))
code="$(podman inspect --format '{{.State.ExitCode}}' "$prefix-notifier")"
[ "$code" = 0 ] || { podman logs --tail 30 "$prefix-notifier" >&2; die "the notifier exited $code on SIGTERM (137: killed at the deadline)"; }
logs="$(podman logs "$prefix-notifier" 2>&1)"
grep -q "handed cluster .* over: its next owner was observing" <<<"$logs" ||
  { podman logs --tail 30 "$prefix-notifier" >&2; die "the notifier stopped without handing its cluster over"; }
say "SIGTERM: the notifier handed its cluster over and exited 0 in $took s (grace 30 s)"
# What the second one now observes still reaches the console.
live_event
say "passed"
