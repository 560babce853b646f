import { existsSync } from "node:fs";
import path from "node:path";
import express from "express";
import type { Logger } from "@tollgate/kit";

/**
 * Static assets with long caching (their names carry a hash), and index.html for client-side
 * routes: any GET for HTML at a path without a file extension.
 */
export function mountWebApp(app: express.Express, webDist: string, logger: Logger): void {
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
