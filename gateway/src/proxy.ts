import { Agent, ServerResponse, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import { createProxyMiddleware, proxyEventsPlugin } from "http-proxy-middleware";
import { IDENTITY_HEADER, SESSION_TOKEN_HEADER, STALE_SESSION_HEADER } from "@tollgate/proto";
import type { Request, RequestHandler } from "express";
import { HttpError, signIdentity, type ErrorContract, type Logger } from "@tollgate/kit";
import type { GatewayConfig } from "./config.js";
import { matchesPrefix, type Upstream } from "./routes.js";
import type { Caller } from "./sessions.js";

/** Headers only the gateway may set; whatever a client sends under these names is dropped. */
const GATEWAY_HEADERS = [IDENTITY_HEADER, SESSION_TOKEN_HEADER, STALE_SESSION_HEADER];

/**
 * Forwards an upstream's paths unchanged, vouching for the caller with a signed identity token.
 * Only the auth service also gets the raw session token, to re-issue the cookie.
 */
export function proxyTo(
  upstream: Upstream,
  config: GatewayConfig,
  logger: Logger,
  callerOf: (req: IncomingMessage) => Caller,
) {
  return createProxyMiddleware({
    target: upstream.target,
    agent: upstream.target.startsWith("https:") ? new HttpsAgent({ keepAlive: true }) : new Agent({ keepAlive: true }),
    pathFilter: (pathname) => matchesPrefix(pathname, upstream.prefix),
    xfwd: true,
    proxyTimeout: config.UPSTREAM_TIMEOUT_MS,
    ejectPlugins: true,
    plugins: [proxyEventsPlugin],
    on: {
      proxyReq(proxyReq, req) {
        for (const header of GATEWAY_HEADERS) proxyReq.removeHeader(header);
        const caller = callerOf(req);
        proxyReq.setHeader(IDENTITY_HEADER, signIdentity(caller.identity, config.IDENTITY_TOKEN_SECRET));
        // The client's address as the gateway determined it, never a chain the client made up.
        proxyReq.setHeader("x-forwarded-for", caller.ip);
        if (upstream.name === "auth") {
          if (caller.sessionToken) proxyReq.setHeader(SESSION_TOKEN_HEADER, caller.sessionToken);
          if (caller.staleSession) proxyReq.setHeader(STALE_SESSION_HEADER, "1");
        }
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

/** Refuses, before proxying, a body its Content-Length says is over the limit. */
export function refuseLargeBodies(limit: number, errorsFor: (req: Request) => ErrorContract): RequestHandler {
  return (req, _res, next) => {
    const length = Number(req.get("content-length") ?? 0);
    if (length <= limit) return next();
    next(new HttpError(413, errorsFor(req).codes.payload_too_large, `request body is larger than ${limit} bytes`));
  };
}
