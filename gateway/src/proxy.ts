import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import { IDENTITY_HEADER, OAUTH_STATE_HEADER, PASSKEY_CHALLENGE_HEADER, SESSION_TOKEN_HEADER, STALE_SESSION_HEADER, TRUSTED_DEVICE_HEADER, TWO_FACTOR_HEADER } from "@tollgate/proto";
import type { Request, RequestHandler } from "express";
import { HttpError, type ErrorContract, type IdentitySigner, type Logger } from "@tollgate/kit";
import type { GatewayConfig } from "./config.js";
import { ReplicaPool, type Replica } from "./replicas.js";
import { matchesPrefix, type Upstream } from "./routes.js";
import { oauthStateOf, passkeyChallengeOf, twoFactorCookiesOf, type ResolvedCaller } from "./sessions.js";

/** Headers only the gateway may set; whatever a client sends under these names is dropped. */
const GATEWAY_HEADERS = [IDENTITY_HEADER, SESSION_TOKEN_HEADER, STALE_SESSION_HEADER, OAUTH_STATE_HEADER, TWO_FACTOR_HEADER, TRUSTED_DEVICE_HEADER, PASSKEY_CHALLENGE_HEADER];
/** Headers about one connection rather than the message (RFC 9110 §7.6.1): each hop sets its own. */
const HOP_BY_HOP = ["connection", "keep-alive", "proxy-connection", "te", "trailer", "upgrade"];
/**
 * Bodies up to this size (by their Content-Length) are read before they are sent, so that a request
 * can go to another replica when the first one cannot take it; larger ones are streamed through.
 */
export const REPLAYABLE_BODY_BYTES = 64 * 1024;
/** Methods that change nothing: a request that failed after reaching a replica may be sent to another. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const NO_BODY = Buffer.alloc(0);

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

/** `headers` without the hop-by-hop ones, nor those the Connection header names as such. */
function endToEnd<Headers extends IncomingHttpHeaders>(headers: Headers, alsoDrop: readonly string[] = []): Record<string, string | string[] | undefined> {
  const named = (headers.connection ?? "").split(",").map((name) => name.trim().toLowerCase());
  const dropped = new Set([...HOP_BY_HOP, ...named, ...alsoDrop]);
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !dropped.has(name)));
}

/** How one attempt to send a request to a replica ended. */
type Attempt =
  | { outcome: "answered" }
  /** The client went away first. */
  | { outcome: "abandoned" }
  /**
   * No response came. `connected` is false when no connection was ever made, so nothing reached the
   * replica; `timedOut` when it was too slow to answer.
   */
  | { outcome: "failed"; error: Error; connected: boolean; timedOut: boolean };

class UpstreamTimeout extends Error {
  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = "UpstreamTimeout";
  }
}

export interface UpstreamProxy {
  /** Forwards the requests under the upstream's prefix; passes the rest on. */
  handle: RequestHandler;
  /** Stops the readiness checks and closes pooled connections. */
  close(): void;
}

/**
 * Forwards an upstream's paths unchanged, vouching for the caller with a signed identity token, to one
 * of the upstream's replicas. Only the auth service also gets the raw session token, to re-issue the cookie.
 *
 * A request goes to another replica when the first refused the connection (nothing reached it),
 * whatever its method, and when a GET, HEAD or OPTIONS failed before any of the response arrived; in
 * both cases only if its body is small enough to have been kept (REPLAYABLE_BODY_BYTES). A replica that
 * refused or reset a connection is passed over for UPSTREAM_EJECT_MS.
 */
