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

# The vault key seals broker credentials; a generated one is kept so restarts can open them.
if [ -z "${STUDIO_SECRET_KEY:-}" ]; then
  key_file="${XDG_CONFIG_HOME:-$HOME/.config}/artemis-studio/secret-key"
  if [ ! -f "$key_file" ]; then
    mkdir -p "$(dirname "$key_file")"
    (umask 077 && node -e "process.stdout.write(require('crypto').randomBytes(32).toString('base64'))" >"$key_file")
  fi
  STUDIO_SECRET_KEY="$(cat "$key_file")"
  export STUDIO_SECRET_KEY
fi

# The first admin's password (used only while no user exists): generated once and kept beside the
# key, so the quick start can print it and sign the demo registration in.
if [ -z "${STUDIO_ADMIN_PASSWORD:-}" ]; then
  password_file="${XDG_CONFIG_HOME:-$HOME/.config}/artemis-studio/admin-password"
  if [ ! -f "$password_file" ]; then
    mkdir -p "$(dirname "$password_file")"
    (umask 077 && node -e "process.stdout.write(require('crypto').randomBytes(15).toString('base64url'))" >"$password_file")
  fi
  STUDIO_ADMIN_PASSWORD="$(cat "$password_file")"
  export STUDIO_ADMIN_PASSWORD
fi

db_name="$(node -e "console.log(new URL(process.argv[1]).pathname.slice(1))" "$DATABASE_URL")"
admin_url="$(node -e "const u=new URL(process.argv[1]); u.pathname='/postgres'; console.log(u.toString())" "$DATABASE_URL")"
if ! psql "$admin_url" -tAc "SELECT 1 FROM pg_database WHERE datname = '$db_name'" | grep -q 1; then
  psql "$admin_url" -c "CREATE DATABASE \"$db_name\"" >/dev/null
fi

npm install --no-audit --no-fund >/dev/null
npm run --silent build
bash scripts/artemis.sh start dev

pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait' INT TERM EXIT
for service in event-store scraper notifier gateway; do
  node "services/$service/dist/main.js" 2>&1 | sed -u "s/^/[$service] /" &
  pids+=($!)
done
echo "Artemis Studio: the console and API on http://127.0.0.1:8080 (health: /readyz)"
echo "  sign in as: admin / $STUDIO_ADMIN_PASSWORD (the first admin's password: change it once signed in, user menu → Change password)"
bash scripts/artemis.sh env dev | sed 's/^/  dev broker: /'
if [ "${STUDIO_DEMO_CLUSTER:-1}" != 0 ]; then
  bash scripts/artemis.sh env dev | node scripts/register-demo-cluster.mjs http://127.0.0.1:8080
fi
wait
