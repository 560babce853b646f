import type { IncomingMessage, Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Request, RequestHandler } from "express";
import type { Redis } from "ioredis";
import { accessTokenRevoked, sessionChanged, sessionRevoked, userBanned, userDeleted, userUpdated } from "@tollgate/proto";
import {
  betterAuthErrors,
  closeServer,
  connectBus,
  connectRedis,
  createHttpApp,
  describeStartupError,
  ensureEventStream,
  EventConsumer,
  HttpError,
  identitySigner,
  keyDerivedFromSigningKey,
  listen,
  Metrics,
  natsSettingsOf,
  serveMetrics,
  on,
  StatelessConsumerStore,
  trustedOrigins,
  type Logger,
  type StatelessHandlerContext,
} from "@tollgate/kit";
import { AccessTokenResolver } from "./access-tokens.js";
import { GatewayCache } from "./cache.js";
import type { GatewayConfig } from "./config.js";
import { getSessionLane } from "./get-session.js";
import { cors, originCheck } from "./origins.js";
import { proxyTo, refuseLargeBodies } from "./proxy.js";
import { rateLimit, RateLimits } from "./rate-limit.js";
import { matchesPrefix, upstreams } from "./routes.js";
import { ApiKeyResolver } from "./api-keys.js";
import { ANONYMOUS, hashToken, SessionResolver, type ResolvedCaller } from "./sessions.js";
import { mountApiDocs } from "./api-docs.js";
import { polarApiVersions } from "./api-versions.js";
import { mountWebApp } from "./web-app.js";

export interface RunningGateway {
  url: string;
  /** Where Prometheus scrapes /metrics (METRICS_PORT), if anywhere: never the public port. */
  metricsUrl: string | null;
  server: Server;
  redis: Redis;
  stop(): Promise<void>;
}

/**
 * The only public entry: resolves each API caller once, routes API paths to their service with a
 * signed identity token, and serves the web app for everything else.
 */
