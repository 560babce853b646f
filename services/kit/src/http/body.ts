import express, { type RequestHandler } from "express";
import { MalformedBodyError } from "./errors.js";

/**
 * True when parsed JSON carries keys that would reach Object.prototype if merged into an object, at
 * any depth. A loop, not recursion: a body may nest far deeper than the call stack goes.
 */
function reachesPrototype(body: unknown): boolean {
  const pending = [body];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== "object" || value === null) continue;
    for (const [key, child] of Object.entries(value)) {
      if (key === "__proto__") return true;
      if (key === "constructor" && typeof child === "object" && child !== null && "prototype" in child) return true;
      pending.push(child);
    }
  }
  return false;
}

/**
 * JSON bodies up to `limit` bytes. Any JSON value is read (not only objects), so `null` or `42` fail
 * the endpoint's schema as they do in better-call and FastAPI, rather than counting as broken JSON.
 * Parsing never pollutes prototypes by itself, but handlers spread and merge bodies, so a body with
 * `__proto__` (or `constructor.prototype`) is refused outright.
 */
export function jsonBody(limit: number): RequestHandler[] {
  return [
    express.json({ limit, strict: false }),
    (req, _res, next) => {
      next(reachesPrototype(req.body) ? new MalformedBodyError("Potential prototype pollution attempt detected") : undefined);
    },
  ];
}
