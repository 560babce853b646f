import type { IncomingMessage } from "node:http";
import express, { type RequestHandler } from "express";
import { MalformedBodyError } from "./errors.js";

/** Deeper than any body an endpoint takes; deeper JSON is refused before anything walks it recursively. */
export const MAX_JSON_DEPTH = 64;

/**
 * Why a parsed body cannot be taken as it is, or null: nested past {@link MAX_JSON_DEPTH}, or carrying
 * keys that would reach Object.prototype if merged into an object. A loop, not recursion: a body may
 * nest far deeper than the call stack goes.
 */
function bodyProblem(body: unknown): string | null {
  const pending = [{ value: body, depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, depth } = next;
    if (typeof value !== "object" || value === null) continue;
    if (depth >= MAX_JSON_DEPTH) return `JSON nested more than ${MAX_JSON_DEPTH} levels deep`;
    for (const [key, child] of Object.entries(value)) {
      if (key === "__proto__" || (key === "constructor" && typeof child === "object" && child !== null && "prototype" in child)) {
        return "Potential prototype pollution attempt detected";
      }
      pending.push({ value: child, depth: depth + 1 });
    }
  }
  return null;
}

const RAW_BODY = Symbol("raw body");

/** Keeps the bytes a JSON body was parsed from: a signature (a processor's webhook) is over them, not over what parsing made. */
function keepRawBody(req: IncomingMessage, _res: unknown, bytes: Buffer): void {
  (req as IncomingMessage & { [RAW_BODY]?: Buffer })[RAW_BODY] = bytes;
}

/** The exact bytes of a request's JSON body, as received; undefined when it had none. */
export const rawBodyOf = (req: IncomingMessage): Buffer | undefined => (req as IncomingMessage & { [RAW_BODY]?: Buffer })[RAW_BODY];

/**
 * JSON bodies up to `limit` bytes. Any JSON value is read (not only objects), so `null` or `42` fail
 * the endpoint's schema as they do in better-call and FastAPI, rather than counting as broken JSON.
 * Parsing never pollutes prototypes by itself, but handlers spread and merge bodies, so a body with
 * `__proto__` (or `constructor.prototype`) is refused outright, as is one nested too deep to echo back
 * or validate safely.
 */
export function jsonBody(limit: number): RequestHandler[] {
  return [
    express.json({ limit, strict: false, verify: keepRawBody }),
    (req, _res, next) => {
      const problem = bodyProblem(req.body);
      next(problem ? new MalformedBodyError(problem) : undefined);
    },
  ];
}
