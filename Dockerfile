# syntax=docker/dockerfile:1
# One image for every app and the migration step; the command picks which one runs (see
# docker-compose.yml):
#   node [flags] dist/apps/<api|worker|public>/src/main.js
#   node dist/libs/data/src/migrate/migrate.cli.js apply
# Stages: `manifests` gathers what npm ci needs; `build` installs every package and compiles the
# TypeScript with SWC into dist/ (scripts/build.js); the runtime stage installs production
# packages only — no compiler, test tool or Prisma CLI — and takes dist/ from `build`.
# test/production-install.e2e-spec.ts makes the same install and boots the apps from it;
# test/docker.spec.ts checks this file's shape.
ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-bookworm-slim AS base
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false
WORKDIR /app

# The lockfile and every workspace's package.json, nothing else: all npm ci needs. This stage
# runs again on any change, but its output changes only with a dependency, and BuildKit caches a
# COPY by content, so the install layers below are reused across source changes.
FROM base AS manifests
COPY . /src
RUN cd /src \
 && find . -name package.json -not -path '*/node_modules/*' -exec cp --parents -t /app {} + \
 && cp package-lock.json /app/

FROM base AS build
COPY --from=manifests /app ./
# No install scripts: the root's postinstall (the Prisma client) needs prisma/, copied below.
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts
COPY . .
RUN npm run db:generate && npm run build

FROM base AS runtime
ENV NODE_ENV=production
COPY --from=manifests /app ./
# --omit=optional as well: the lockfile marks prisma and typescript "devOptional" (optional peers
# of @prisma/client that the dev tree satisfies), and --omit=dev alone would still install them.
# The generated Prisma client is compiled into dist/, so no install script is needed.
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --omit=optional --ignore-scripts
COPY --from=build /app/dist ./dist
# The code stays root's and read-only; the apps run as `node`, which owns only .data/ (where the
# `fs` storage driver writes by default: mount a volume there to use it).
RUN mkdir -p .data && chown node:node .data
USER node
ENV API_HOST=0.0.0.0 \
    PUBLIC_HOST=0.0.0.0 \
    WORKER_HTTP_HOST=0.0.0.0
# api, public, the worker's probes.
EXPOSE 3000 8080 9464
# Flags as in libs/config/src/app-processes.ts (APP_NODE_FLAGS).
CMD ["node", "--max-old-space-size=256", "--max-semi-space-size=8", "dist/apps/api/src/main.js"]
