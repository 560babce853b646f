import type { RequestHandler } from "express";
import { API_VERSION_HEADER, isApiVersion, NEWEST_API_VERSION } from "@tollgate/kit";
import { matchesPrefix, routedPath } from "./routes.js";

/**
 * Polar's dated API versions on `/v1`, settled once here for every service behind: a version
 * Tollgate does not answer in is refused as Polar refuses it (404 `{"detail": "Not Found"}`, before
 * anything else looks at the request), none named means the newest, and the services get the version
 * in the header and answer in its shapes. Every answer says which version it is in, as Polar's do.
 */
export function polarApiVersions(): RequestHandler {
  return (req, res, next) => {
    if (!matchesPrefix(routedPath(req.path), "/v1")) return next();
    const asked = req.headers[API_VERSION_HEADER] ?? NEWEST_API_VERSION;
    if (!isApiVersion(asked)) {
      res.status(404).json({ detail: "Not Found" });
      return;
    }
    req.headers[API_VERSION_HEADER] = asked;
    res.setHeader("Polar-Version", asked);
    next();
  };
}
