# The sign-in service as a container image (docs/operations/container.md).
#
#   docker build -t signin .                                   # on the official node:24-bookworm-slim
#   docker build --build-arg NODE_IMAGE=node:22-bookworm-slim -t signin .
#
# NODE_IMAGE is any Debian-based image with Node.js 22 or later and npm in /usr/local (the official
# `node:*-slim` images, or one built the same way): the build stage installs and builds with it, the
# runtime stage runs on it with the production dependencies and the JavaScript build (dist/) only.
ARG NODE_IMAGE=node:24-bookworm-slim

# ---- build: every dependency, then `npm run build` (bin/build-dist.js) writes dist/ ----
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# The npm cache is a cache mount: a rebuild after a change of the lock file downloads only what changed.
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY src ./src
COPY adapters ./adapters
COPY interactions ./interactions
COPY views ./views
RUN npm run build

# ---- production dependencies only (no TypeScript, no tsx: bin/signin.js then runs dist/) ----
FROM ${NODE_IMAGE} AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
# Not --omit=optional: it would drop the native build of the password hasher with the embedded store.
# Type declarations, source maps and documents are never read at run time: 30 MB of the 87.
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && find node_modules -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' -o -name '*.md' \) -delete

# ---- runtime ----
FROM ${NODE_IMAGE}
# Files of the service belong to root and are read-only to the server; it writes only to the two volumes.
WORKDIR /app
COPY --from=dependencies /app/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY package.json ./
COPY bin/signin.js ./bin/signin.js
RUN ln -s /app/bin/signin.js /usr/local/bin/signin \
  && groupadd --system --gid 10001 signin \
  && useradd --system --uid 10001 --gid signin --home-dir /var/lib/signin --no-create-home --shell /usr/sbin/nologin signin \
  && mkdir -p /etc/signin /var/lib/signin \
  && chown signin:signin /etc/signin /var/lib/signin

# /etc/signin holds the config file (signin.yaml: `signin init` writes it there, or mount your own);
# /var/lib/signin is the working directory, so the embedded store's default `dataDir: ./data` is
# /var/lib/signin/data. On Postgres nothing is written there.
ENV NODE_ENV=production \
    SIGNIN_CONFIG=/etc/signin/signin.yaml \
    PORT=3000
VOLUME ["/etc/signin", "/var/lib/signin"]
WORKDIR /var/lib/signin
USER signin:signin
EXPOSE 3000

# /readyz: 200 while the stores answer, 503 while they do not and while the server drains. Node's own
# fetch, since slim images have no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# The server is the container's first process, started without a shell or npm between: SIGTERM (docker
# stop, a Kubernetes pod's end) reaches it and it drains (shutdown.drainSeconds) before it exits 0.
STOPSIGNAL SIGTERM
CMD ["signin", "serve"]
