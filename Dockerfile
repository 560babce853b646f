# syntax=docker/dockerfile:1
# One image per deployable, each a named target of this file:
#   docker build --target auth|organization|billing|webhook-dispatcher|gateway -t tollgate/<target> .

# ---- manifests: every workspace's package.json, the input of npm ci ------------------------------
# Node 24: the LTS line with the longest support ahead (until April 2028); package.json's engines agrees.
FROM node:24-bookworm-slim AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY proto/package.json proto/
COPY services/kit/package.json services/kit/
COPY services/auth/package.json services/auth/
COPY services/organization/package.json services/organization/
COPY services/billing/package.json services/billing/
COPY services/webhook-dispatcher/package.json services/webhook-dispatcher/
COPY gateway/package.json gateway/
COPY web/package.json web/
COPY launcher/package.json launcher/
COPY bench/package.json bench/

# ---- toolchain: bcrypt compiles its native addon at install time where no prebuilt one fits -------
FROM manifests AS toolchain
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*

# ---- build: install everything, compile every package and the web app -------------------------
FROM toolchain AS build
RUN npm ci
COPY tsconfig.base.json ./
COPY proto proto
COPY services services
COPY gateway gateway
COPY web web
COPY launcher launcher
# A production image leaves the development mailbox screen out of the web app.
ENV VITE_DEV_MAILBOX=false
RUN npm run build

# ---- <deployable>-deps: that deployable's production dependencies alone -------------------------
# npm puts a package another one needs in another version under the workspace (for example the
# dispatcher's ipaddr.js in services/webhook-dispatcher/node_modules): the images take all of /app.
FROM toolchain AS auth-deps
RUN npm ci --omit=dev --workspace services/auth --include-workspace-root=false

FROM toolchain AS organization-deps
RUN npm ci --omit=dev --workspace services/organization --include-workspace-root=false

FROM toolchain AS billing-deps
RUN npm ci --omit=dev --workspace services/billing --include-workspace-root=false

FROM toolchain AS webhook-dispatcher-deps
RUN npm ci --omit=dev --workspace services/webhook-dispatcher --include-workspace-root=false

FROM toolchain AS gateway-deps
RUN npm ci --omit=dev --workspace gateway --include-workspace-root=false

# ---- runtime: compiled shared packages, as the unprivileged node user (uid 1000) -----------------
FROM manifests AS runtime
ENV NODE_ENV=production
COPY --from=build /app/proto/dist proto/dist
COPY --from=build /app/services/kit/dist services/kit/dist
USER node
# Every process answers /healthz on $PORT; node's fetch stands in for curl, which slim images lack.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

FROM runtime AS auth
ENV PORT=3001
COPY --from=auth-deps /app ./
COPY --from=build /app/services/auth/dist services/auth/dist
EXPOSE 3001
CMD ["node", "services/auth/dist/main.js"]

FROM runtime AS organization
ENV PORT=3002
COPY --from=organization-deps /app ./
COPY --from=build /app/services/organization/dist services/organization/dist
EXPOSE 3002
CMD ["node", "services/organization/dist/main.js"]

FROM runtime AS billing
ENV PORT=3003
# Uploaded files live on this volume unless FILE_STORAGE=s3 puts them in a bucket.
ENV FILES_DIR=/var/lib/tollgate/files
USER root
RUN mkdir -p "$FILES_DIR" && chown node:node "$FILES_DIR"
USER node
VOLUME /var/lib/tollgate/files
COPY --from=billing-deps /app ./
COPY --from=build /app/services/billing/dist services/billing/dist
EXPOSE 3003
CMD ["node", "services/billing/dist/main.js"]

FROM runtime AS webhook-dispatcher
ENV PORT=3004
COPY --from=webhook-dispatcher-deps /app ./
COPY --from=build /app/services/webhook-dispatcher/dist services/webhook-dispatcher/dist
EXPOSE 3004
CMD ["node", "services/webhook-dispatcher/dist/main.js"]

FROM runtime AS gateway
ENV PORT=3000
COPY --from=gateway-deps /app ./
COPY --from=build /app/gateway/dist gateway/dist
COPY --from=build /app/web/dist web/dist
EXPOSE 3000
CMD ["node", "gateway/dist/main.js"]
