import type { RequestHandler } from "express";
import type { Caller } from "./sessions.js";

/**
 * better-auth's clients ask for the session constantly. The gateway answers get-session itself from
 * the session it already resolved (auth's own rendering, kept in the cache), and sends the request
 * on to auth only when there is something to do: the expiry is due to slide forward, the client
 * asked to bypass caches, or the cookie no longer opens a session (auth clears it).
 */
export function cachedGetSession(callerOf: (req: Parameters<RequestHandler>[0]) => Caller): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "GET" || req.path !== "/api/auth/get-session" || req.query.disableCookieCache === "true") return next();
    const { session, sessionToken } = callerOf(req);
    if (!session || !sessionToken || (session.refresh_at && Date.parse(session.refresh_at) <= Date.now())) return next();
    res.set({ "cache-control": "no-store", pragma: "no-cache" });
    res.json({ session: { ...session.view.session, token: sessionToken }, user: session.view.user });
  };
}
