#!/usr/bin/env bash
# `npm start`: builds everything and runs the four services against local PostgreSQL and NATS,
# plus a development broker (scripts/artemis.sh profile "dev"), registered as the demo cluster
# "dev broker" unless it exists or STUDIO_DEMO_CLUSTER=0.
# Ctrl-C stops the services; `npm run broker:stop` stops the broker.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-runtime.sh

export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/artemis_studio}"
export NATS_URL="${NATS_URL:-nats://127.0.0.1:4222}"

# A secret generated once and kept (mode 600) under the user's config, so restarts reuse it.
kept_secret() { # file bytes encoding -> the secret
  local file="${XDG_CONFIG_HOME:-$HOME/.config}/artemis-studio/$1"
  if [ ! -f "$file" ]; then
    mkdir -p "$(dirname "$file")"
    (umask 077 && node -e "process.stdout.write(require('crypto').randomBytes($2).toString('$3'))" >"$file")
  fi
  cat "$file"
}

# The vault key seals broker credentials: the same key on every start, or they cannot be opened.
export STUDIO_SECRET_KEY="${STUDIO_SECRET_KEY:-$(kept_secret secret-key 32 base64)}"
# The first admin's password (used only while no user exists): kept so the quick start can print
# it and sign the demo registration in.
export STUDIO_ADMIN_PASSWORD="${STUDIO_ADMIN_PASSWORD:-$(kept_secret admin-password 15 base64url)}"

db_name="$(node -e "console.log(new URL(process.argv[1]).pathname.slice(1))" "$DATABASE_URL")"
admin_url="$(node -e "const u=new URL(process.argv[1]); u.pathname='/postgres'; console.log(u.toString())" "$DATABASE_URL")"
if ! psql "$admin_url" -tAc "SELECT 1 FROM pg_database WHERE datname = '$db_name'" | grep -q 1; then
  psql "$admin_url" -c "CREATE DATABASE \"$db_name\"" >/dev/null
fi

npm install --no-audit --no-fund >/dev/null
npm run --silent build
bash scripts/artemis.sh start dev

# The services' lines go to this terminal through a pipe (the [service] prefix): readable ones,
# unless LOG_FORMAT says otherwise (docs/operations.md).
export LOG_FORMAT="${LOG_FORMAT:-pretty}"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait' INT TERM EXIT
for service in event-store scraper notifier gateway; do
  # shellcheck disable=SC2046 # a service's flags (ADR-0029), one or more per line, split on purpose
  node $(grep -vs '^#' "services/$service/node-flags") "services/$service/dist/main.js" 2>&1 |
    sed -u "s/^/[$service] /" &
  pids+=($!)
done
echo "Artemis Studio: the console and API on http://127.0.0.1:8080 (health: /readyz)"
echo "  sign in as: admin / $STUDIO_ADMIN_PASSWORD (the first admin's password: change it once signed in, user menu → Change password)"
bash scripts/artemis.sh env dev | sed 's/^/  dev broker: /'
if [ "${STUDIO_DEMO_CLUSTER:-1}" != 0 ]; then
  bash scripts/artemis.sh env dev | node scripts/register-demo-cluster.mjs http://127.0.0.1:8080
fi
wait