export async function startGateway(config: GatewayConfig, logger: Logger): Promise<RunningGateway> {
  const metrics = new Metrics("gateway");
  const cleanup: (() => Promise<unknown>)[] = [];
  const release = async () => {
    for (const step of cleanup.reverse()) await step().catch((error: unknown) => logger.warn({ err: error }, "shutdown step failed"));
  };
  try {
    const redis = await connectRedis(config.REDIS_URL, config.REDIS_PREFIX, logger);
    cleanup.push(() => redis.quit());
    const bus = await connectBus({ ...natsSettingsOf(config), prefix: config.NATS_PREFIX, name: "gateway" }).catch((error: unknown) => {
      throw describeStartupError("NATS", config.NATS_URL, error);
    });
    cleanup.push(() => bus.nc.drain());
    await ensureEventStream(bus);

    // Sealed with a key derived from the signing key: the one secret only the gateway holds, which every replica shares.
    const sealingKey = keyDerivedFromSigningKey(config.IDENTITY_SIGNING_KEY, "gateway-cache");
    const cache = new GatewayCache({ redis, logger, sealingKey, ttlSeconds: config.SESSION_CACHE_TTL_SECONDS });
    const sessions = new SessionResolver({ cache, redis, bus, secret: config.AUTH_SECRET });
    const accessTokens = new AccessTokenResolver({ cache, redis, bus });
    const apiKeys = new ApiKeyResolver({ bus });
    const cacheInvalidation = new EventConsumer(
      {
        name: "gateway-session-cache",
        handlers: [
          on(sessionRevoked, (event, _context: StatelessHandlerContext) => sessions.forget({ tokenHashes: event.data.sessions.map((s) => s.token_hash) })),
          on(userBanned, (event, _context: StatelessHandlerContext) => sessions.forget({ userId: event.data.id })),
          // Cached sessions carry the user as get-session shows it.
          on(userUpdated, (event, _context: StatelessHandlerContext) => sessions.forget({ userId: event.data.id })),
          on(sessionChanged, (event, _context: StatelessHandlerContext) => sessions.forget({ userId: event.data.user_id })),
          on(userDeleted, (event, _context: StatelessHandlerContext) => sessions.forget({ userId: event.data.id })),
          on(accessTokenRevoked, async (event, _context: StatelessHandlerContext) => {
            await accessTokens.forget(event.data.token_hash);
          }),
        ],
      },
      { store: new StatelessConsumerStore(logger), bus, logger, metrics },
    );
    await cacheInvalidation.start();
    cleanup.push(() => cacheInvalidation.stop());

    const routes = upstreams(config);
    const upstreamFor = (req: Request) => routes.find((upstream) => matchesPrefix(req.path, upstream.prefix));
    const errorsFor = (req: Request) => upstreamFor(req)?.errors ?? betterAuthErrors;
    /** Only Polar's API authenticates with a bearer token (one that opens nothing is refused with 401). */
    const readsBearer = (req: Request) => matchesPrefix(req.path, "/v1");
    /** Runs a middleware for API requests only; the web app's files need none of this. */
    const forApi = (handler: RequestHandler): RequestHandler => (req, res, next) => (upstreamFor(req) ? handler(req, res, next) : next());
    const callers = new WeakMap<IncomingMessage, ResolvedCaller>();
    const callerOf = (req: IncomingMessage) => callers.get(req) ?? ANONYMOUS;
    const trusted = trustedOrigins(config.PUBLIC_URL, config.TRUSTED_ORIGINS);
    const rateLimits = config.RATE_LIMIT_ENABLED ? new RateLimits(redis, logger) : null;
    let shuttingDown = false;
    const signer = identitySigner(config.IDENTITY_SIGNING_KEY);
    const proxies = routes.map((upstream) => proxyTo(upstream, config, { logger, signer, callerOf }));
    cleanup.push(() => {
      for (const proxy of proxies) proxy.close();
      return Promise.resolve();
    });

    const app = createHttpApp(
      {
        logger,
        metrics,
        errors: errorsFor,
        isShuttingDown: () => shuttingDown,
        trustProxy: config.TRUSTED_PROXIES.length > 0 ? config.TRUSTED_PROXIES : false,
        securityHeaders: true,
        readiness: { nats: () => bus.nc.flush() },
        // Sessions, tokens and rate limits do without Redis (see cache.ts, rate-limit.ts).
        degradable: { redis: () => redis.ping() },
      },
      (app) => {
        app.use(polarApiVersions());
        app.use(forApi(refuseLargeBodies({ body: config.BODY_LIMIT, upload: config.FILE_UPLOAD_BODY_LIMIT }, errorsFor)));
        app.use(forApi(cors(trusted)));
        if (rateLimits) app.use(forApi(rateLimit(rateLimits)));
        app.use(forApi(originCheck(trusted, errorsFor, readsBearer)));
        // Each API caller is resolved once, here (or already by the get-session lane), and vouched for to every service behind.
        app.use(
          forApi(async (req, _res, next) => {
            try {
              // Polar's API takes an organization access token as bearer, better-auth's an API key (before
              // any session cookie, as its plugin has it); without one, the session cookie.
              const credential = readsBearer(req) ? await accessTokens.resolve(req) : await apiKeys.resolve(req);
              const caller = credential ?? callers.get(req) ?? (await sessions.resolve(req));
              callers.set(req, caller);
              // Whatever a signed-in user changes through auth (their name, their session ending) must
              // show in their next get-session, so the cached copy goes before auth sees the change.
              // While Redis is down nothing is read from it; the events auth sends for the change drop
              // the copy once it is back (retried until they do), as they do for every other replica.
              if (caller.sessionToken && req.method !== "GET" && matchesPrefix(req.path, "/api/auth")) {
                await sessions.forget({ tokenHashes: [hashToken(caller.sessionToken)] }).catch((error: unknown) => {
                  if (redis.status === "ready") throw error;
                });
              }
              next();
            } catch (error) {
              if (error instanceof HttpError) return next(error);
              logger.error({ err: error }, "could not resolve the caller's session");
              next(new HttpError(503, errorsFor(req).codes.unavailable, "sessions cannot be checked right now; try again shortly"));
            }
          }),
        );
        // Before the proxies: /v1/openapi.json and /api/auth/openapi.json are the gateway's, merged from the services'.
        mountApiDocs(app, routes, { signer, logger });
        for (const proxy of proxies) app.use(proxy.handle);
        mountWebApp(app, config.WEB_DIST, logger, config.PAYMENT_PROCESSOR);
      },
    );

    const answerGetSession = getSessionLane({
      sessions,
      remember: (req, caller) => callers.set(req, caller),
      trusted,
      rateLimits,
      trustProxy: app.get("trust proxy fn") as (address: string, hop: number) => boolean,
      cookieCacheSecret: config.SESSION_COOKIE_CACHE ? config.AUTH_SECRET : null,
      logger,
      metrics,
      isShuttingDown: () => shuttingDown,
    });
    const metricsServer = await serveMetrics(metrics, config);
    if (metricsServer) cleanup.push(() => closeServer(metricsServer, 1_000));
    const server = await listen(
      (req, res) => {
        answerGetSession(req, res).then(
          (answered) => {
            if (!answered) app(req, res);
          },
          (error: unknown) => {
            logger.error({ err: error }, "get-session failed");
            res.destroy();
          },
        );
      },
      config.PORT,
      config.HOST,
    );
    const { port } = server.address() as AddressInfo;
    logger.info({ port, upstreams: Object.fromEntries(routes.map((u) => [u.prefix, u.targets.join(",")])) }, "gateway is listening");
    return {
      url: `http://127.0.0.1:${port}`,
      metricsUrl: metricsServer ? `http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}/metrics` : null,
      server,
      redis,
      async stop() {
        shuttingDown = true;
        await closeServer(server, config.SHUTDOWN_TIMEOUT_MS);
        await release();
        logger.info("gateway stopped");
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}
export { loadGatewayConfig, type GatewayConfig } from "./config.js";
