import express, { type RequestHandler } from "express";
import { MalformedBodyError } from "./errors.js";

/** True when parsed JSON carries keys that would reach Object.prototype if merged into an object. */
function reachesPrototype(value: unknown, depth = 0): boolean {
  if (typeof value !== "object" || value === null || depth > 64) return false;
  for (const [key, child] of Object.entries(value)) {
    if (key === "__proto__") return true;
    if (key === "constructor" && typeof child === "object" && child !== null && "prototype" in child) return true;
    if (reachesPrototype(child, depth + 1)) return true;
  }
  return false;
}

/**
 * JSON bodies up to `limit` bytes. Parsing never pollutes prototypes by itself, but handlers spread
 * and merge bodies, so a body with `__proto__` (or `constructor.prototype`) is refused outright.
 */
export function jsonBody(limit: number): RequestHandler[] {
  return [
    express.json({ limit }),
    (req, _res, next) => {
      next(reachesPrototype(req.body) ? new MalformedBodyError("Potential prototype pollution attempt detected") : undefined);
    },
  ];
}
