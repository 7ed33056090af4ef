# syntax=docker/dockerfile:1
# The API and the indexer in one image.
#   API (default command):  node dist/src/server.js
#   indexer:                node bin/ppa-indexer.js <command> …   (docker compose run --rm indexer …)
#   database:               node dist/db/migrate.js, node dist/db/seed.js [--if-empty]   (compose's db-setup)
# docs/operations.md describes both; test/integration/deploy.test.ts keeps this file and that guide in step.

ARG NODE_IMAGE=node:24-bookworm-slim

# ---- build: every dependency, then the TypeScript compiler emits dist/src, dist/indexer, dist/indexContract, dist/settings, dist/db ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY indexer ./indexer
COPY indexContract ./indexContract
COPY settings ./settings
COPY db ./db
COPY mappings ./mappings
RUN npm run build

# ---- runtime: production dependencies, compiled code, index mappings, sample data, the indexer's bin ----
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --no-audit --no-fund
COPY --from=build /app/dist ./dist
COPY mappings ./mappings
# The Reconciliation Service API's schemas: the API checks the batches it is sent against them.
COPY schemas/reconciliation ./schemas/reconciliation
COPY db/migrations ./db/migrations
COPY data ./data
COPY public ./public
COPY bin ./bin
# Everything above belongs to root and is read-only to the process; the API writes nothing to disk.
USER node
EXPOSE 3000
# Slim images have no curl: Node's own fetch asks the readiness endpoint (Elasticsearch reachable, alias present).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node is PID 1 and gets SIGTERM itself: src/server.ts handles SIGTERM/SIGINT (stops accepting, drains, closes
# the Elasticsearch and Redis clients, exits), so no init wrapper (tini) is needed; the process starts no children.
CMD ["node", "dist/src/server.js"]
