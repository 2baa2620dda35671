# syntax=docker/dockerfile:1
#
# Kathamala in one image: `docker build -t kathamala .` then see compose.yaml (PostgreSQL, two
# instances, a proxy). The same steps run without Docker in apps/server/src/test/production.test.ts
# (npm test): build with dev dependencies, install production dependencies only, run the
# compiled server with node.

ARG NODE_IMAGE=node:24-bookworm-slim

# 1. Build: every dependency, then the web app (Vite) and the server (esbuild) ------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Manifests first, so the dependency layer is reused until one of them changes.
COPY package.json package-lock.json ./
COPY packages/domain/package.json packages/domain/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# 2. Run: production dependencies and the build output, as an unprivileged user ---------------
FROM ${NODE_IMAGE} AS runtime
# fonts-noto-core: covers drawn by sharp (librsvg) need Sinhala and Latin fonts; fontconfig
# brings /etc/fonts, without which sharp's bundled fontconfig finds no font at all.
# ffmpeg: authors' audio tracks are checked and encoded with it (without it, uploads get 503).
RUN apt-get update \
  && apt-get install -y --no-install-recommends fontconfig fonts-noto-core ffmpeg \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/domain/package.json packages/domain/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
# No install scripts: sharp and PGlite ship prebuilt binaries as ordinary packages.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/web/dist apps/web/dist

ENV NODE_ENV=production \
  MALLOC_ARENA_MAX=2 \
  HOST=0.0.0.0 \
  PORT=3000 \
  DATA_DIR=/data \
  DEMO_SEED=0 \
  CARRIER_SIMULATOR=0
# No carrier by default: the server refuses to start until SMS_PROVIDER, BILLING_PROVIDER,
# CARRIER_URL and CARRIER_WEBHOOK_SECRET name a real one (CARRIER_SIMULATOR=1: a demo only).
# DATA_DIR: PGlite (without DATABASE_URL), uploaded files (without S3_BUCKET), the carrier
# simulator's and the mail outbox's files. The node image's user `node` (uid 1000) owns it.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000

# 200 only while the database answers `select 1` within a second. The first start migrates
# (and seeds with DEMO_SEED=1), hence the start period.
HEALTHCHECK --interval=10s --timeout=3s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

# SIGTERM drains (requests in flight, running jobs) within SHUTDOWN_TIMEOUT_SECONDS (25 s):
# give `docker stop` / compose's stop_grace_period more than that. Node is PID 1 and handles
# the signal itself.
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "apps/server/dist/main.js"]
