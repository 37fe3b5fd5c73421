#!/usr/bin/env bash
# The Kubernetes manifests, started: the base rendered with the kube-play overlay
# (deploy/k8s/overlays/kube-play) and run by `podman kube play` against this machine's PostgreSQL
# and NATS and the tests' broker. Every pod reaches readiness (its readinessProbe polled as the
# kubelet would: podman 4.3 runs none), runs with the manifests' security settings in force
# (uid 1000, read-only root, no capabilities), and a broker event arrives over SSE through the
# gateway pod after signing in and registering the broker. What kube play cannot run (Services,
# Ingress, autoscaler, disruption budgets, network policies) stays validated by check-deploy.mjs.
# Needs the images (scripts/containers/build-images.sh); runs alone on the NATS (no other Studio).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
work="$(mktemp -d)"
podman_log="$work/podman.log"
cleanup() {
  # SIGTERM first: the services leave the NATS as they would leave a cluster.
  [ -f "$work/play.yaml" ] && podman kube down "$work/play.yaml" >/dev/null 2>>"$podman_log" || true
  for secret in "$work"/secrets/*.json; do
    [ -f "$secret" ] && podman secret rm "$(basename "$secret" .json)" >/dev/null 2>&1 || true
  done
  rm -rf "$work"
}
trap cleanup EXIT

fresh_database
test_broker
node "$root/scripts/containers/kube-play.mjs" "$root/deploy/k8s/overlays/kube-play" "$work" \
  DATABASE_URL="$CHECK_DATABASE_URL" STUDIO_SECRET_KEY="$STUDIO_SECRET_KEY" \
  "artemis-studio-gateway:STUDIO_ADMIN_PASSWORD=$STUDIO_ADMIN_PASSWORD" >"$work/probes"
for secret in "$work"/secrets/*.json; do
  name="$(basename "$secret" .json)"
  podman secret rm "$name" >/dev/null 2>&1 || true
  podman secret create "$name" "$secret" >/dev/null
done
podman kube play "$work/play.yaml" >/dev/null 2>>"$podman_log" || { cat "$podman_log" >&2; die "podman kube play failed"; }

while read -r deployment port path; do
  container="$deployment-pod-0-${deployment#studio-}"
  wait_ready "http://127.0.0.1:$port$path" "$container" 180
  uid="$(podman exec "$container" sh -c 'awk "/^Uid:/ {print \$2}" /proc/1/status')"
  caps="$(podman exec "$container" sh -c 'awk "/^CapEff:/ {print \$2}" /proc/1/status')"
  [ "$uid" = 1000 ] || die "$deployment: PID 1 runs as uid $uid, not 1000"
  [ "$caps" = 0000000000000000 ] || die "$deployment: PID 1 holds capabilities $caps"
  if podman exec "$container" sh -c 'touch /app/written 2>/dev/null'; then
    die "$deployment: the root filesystem is writable"
  fi
  say "$deployment ready ($path on $port), uid 1000, no capabilities, read-only root"
done <"$work/probes"

node "$root/scripts/containers/live-event.mjs" http://127.0.0.1:8080 "test broker (kube play)" \
  "$ARTEMIS_NODE0_NAME=$ARTEMIS_NODE0_JOLOKIA_URL,$ARTEMIS_NODE0_AMQP_URL" || {
  dump_logs $(podman ps -a --format '{{.Names}}' --filter name=studio- | grep -v infra)
  die "no broker event reached the console through the pods"
}
say "passed"
