import type { RequestHandler } from "express";
import { decodeSessionCache, parseCookieHeader, verifyCookieValue } from "@tollgate/kit";
import { SESSION_COOKIE_NAMES, type Caller } from "./sessions.js";

const isGetSession: (req: Parameters<RequestHandler>[0]) => boolean = (req) =>
  req.method === "GET" && req.path === "/api/auth/get-session" && req.query.disableCookieCache !== "true";

/**
 * better-auth's clients ask for the session constantly. The gateway answers get-session itself from
 * the session it already resolved (auth's own rendering, kept in the cache), and sends the request
 * on to auth only when there is something to do: the expiry is due to slide forward, the client
 * asked to bypass caches, or the cookie no longer opens a session (auth clears it).
 */
export function cachedGetSession(callerOf: (req: Parameters<RequestHandler>[0]) => Caller): RequestHandler {
  return (req, res, next) => {
    if (!isGetSession(req)) return next();
    const { session, sessionToken } = callerOf(req);
    if (!session || !sessionToken || (session.refresh_at && Date.parse(session.refresh_at) <= Date.now())) return next();
    res.set({ "cache-control": "no-store", pragma: "no-cache" });
    res.json({ session: { ...session.view.session, token: sessionToken }, user: session.view.user });
  };
}

/**
 * better-auth's optional cookie cache: while the signed session_data cookie lasts (60 s by default)
 * and belongs to the session cookie sent with it, get-session is answered from it with no lookup.
 */
export function cookieCachedGetSession(secret: string): RequestHandler {
  return (req, res, next) => {
    if (!isGetSession(req)) return next();
    const cookies = parseCookieHeader(req.headers.cookie);
    const rawToken = SESSION_COOKIE_NAMES.token.map((name) => cookies.get(name)).find((value) => value !== undefined);
    const rawCache = SESSION_COOKIE_NAMES.data.map((name) => cookies.get(name)).find((value) => value !== undefined);
    const token = rawToken ? verifyCookieValue(rawToken, secret) : null;
    const cache = token && rawCache ? decodeSessionCache(rawCache, secret) : null;
    if (!cache || cache.session.token !== token) return next();
    res.set({ "cache-control": "no-store", pragma: "no-cache" });
    res.json({ session: cache.session, user: cache.user });
  };
}
