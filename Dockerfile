# One image for every service: the workspace built once; SERVICE picks what runs.
#   docker build -t artemis-studio .
#   docker run -e SERVICE=gateway artemis-studio
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY libs libs
COPY services services
COPY web web
COPY tsconfig*.json ./
RUN npm ci --no-audit --no-fund && npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app /app
USER node
# A service's own Node.js flags, if it has any, are in services/<name>/node-flags (ADR-0029).
CMD ["sh", "-c", ": \"${SERVICE:?set SERVICE to scraper, notifier, event-store or gateway}\"; exec node $(grep -vs '^#' services/$SERVICE/node-flags) services/$SERVICE/dist/main.js"]
