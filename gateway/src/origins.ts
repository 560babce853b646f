import type { Request, RequestHandler } from "express";
import { HttpError, originOf, type ErrorContract } from "@tollgate/kit";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cross-site request forgery checks as better-auth makes them. A request that changes something and
 * carries cookies must come from a trusted origin (Origin, else Referer). Sign-in and sign-up, which
 * have no cookie yet, refuse cross-site navigations and check an Origin when the browser sent one.
 */
export function originCheck(trusted: Set<string>, errorsFor: (req: Request) => ErrorContract): RequestHandler {
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    // better-auth has a code per reason; Polar's API refuses with its generic code and the reason.
    const forbidden = (code: string, message: string) =>
      new HttpError(403, req.path.startsWith("/api/auth/") ? code : errorsFor(req).codes.forbidden, message);
    const claimed = req.get("origin") ?? req.get("referer");
    const origin = originOf(claimed);
    const validate = () => {
      if (!origin) return forbidden("MISSING_OR_NULL_ORIGIN", "Missing or null Origin");
      if (!trusted.has(origin)) return forbidden("INVALID_ORIGIN", "Invalid origin");
      return undefined;
    };
    if (req.get("cookie")) return next(validate());
    if (/^\/api\/auth\/(sign-in|sign-up)\//.test(req.path)) {
      if (req.get("sec-fetch-site") === "cross-site" && req.get("sec-fetch-mode") === "navigate") {
        return next(forbidden("CROSS_SITE_NAVIGATION_LOGIN_BLOCKED", "Cross-site navigation login blocked. This request appears to be a CSRF attack."));
      }
      if (claimed) return next(validate());
    }
    next();
  };
}

/** CORS for trusted origins, with credentials; preflights are answered here, not by the services. */
export function cors(trusted: Set<string>): RequestHandler {
  return (req, res, next) => {
    const origin = req.get("origin");
    res.vary("origin");
    if (!origin || !trusted.has(origin)) return next();
    res.set({ "access-control-allow-origin": origin, "access-control-allow-credentials": "true" });
    if (req.method !== "OPTIONS" || !req.get("access-control-request-method")) return next();
    res.set({
      "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
      "access-control-allow-headers": req.get("access-control-request-headers") ?? "content-type, authorization",
      "access-control-max-age": "600",
    });
    res.status(204).end();
  };
}
