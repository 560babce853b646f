# syntax=docker/dockerfile:1
# One image per deployable, each a named target of this file:
#   docker build --target auth|organization|billing|webhook-dispatcher|gateway -t tollgate/<target> .

# ---- manifests: every workspace's package.json, the input of npm ci ------------------------------
FROM node:20-bookworm-slim AS manifests
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

# ---- build: install everything, compile every package and the web app -------------------------
FROM manifests AS build
# bcrypt compiles its native addon at install time.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
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

# ---- deps: production dependencies only, native addons built with the build stage's tools --------
FROM build AS deps
RUN rm -rf node_modules && npm ci --omit=dev && npm cache clean --force

# ---- runtime: production dependencies and compiled output only, as the unprivileged node user ---
FROM manifests AS runtime
ENV NODE_ENV=production
COPY --from=deps /app/node_modules node_modules
COPY --from=build /app/proto/dist proto/dist
COPY --from=build /app/services/kit/dist services/kit/dist
USER node
# Every process answers /healthz on $PORT; node's fetch stands in for curl, which slim images lack.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

FROM runtime AS auth
ENV PORT=3001
COPY --from=build /app/services/auth/dist services/auth/dist
EXPOSE 3001
CMD ["node", "services/auth/dist/main.js"]

FROM runtime AS organization
ENV PORT=3002
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
COPY --from=build /app/services/billing/dist services/billing/dist
EXPOSE 3003
CMD ["node", "services/billing/dist/main.js"]

FROM runtime AS webhook-dispatcher
ENV PORT=3004
COPY --from=build /app/services/webhook-dispatcher/dist services/webhook-dispatcher/dist
EXPOSE 3004
CMD ["node", "services/webhook-dispatcher/dist/main.js"]

FROM runtime AS gateway
ENV PORT=3000
COPY --from=build /app/gateway/dist gateway/dist
COPY --from=build /app/web/dist web/dist
EXPOSE 3000
CMD ["node", "gateway/dist/main.js"]
