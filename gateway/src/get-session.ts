import type { IncomingMessage, ServerResponse } from "node:http";
import proxyAddr from "proxy-addr";
import { decodeSessionCache, parseCookieHeader, securityHeaders, trackRequest, verifyCookieValue, type Logger, type Metrics } from "@tollgate/kit";
import { API_KEY_HEADER } from "@tollgate/proto";
import { applyCors } from "./origins.js";
import { AUTH_REFUSAL_BODY, refusalHeaders, type RateLimits } from "./rate-limit.js";
import { SESSION_COOKIE_NAMES, type ResolvedCaller, type SessionResolver } from "./sessions.js";

const GET_SESSION = "/api/auth/get-session";

export interface GetSessionLaneOptions {
  sessions: SessionResolver;
  /** Where express finds the caller the lane already resolved, so a declined request is resolved once. */
  remember(req: IncomingMessage, caller: ResolvedCaller): void;
  trusted: Set<string>;
  rateLimits: RateLimits | null;
  /** express's compiled `trust proxy`, so the lane sees the client address express would. */
  trustProxy: (address: string, hop: number) => boolean;
  /** better-auth's signed session_data cookie, when SESSION_COOKIE_CACHE is on. */
  cookieCacheSecret: string | null;
  logger: Logger;
  metrics: Metrics;
  isShuttingDown(): boolean;
}

/** A get-session that only asks for the session, with nothing to read or bypass. */
function isPlainGetSession(req: IncomingMessage): boolean {
  // An API key's get-session counts a use of the key: only auth can answer it.
  if (req.method !== "GET" || req.headers["content-length"] || req.headers["transfer-encoding"] || req.headers[API_KEY_HEADER]) return false;
  const url = req.url ?? "";
  const query = url.indexOf("?");
  if ((query < 0 ? url : url.slice(0, query)) !== GET_SESSION) return false;
  return query < 0 || new URLSearchParams(url.slice(query + 1)).get("disableCookieCache") !== "true";
}

/** better-auth's optional cookie cache: get-session's answer while the signed session_data cookie lasts. */
function fromCookieCache(req: IncomingMessage, secret: string): unknown {
  const cookies = parseCookieHeader(req.headers.cookie);
  const rawToken = SESSION_COOKIE_NAMES.token.map((name) => cookies.get(name)).find((value) => value !== undefined);
  const rawCache = SESSION_COOKIE_NAMES.data.map((name) => cookies.get(name)).find((value) => value !== undefined);
  const token = rawToken ? verifyCookieValue(rawToken, secret) : null;
  const cache = token && rawCache ? decodeSessionCache(rawCache, secret) : null;
  return cache && cache.session.token === token ? { session: cache.session, user: cache.user } : null;
}

/** The session as auth last rendered it, unless its expiry is due to slide forward (auth must answer that one). */
function fromResolvedSession({ session, sessionToken }: ResolvedCaller): unknown {
  if (!session || !sessionToken || (session.refresh_at && Date.parse(session.refresh_at) <= Date.now())) return null;
  return { session: { ...session.view.session, token: sessionToken }, user: session.view.user };
}

/**
 * better-auth's clients ask for the session on every page load and window focus. The gateway answers
 * those itself, here, before express: the same headers, request id, metric, CORS, rate limit and
 * session checks as the express pipeline, at a third of its cost per request. A get-session with
 * anything to do (no session, a stale cookie to clear, an expiry to slide, caches to bypass) is
 * declined, and express sends it on to auth as any other request.
 *
 * Resolves true when it answered.
 */
export function getSessionLane(options: GetSessionLaneOptions): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  return async (req, res) => {
    if (!isPlainGetSession(req)) return false;
    let answer = options.cookieCacheSecret ? fromCookieCache(req, options.cookieCacheSecret) : null;
    if (!answer) {
      let caller: ResolvedCaller;
      try {
        caller = await options.sessions.resolve(req);
      } catch {
        return false; // express resolves again and answers 503 if it still cannot
      }
      options.remember(req, caller);
      answer = fromResolvedSession(caller);
      if (!answer) return false;
    }

    trackRequest(req, res, options, () => GET_SESSION);
    securityHeaders(req, res, () => undefined);
    if (options.isShuttingDown()) res.setHeader("connection", "close");
    applyCors(options.trusted, req, res);
    const refusal = await options.rateLimits?.consume(GET_SESSION, proxyAddr(req, options.trustProxy));
    const [status, body, headers] = refusal
      ? [429, AUTH_REFUSAL_BODY, refusalHeaders(refusal)]
      : [200, answer, { "cache-control": "no-store", pragma: "no-cache" }];
    res.writeHead(status, { ...headers, "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
    return true;
  };
}