export function proxyTo(
  upstream: Upstream,
  config: GatewayConfig,
  { logger, signer, callerOf }: { logger: Logger; signer: IdentitySigner; callerOf: (req: IncomingMessage) => ResolvedCaller },
): UpstreamProxy {
  const pool = new ReplicaPool(
    upstream.name,
    upstream.targets,
    {
      balancing: config.UPSTREAM_BALANCING,
      checkIntervalMs: config.UPSTREAM_CHECK_INTERVAL_MS,
      ejectMs: config.UPSTREAM_EJECT_MS,
      connectionMaxAgeMs: config.UPSTREAM_CONNECTION_MAX_AGE_MS,
      idleTimeoutMs: config.UPSTREAM_TIMEOUT_MS,
    },
    logger,
  );
  pool.startChecks();

  /** The headers the upstream gets: the client's end-to-end ones, less those only the gateway may set, plus the gateway's. */
  const outgoingHeaders = (req: Request): OutgoingHttpHeaders => {
    const headers: OutgoingHttpHeaders = endToEnd(req.headers, GATEWAY_HEADERS);
    const caller = callerOf(req);
    // The client's address rides in the signed token: services believe no X-Forwarded-For.
    headers[IDENTITY_HEADER] = signer.sign(caller.identity, req.ip);
    for (const [name, value] of Object.entries(forwardedHeaders(req))) {
      if (value) headers[name] = value;
      else delete headers[name];
    }
    if (upstream.name === "auth") {
      if (caller.sessionToken) headers[SESSION_TOKEN_HEADER] = caller.sessionToken;
      if (caller.staleSession) headers[STALE_SESSION_HEADER] = "1";
      const oauthState = oauthStateOf(req, config.AUTH_SECRET);
      if (oauthState) headers[OAUTH_STATE_HEADER] = oauthState;
      const { pendingSignIn, trustedDevice } = twoFactorCookiesOf(req, config.AUTH_SECRET);
      if (pendingSignIn) headers[TWO_FACTOR_HEADER] = pendingSignIn;
      if (trustedDevice) headers[TRUSTED_DEVICE_HEADER] = trustedDevice;
      const passkeyChallenge = passkeyChallengeOf(req, config.AUTH_SECRET);
      if (passkeyChallenge) headers[PASSKEY_CHALLENGE_HEADER] = passkeyChallenge;
    }
    return headers;
  };

  /** Sends the request to `replica` and, once its response starts, streams that to the client. */
  const attempt = (replica: Replica, req: Request, res: ServerResponse, headers: OutgoingHttpHeaders, body: Buffer | null): Promise<Attempt> =>
    new Promise((resolve) => {
      replica.inFlight += 1;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        replica.inFlight -= 1;
      };
      let settled = false;
      const settle = (result: Attempt) => {
        settled = true;
        res.off("close", abandon);
        resolve(result);
      };
      const outgoing: ClientRequest = (replica.isHttps ? httpsRequest : httpRequest)({
        protocol: replica.url.protocol,
        hostname: replica.url.hostname,
        port: replica.url.port,
        method: req.method,
        path: `${replica.basePath}${req.url}`,
        headers,
        agent: replica.agent,
      });
      let connected = false;
      outgoing.on("socket", (socket) => {
        if (outgoing.reusedSocket) connected = true;
        else socket.once("connect", () => (connected = true));
      });
      outgoing.setTimeout(config.UPSTREAM_TIMEOUT_MS, () => outgoing.destroy(new UpstreamTimeout(config.UPSTREAM_TIMEOUT_MS)));
      const abandon = () => {
        outgoing.destroy();
        release();
        settle({ outcome: "abandoned" });
      };
      res.once("close", abandon);
      outgoing.on("response", (answer) => {
        settle({ outcome: "answered" });
        res.once("close", () => {
          release();
          // The client went away before the whole answer: stop reading it.
          if (!answer.complete) outgoing.destroy();
        });
        // A response cut off upstream cannot be finished here either: cut the client's off too.
        answer.on("aborted", () => res.destroy());
        answer.on("error", () => res.destroy());
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers, ["transfer-encoding"]));
        answer.pipe(res);
      });
      outgoing.on("error", (error) => {
        if (settled) {
          res.destroy();
          return;
        }
        release();
        settle({ outcome: "failed", error, connected, timedOut: error instanceof UpstreamTimeout });
      });
      if (!body) req.pipe(outgoing);
      else if (body.length > 0) outgoing.end(body);
      else outgoing.end();
    });

  /** No replica answered (attempts fail only before a response has started, so nothing has been sent yet). */
  const unavailable = (res: ServerResponse) => {
    const body = upstream.errors.body(upstream.errors.codes.unavailable, `the ${upstream.name} service is not answering; try again shortly`);
    res.writeHead(502, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
  };

  const forward = async (req: Request, res: ServerResponse) => {
    const headers = outgoingHeaders(req);
    let body: Buffer | null;
    try {
      body = await replayableBody(req);
    } catch {
      // The client went away while sending its body.
      res.destroy();
      return;
    }
    const tried = new Set<Replica>();
    let replica = pool.choose(tried);
    while (replica && !res.destroyed) {
      tried.add(replica);
      const result = await attempt(replica, req, res, headers, body);
      if (result.outcome !== "failed") return;
      const { error, connected, timedOut } = result;
      if (!timedOut) pool.eject(replica);
      // Nothing reached the replica, or what did changes nothing: another may take it, if the body can be sent again.
      const retry = body !== null && !timedOut && (!connected || SAFE_METHODS.has(req.method));
      const next = retry ? pool.choose(tried) : null;
      logger.warn(
        { err: error, upstream: upstream.name, target: replica.url.origin, reqId: req.headers["x-request-id"], retriedOn: next?.url.origin },
        next ? "upstream replica failed; trying another" : "upstream unreachable",
      );
      replica = next;
    }
    if (!res.destroyed) unavailable(res);
  };

  return {
    handle: (req, res, next) => {
      if (!matchesPrefix(req.path, upstream.prefix)) return next();
      void forward(req, res);
    },
    close: () => pool.close(),
  };
}

/**
 * The request's body, read whole when its Content-Length says it is small enough to keep (empty when it
 * has none); null when it is to be streamed, and so can be sent only once.
 */
async function replayableBody(req: IncomingMessage): Promise<Buffer | null> {
  const length = req.headers["content-length"];
  if (length === undefined) return req.headers["transfer-encoding"] === undefined ? NO_BODY : null;
  if (Number(length) > REPLAYABLE_BODY_BYTES) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
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
