#!/usr/bin/env bash
# `npm test`: everything CI checks, in the order that fails fastest.
# Integration tests need PostgreSQL and NATS running (see README); the harness creates a fresh
# database and starts the test broker itself.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-runtime.sh

step() { printf '\n==> %s\n' "$*"; }

step "typecheck (Node.js $(node --version))"
npm run --silent typecheck
step lint
npm run --silent lint
node scripts/check-lint-rules.mjs
step "API descriptions (generated from the code, linted, and the committed copies current)"
node scripts/check-api-descriptions.mjs
step "deployment files (Kubernetes rendered and validated strictly, Compose against its specification)"
node scripts/check-deploy.mjs
step "unit tests"
npx jest --selectProjects unit
npm run --silent test -w web
step "integration tests (real PostgreSQL, NATS and Artemis)"
npx jest --selectProjects integration --runInBand
step "end-to-end tests (the console in Chromium against the whole stack and Artemis)"
npm run --silent build -w web
npx jest --selectProjects e2e --runInBand
step "containers (the images built and started as containers, with podman kube play, and with Compose)"
bash scripts/containers/check.sh
