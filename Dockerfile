# syntax=docker/dockerfile:1
# One image per service, each with only what that service runs (ADR-0030): build a target.
#   docker build --target gateway -t artemis-studio-gateway .      (scraper, notifier, event-store alike)
#   podman build --target gateway -t artemis-studio-gateway .
# Behind a mirror or a TLS-inspecting proxy, give npm its configuration and the proxy's CA as build
# secrets; neither stays in any layer (docs/operations.md, "Building the images"):
#   docker build --secret id=npmrc,src=$HOME/.npmrc --secret id=ca,src=/etc/ssl/certs/ca-certificates.crt …
ARG NODE_IMAGE=node:24-bookworm-slim

# ---- The workspace, installed and built once for every target.
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
COPY libs/contracts/package.json libs/contracts/
COPY libs/timing/package.json libs/timing/
COPY libs/db/package.json libs/db/
COPY libs/bus/package.json libs/bus/
COPY libs/platform/package.json libs/platform/
COPY libs/testing/package.json libs/testing/
COPY services/scraper/package.json services/scraper/
COPY services/notifier/package.json services/notifier/
COPY services/event-store/package.json services/event-store/
COPY services/gateway/package.json services/gateway/
COPY web/package.json web/
# The secrets are read where they are mounted, for this step only: npm's configuration (a
# mirror, a token) and a CA bundle that Node.js trusts beside its own.
RUN --mount=type=secret,id=npmrc --mount=type=secret,id=ca \
    if [ -s /run/secrets/npmrc ]; then export NPM_CONFIG_USERCONFIG=/run/secrets/npmrc; fi; \
    if [ -s /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca NPM_CONFIG_CAFILE=/run/secrets/ca; fi; \
    npm ci --no-audit --no-fund
COPY tsconfig*.json ./
COPY libs libs
COPY services services
COPY web web
COPY scripts/service-image-tree.mjs scripts/
COPY scripts/lib/runtime-closure.mjs scripts/lib/
RUN npm run build \
 && for service in scraper notifier event-store gateway; do \
      node scripts/service-image-tree.mjs "$service" "/out/$service"; \
    done

# ---- What every service image has: Node.js, no root, a health check, a graceful stop.
FROM ${NODE_IMAGE} AS service
ARG VERSION=0.0.0-dev
ARG REVISION=unknown
ARG SOURCE=https://github.com/artemis-studio/artemis-studio
LABEL org.opencontainers.image.vendor="Artemis Studio" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="${SOURCE}"
ENV NODE_ENV=production
WORKDIR /app
COPY deploy/image/healthcheck.js /app/healthcheck.js
# Numeric, so Kubernetes' runAsNonRoot can check it (a name cannot be).
USER 1000:1000
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 CMD ["node", "/app/healthcheck.js"]
# SIGTERM starts the handover (the notifier's takes up to NOTIFIER_HANDOVER_SECONDS, 15 s): give
# the container at least 30 s to stop (docker stop -t, Compose stop_grace_period, Kubernetes
# terminationGracePeriodSeconds).
STOPSIGNAL SIGTERM
# A service's own Node.js flags, if it has any, are in services/<name>/node-flags (ADR-0029).
CMD ["sh", "-c", ": \"${SERVICE:?set SERVICE to scraper, notifier, event-store or gateway}\"; exec node $(grep -vs '^#' services/$SERVICE/node-flags) services/$SERVICE/dist/main.js"]

FROM service AS scraper
ENV SERVICE=scraper
COPY --from=build /out/scraper /app
EXPOSE 8081

FROM service AS notifier
ENV SERVICE=notifier
COPY --from=build /out/notifier /app
EXPOSE 8082

FROM service AS event-store
ENV SERVICE=event-store
COPY --from=build /out/event-store /app
EXPOSE 8083

FROM service AS gateway
ENV SERVICE=gateway
COPY --from=build /out/gateway /app
EXPOSE 8080
