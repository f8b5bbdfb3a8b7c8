# syntax=docker/dockerfile:1
# Caretaker's production image (docs/deploy.md): Node 24 slim, multi-stage, runs as the unprivileged
# `node` user on a read-only root filesystem; the only writable places are the data volume
# (CARETAKER_DATA_DIR=/data: the embedded database, local files, mail) and /tmp (upload spooling).
# test/production/deploy-layout.test.ts builds the same runtime layout (npm ci --omit=dev and the
# files copied below) in a temporary folder and starts it read-only as an unprivileged user; it reads
# the final stage's COPY lines, so a runtime folder is added here, once, on one COPY line per path.

# Production dependencies only (no install scripts: the console is built in its own stage).
FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# The web console (needs the dev dependencies: Vite, React).
FROM node:24-slim AS console
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY console ./console
COPY clients ./clients
COPY scripts/console-build.js ./scripts/console-build.js
COPY tsconfig.json ./
RUN node scripts/console-build.js

FROM node:24-slim
ENV NODE_ENV=production \
    CARETAKER_DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=3000 \
    CARETAKER_SYSOPS_SECOND_FACTOR=true
WORKDIR /app
# Node runs the TypeScript sources directly (type stripping): nothing is compiled at start.
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY bin ./bin
COPY src ./src
COPY --from=console /app/console/dist ./console/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Readiness: /readyz (unauthenticated; releases before 2026-11-26 answered at
# /api/system/health/ready instead). fetch is built into Node: no curl in the image.
HEALTHCHECK --interval=10s --timeout=3s --start-period=90s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
# --max-semi-space-size=16: a 32 MiB young generation instead of V8's 128 MiB on a large machine
# (docs/operations.md "Starting"), as `npm start` runs it. On the embedded database (no DATABASE_URL)
# the server starts itself again with 8 MiB semi-spaces and glibc's mmap threshold fixed
# (docs/operations.md "Memory on the embedded database").
CMD ["node", "--max-semi-space-size=16", "bin/caretaker.js", "serve"]
