import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request, RequestHandler } from "express";
import { HttpError, originOf, type ErrorContract } from "@tollgate/kit";
import { routedPath } from "./routes.js";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/**
 * First logins, where there is no cookie yet to trigger the check. better-auth guards its e-mail
 * sign-in and sign-up this way; every sign-in and sign-up here gets the same, as none is meant to
 * be posted from another site.
 */
const LOGIN_PATH = /^\/api\/auth\/(sign-in|sign-up)\//;
const FETCH_METADATA = ["sec-fetch-site", "sec-fetch-mode", "sec-fetch-dest"];
/**
 * Social sign-in callbacks. Apple posts its answer from its own site (form_post); a callback proves
 * itself with the flow's state, which must match the state cookie of the browser that began it.
 */
const CALLBACK_PATH = /^\/api\/auth\/callback\//;

/**
 * The origin a request says it comes from: Origin, else Referer. A browser that hides a same-origin
 * request's origin (`Origin: null`) still says `Sec-Fetch-Site: same-origin`: that is this site.
 */
function claimedOrigin(req: Request): string | null {
  const origin = req.get("origin");
  if (origin === "null" && req.get("sec-fetch-site") === "same-origin") return `${req.protocol}://${req.host}`;
  return originOf(origin || req.get("referer"));
}

/**
 * Cross-site request forgery checks as better-auth makes them. A request that changes something and
 * carries cookies must come from a trusted origin. Sign-in and sign-up, which have no cookie yet,
 * refuse cross-site navigations and check the origin of whatever a browser (Fetch Metadata) or an
 * Origin or Referer header says sent them.
 */
export function originCheck(trusted: Set<string>, errorsFor: (req: Request) => ErrorContract, readsBearer: (req: Request) => boolean): RequestHandler {
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method) || CALLBACK_PATH.test(routedPath(req.path))) return next();
    // better-auth has a code per reason; Polar's API refuses with its generic code and the reason.
    const forbidden = (code: string, message: string) =>
      new HttpError(403, req.path.startsWith("/api/auth/") ? code : errorsFor(req).codes.forbidden, message);
    const validate = () => {
      const origin = claimedOrigin(req);
      if (!origin) return forbidden("MISSING_OR_NULL_ORIGIN", "Missing or null Origin");
      if (!trusted.has(origin)) return forbidden("INVALID_ORIGIN", "Invalid origin");
      return undefined;
    };
    // Only cookies are sent without the page's say: where a bearer token (which another site cannot make
    // a browser send) is what authenticates, the request is the caller's own act. Elsewhere an
    // Authorization header is ignored, so it exempts nothing. An empty Cookie header (Polar's SDK sends one) carries none.
    const bearerAuthenticates = req.headers.authorization !== undefined && readsBearer(req);
    if (req.headers.cookie?.trim() && !bearerAuthenticates) return next(validate());
    if (LOGIN_PATH.test(routedPath(req.path))) {
      if (req.get("sec-fetch-site") === "cross-site" && req.get("sec-fetch-mode") === "navigate") {
        return next(forbidden("CROSS_SITE_NAVIGATION_LOGIN_BLOCKED", "Cross-site navigation login blocked. This request appears to be a CSRF attack."));
      }
      const fromBrowser = FETCH_METADATA.some((name) => req.get(name)?.trim());
      if (fromBrowser || req.get("origin") || req.get("referer")) return next(validate());
    }
    next();
  };
}

/**
 * CORS for trusted origins, with credentials. Sets the headers on any response; true when the request
 * was a preflight, which it has answered (the services never see one).
 */
export function applyCors(trusted: Set<string>, req: IncomingMessage, res: ServerResponse): boolean {
  const { origin } = req.headers;
  const vary = res.getHeader("vary");
  res.setHeader("vary", vary ? `${String(vary)}, Origin` : "Origin");
  if (!origin || !trusted.has(origin)) return false;
  res.setHeader("access-control-allow-origin", origin);
  res.setHeader("access-control-allow-credentials", "true");
  if (req.method !== "OPTIONS" || !req.headers["access-control-request-method"]) return false;
  res.setHeader("access-control-allow-methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS");
  res.setHeader("access-control-allow-headers", req.headers["access-control-request-headers"] ?? "content-type, authorization");
  res.setHeader("access-control-max-age", "600");
  res.writeHead(204).end();
  return true;
}

export function cors(trusted: Set<string>): RequestHandler {
  return (req, res, next) => {
    if (!applyCors(trusted, req, res)) next();
  };
}
