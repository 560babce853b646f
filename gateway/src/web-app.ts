import { existsSync } from "node:fs";
import path from "node:path";
import express from "express";
import helmet from "helmet";
import type { Logger } from "@tollgate/kit";

/** Where the hosted checkout's pages live in the app: the only pages a payment processor's script runs on. */
const CHECKOUT_PAGES = "/checkout/";

/**
 * The checkout pages' policy when Stripe takes payments: helmet's strict defaults (as on every other
 * page), and Stripe.js's script, its frames (the Payment Element, 3-D Secure) and its API — Stripe's
 * own hosts, nothing broader.
 */
export const STRIPE_CHECKOUT_POLICY = Object.entries({
  ...helmet.contentSecurityPolicy.getDefaultDirectives(),
  "script-src": ["'self'", "https://js.stripe.com"],
  "frame-src": ["https://js.stripe.com", "https://hooks.stripe.com"],
  "connect-src": ["'self'", "https://api.stripe.com"],
})
  .map(([directive, sources]) => [directive, ...sources].join(" "))
  .join(";");

/**
 * Static assets with long caching (their names carry a hash), and index.html for client-side
 * routes: any GET for HTML at a path without a file extension.
 */
export function mountWebApp(app: express.Express, webDist: string, logger: Logger, processor: "sandbox" | "stripe"): void {
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
    if (processor === "stripe" && req.path.startsWith(CHECKOUT_PAGES)) res.setHeader("content-security-policy", STRIPE_CHECKOUT_POLICY);
    res.sendFile(index);
  });
}
