import { createHash } from "node:crypto";
import type { Request, RequestHandler } from "express";
import type { Redis } from "ioredis";
import { HttpError, polarErrors } from "@tollgate/kit";

const WRITES = new Set(["POST", "PATCH", "PUT", "DELETE"]);
const KEY = /^[\x21-\x7e]{1,255}$/;

interface Stored {
  /** The request the key was first used with: method, path and body, as a digest. */
  fingerprint: string;
  /** Null while the first request is still being answered. */
  response: { status: number; body: unknown } | null;
}

/** Whose key it is: the same key from two callers means two different requests. */
function callerOf(identity: Request["identity"]): string {
  if (!identity) return "anonymous";
  switch (identity.kind) {
    case "organization_token":
      return `token:${identity.token_id}`;
    case "user":
      return `user:${identity.user_id}`;
    case "customer_session":
      return `customer:${identity.customer_id}`;
    case "checkout":
      return `checkout:${identity.checkout_id}`;
    default:
      return "anonymous";
  }
}

/**
 * `Idempotency-Key` on writes: the first request's answer is kept (in Redis, `ttlSeconds`) and given
 * again for a retry with the same key and body, without doing the work twice. The same key with
 * another request, or while the first is still running, is a 409. A failure of ours (5xx) is not
 * kept, so the retry runs. While Redis is down a write with a key is refused with 503, never run
 * unguarded.
 */
export function idempotency(redis: Redis, ttlSeconds: number): RequestHandler {
  return async (req, res, next) => {
    const key = req.get("idempotency-key");
    if (!WRITES.has(req.method) || key === undefined) return next();
    if (!KEY.test(key)) return next(new HttpError(400, polarErrors.codes.bad_request, "Idempotency-Key must be 1 to 255 printable characters"));
    const storeKey = `idempotency:${callerOf(req.identity)}:${key}`;
    const fingerprint = createHash("sha256").update(`${req.method} ${req.originalUrl}\n${JSON.stringify(req.body ?? null)}`).digest("hex");
    let claimed: string | null;
    let earlier: string | null = null;
    try {
      claimed = await redis.set(storeKey, JSON.stringify({ fingerprint, response: null } satisfies Stored), "EX", ttlSeconds, "NX");
      if (!claimed) earlier = await redis.get(storeKey);
    } catch {
      // Without Redis a retry could not be told from a new request: the write waits until it is back.
      return next(new HttpError(503, polarErrors.codes.unavailable, "Idempotency-Key cannot be checked right now; retry shortly with the same key"));
    }
    if (!claimed) {
      const stored = JSON.parse(earlier ?? "null") as Stored | null;
      if (stored && stored.fingerprint !== fingerprint) return next(new HttpError(409, "IdempotencyKeyReused", "This Idempotency-Key was used with a different request"));
      if (!stored?.response) return next(new HttpError(409, "IdempotencyKeyInUse", "A request with this Idempotency-Key is still being processed; retry shortly"));
      res.setHeader("idempotent-replayed", "true");
      if (stored.response.body === undefined) res.status(stored.response.status).end();
      else res.status(stored.response.status).json(stored.response.body);
      return;
    }
    let body: unknown;
    const json = res.json.bind(res);
    res.json = (payload: unknown) => {
      body = payload;
      return json(payload);
    };
    res.on("finish", () => {
      const done = res.statusCode >= 500 ? redis.del(storeKey) : redis.set(storeKey, JSON.stringify({ fingerprint, response: { status: res.statusCode, body } } satisfies Stored), "EX", ttlSeconds);
      done.catch(() => undefined);
    });
    next();
  };
}
