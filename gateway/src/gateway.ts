import { Agent, ServerResponse, type Server } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import type { AddressInfo } from "node:net";
import { existsSync } from "node:fs";
import path from "node:path";
import express, { type Request } from "express";
import { createProxyMiddleware, proxyEventsPlugin } from "http-proxy-middleware";
import { IDENTITY_HEADER } from "@tollgate/proto";
import { betterAuthErrors, closeServer, connectRedis, createHttpApp, listen, Metrics, signIdentity, type Logger } from "@tollgate/kit";
import type { Redis } from "ioredis";
import type { GatewayConfig } from "./config.js";
import { matchesPrefix, upstreams, type Upstream } from "./routes.js";

export interface RunningGateway {
  url: string;
  server: Server;
  redis: Redis;
  stop(): Promise<void>;
}

/**
 * The only public entry: routes API paths to their service with a signed identity token, and
 * serves the web app for everything else.
 */
export async function startGateway(config: GatewayConfig, logger: Logger): Promise<RunningGateway> {
  const metrics = new Metrics("gateway");
  const redis = await connectRedis(config.REDIS_URL, config.REDIS_PREFIX, logger);
  const routes = upstreams(config);
  const upstreamFor = (req: Request) => routes.find((upstream) => matchesPrefix(req.path, upstream.prefix));
  let shuttingDown = false;

  const app = createHttpApp(
    {
      logger,
      metrics,
      errors: (req) => upstreamFor(req)?.errors ?? betterAuthErrors,
      isShuttingDown: () => shuttingDown,
      readiness: { redis: () => redis.ping() },
    },
    (app) => {
      for (const upstream of routes) app.use(proxyTo(upstream, config, logger));
      mountWebApp(app, config.WEB_DIST, logger);
    },
  );

  const server = await listen(app, config.PORT, config.HOST);
  const { port } = server.address() as AddressInfo;
  logger.info({ port, upstreams: Object.fromEntries(routes.map((u) => [u.prefix, u.target])) }, "gateway is listening");
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    redis,
    async stop() {
      shuttingDown = true;
      await closeServer(server, config.SHUTDOWN_TIMEOUT_MS);
      await redis.quit();
      logger.info("gateway stopped");
    },
  };
}

function proxyTo(upstream: Upstream, config: GatewayConfig, logger: Logger) {
  return createProxyMiddleware({
    target: upstream.target,
    agent: upstream.target.startsWith("https:") ? new HttpsAgent({ keepAlive: true }) : new Agent({ keepAlive: true }),
    pathFilter: (pathname) => matchesPrefix(pathname, upstream.prefix),
    xfwd: true,
    proxyTimeout: config.UPSTREAM_TIMEOUT_MS,
    ejectPlugins: true,
    plugins: [proxyEventsPlugin],
    on: {
      proxyReq(proxyReq) {
        // Overwrites whatever the client sent in this header: only the gateway vouches for callers.
        // Resolving sessions and tokens lands with the auth service; until then every caller is anonymous.
        proxyReq.setHeader(IDENTITY_HEADER, signIdentity({ kind: "anonymous" }, config.IDENTITY_TOKEN_SECRET));
      },
      error(error, req, res) {
        logger.warn({ err: error, upstream: upstream.name, reqId: req.headers["x-request-id"] }, "upstream unreachable");
        if (!(res instanceof ServerResponse) || res.headersSent) {
          res.destroy();
          return;
        }
        const body = upstream.errors.body(upstream.errors.codes.unavailable, `the ${upstream.name} service is not answering; try again shortly`);
        res.writeHead(502, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
      },
    },
  });
}

/**
 * Static assets with long caching (their names carry a hash), and index.html for client-side
 * routes: any GET for HTML at a path without a file extension.
 */
function mountWebApp(app: express.Express, webDist: string, logger: Logger): void {
  const index = path.join(webDist, "index.html");
  if (!existsSync(index)) logger.warn({ webDist }, "the web app is not built; run `npm run build` to serve it");
  app.use("/assets", express.static(path.join(webDist, "assets"), { immutable: true, maxAge: "1y", fallthrough: false }));
  app.use(express.static(webDist, { index: false }));
  app.get("/{*path}", (req, res, next) => {
    if (path.extname(req.path) !== "" || !req.accepts("html") || !existsSync(index)) {
      next();
      return;
    }
    res.setHeader("cache-control", "no-cache");
    res.sendFile(index);
  });
}
