import { Agent, ServerResponse, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import { createProxyMiddleware, proxyEventsPlugin } from "http-proxy-middleware";
import { IDENTITY_HEADER, OAUTH_STATE_HEADER, SESSION_TOKEN_HEADER, STALE_SESSION_HEADER } from "@tollgate/proto";
import type { Request, RequestHandler } from "express";
import { HttpError, type ErrorContract, type IdentitySigner, type Logger } from "@tollgate/kit";
import type { GatewayConfig } from "./config.js";
import { matchesPrefix, type Upstream } from "./routes.js";
import { oauthStateOf, type ResolvedCaller } from "./sessions.js";

/** Headers only the gateway may set; whatever a client sends under these names is dropped. */
const GATEWAY_HEADERS = [IDENTITY_HEADER, SESSION_TOKEN_HEADER, STALE_SESSION_HEADER, OAUTH_STATE_HEADER];

/**
 * Where the request came from, as the gateway determined it (express's `trust proxy` believes only
 * TRUSTED_PROXIES), never what the client claimed: the client's address first, then each trusted
 * proxy it came through, ending with the gateway's own peer; the scheme and host it was sent to.
 */
function forwardedHeaders(req: Request): Record<string, string | undefined> {
  return {
    "x-forwarded-for": [...req.ips, req.socket.remoteAddress].filter(Boolean).join(", "),
    "x-forwarded-proto": req.protocol,
    // Typed as a string, yet undefined for an HTTP/1.0 request that names no host.
    "x-forwarded-host": req.host,
  };
}

/**
 * Forwards an upstream's paths unchanged, vouching for the caller with a signed identity token.
 * Only the auth service also gets the raw session token, to re-issue the cookie.
 */
export function proxyTo(
  upstream: Upstream,
  config: GatewayConfig,
  { logger, signer, callerOf }: { logger: Logger; signer: IdentitySigner; callerOf: (req: IncomingMessage) => ResolvedCaller },
) {
  // With a timeout set, node's agent honours the upstream's `Keep-Alive: timeout=5` and drops an idle
  // socket a second early; without one it keeps the socket until the upstream closes it, and a request
  // sent on it just then fails with a 502.
  const agentOptions = { keepAlive: true, timeout: config.UPSTREAM_TIMEOUT_MS };
  return createProxyMiddleware({
    target: upstream.target,
    agent: upstream.target.startsWith("https:") ? new HttpsAgent(agentOptions) : new Agent(agentOptions),
    pathFilter: (pathname) => matchesPrefix(pathname, upstream.prefix),
    // Not http-proxy's xfwd, which appends to whatever X-Forwarded-* the client sent.
    xfwd: false,
    proxyTimeout: config.UPSTREAM_TIMEOUT_MS,
    ejectPlugins: true,
    plugins: [proxyEventsPlugin],
    on: {
      proxyReq(proxyReq, req) {
        for (const header of GATEWAY_HEADERS) proxyReq.removeHeader(header);
        const caller = callerOf(req);
        // The client's address rides in the signed token: services believe no X-Forwarded-For.
        proxyReq.setHeader(IDENTITY_HEADER, signer.sign(caller.identity, (req as Request).ip));
        // http-proxy types it as node's request; it is express's, which ran the routes before this.
        for (const [name, value] of Object.entries(forwardedHeaders(req as Request))) {
          if (value) proxyReq.setHeader(name, value);
          else proxyReq.removeHeader(name);
        }
        if (upstream.name === "auth") {
          if (caller.sessionToken) proxyReq.setHeader(SESSION_TOKEN_HEADER, caller.sessionToken);
          if (caller.staleSession) proxyReq.setHeader(STALE_SESSION_HEADER, "1");
          const oauthState = oauthStateOf(req, config.AUTH_SECRET);
          if (oauthState) proxyReq.setHeader(OAUTH_STATE_HEADER, oauthState);
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

/** Where file parts are uploaded to; they have a limit of their own. */
const UPLOADS = "/v1/files/uploads/";

/** Refuses, before proxying, a body its Content-Length says is over the limit (file parts' own, for uploads). */
export function refuseLargeBodies(limits: { body: number; upload: number }, errorsFor: (req: Request) => ErrorContract): RequestHandler {
  return (req, _res, next) => {
    const limit = req.path.startsWith(UPLOADS) && req.method === "PUT" ? limits.upload : limits.body;
    const length = Number(req.get("content-length") ?? 0);
    if (length <= limit) return next();
    next(new HttpError(413, errorsFor(req).codes.payload_too_large, `request body is larger than ${limit} bytes`));
  };
}
