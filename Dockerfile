# SafeWindow as one container: the app with its three embedded reference services (the identity authority,
# the consumer API and the business API; each one unless its upstream's URL is set, docs/operating.md).
# Build: docker build -t safewindow .   Run: docker run -p 3000:3000 -v safewindow-data:/data safewindow

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
# V8's heap bounded and glibc's malloc held to two arenas with a fixed mmap threshold, as package.json's
# config.nodeOptions and config.glibcTunables say (docs/operating.md "Memory"); override with
# -e NODE_OPTIONS=... or -e GLIBC_TUNABLES=... (tests/unit/dockerfile.test.ts keeps them the same).
# Node's compile cache as package.json's config.compileCache (relative to WORKDIR; docs/decisions/
# 0017-module-compile-cache.md): a restart of the container strips and compiles nothing again.
ENV NODE_ENV=production \
    NODE_OPTIONS="--max-old-space-size=384 --max-semi-space-size=4 --expose-gc" \
    GLIBC_TUNABLES="glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=131072" \
    NODE_COMPILE_CACHE="node_modules/.cache/node-compile-cache" \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY package.json server.ts ./
# What server.ts runs from source (Node's type stripping), besides the built app and its pipeline
# (server/app.ts) in build/: tests/unit/dockerfile.test.ts fails when one of its imports is not copied here.
COPY server ./server
COPY app/server ./app/server
COPY contracts ./contracts
COPY lib ./lib
COPY services ./services
# /data is the node user's alone (docs/security/data.md "DATA_DIR"): a new named volume copies this mode;
# the server (server/process.ts) keeps what it writes there 0700/0600 and tightens a volume an older image left open.
# The compile cache is the node user's too, and only theirs: what it holds runs as code.
RUN mkdir -p /data && chown node:node /data && chmod 0700 /data \
 && mkdir -p node_modules/.cache/node-compile-cache && chown node:node node_modules/.cache/node-compile-cache && chmod 0700 node_modules/.cache/node-compile-cache
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "server.ts"]
