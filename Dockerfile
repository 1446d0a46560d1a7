# HealthBook in one image: the API, the live chat's WebSocket and the built web app on one port.
# Build:  docker build -t healthbook .        (or: buildah bud -t healthbook .)
# Run:    see compose.yaml and docs/operating/deployment.md.
#
# BASE is any Debian bookworm image with Node.js 20 (node, npm) on the PATH; the official one by default.
ARG BASE=node:20-bookworm-slim

# ---- build: every dependency, then the web bundle and the server bundle -------------------------
FROM ${BASE} AS build
WORKDIR /src
# The manifests first, so that the dependency layer is reused while only sources change.
COPY package.json package-lock.json .npmrc tsconfig.base.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY packages/shared packages/shared
COPY apps/server apps/server
COPY apps/web apps/web
# apps/web/dist (the production bundle, precompressed) and apps/server/dist (server.js, cli.js,
# pdf.worker.js and the seed assets; npm packages stay external, @healthbook/shared is bundled in).
RUN npm run build

# ---- runtime: production dependencies of the server only, the two bundles, a non-root user -------
FROM ${BASE} AS runtime
WORKDIR /app
# npm ci needs every workspace's manifest; only the server workspace's production dependencies are
# installed (no dev tools: no tsx, esbuild, vite, vitest). None of them has an install script.
COPY package.json package-lock.json .npmrc ./
COPY packages/shared/package.json packages/shared/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --ignore-scripts --workspace @healthbook/server --no-audit --no-fund
COPY --from=build /src/apps/web/dist apps/web/dist
COPY --from=build /src/apps/server/dist apps/server/dist
# `npm run cli -- <command>` (operator commands) runs apps/server/dist/cli.js through these two.
COPY scripts/cli.mjs scripts/build-stale.mjs scripts/

RUN groupadd --gid 10001 healthbook \
 && useradd --uid 10001 --gid healthbook --home-dir /home/healthbook --create-home --shell /usr/sbin/nologin healthbook \
 && mkdir -p /data \
 && chown healthbook:healthbook /data

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
# The embedded database (without DATABASE_URL), files (without STORAGE_URL) and the generated JWT
# secret (without JWT_SECRET) live here.
VOLUME ["/data"]
USER healthbook
EXPOSE 8080
# Ready: the database, Redis (with REDIS_URL) and the file store answer. Node's own fetch: the slim
# base image has no curl.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/api/health/ready', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The server handles SIGTERM itself (finishes requests in flight, then exits 0 within 10 s).
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "apps/server/dist/server.js"]
