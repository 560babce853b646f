import { HttpError, polarErrors } from "@tollgate/kit";
import type { Redis } from "ioredis";

/**
 * A fixed-window limit for public calls (no token to account them to): at most `limit` per
 * `windowSeconds` for one key, usually the caller's address and the call. Beyond it, 429 with
 * Retry-After. Counted in Redis, so every replica shares the count; while Redis is down the calls
 * are refused with 503 rather than let through uncounted (they guess at license keys).
 */
export async function withinRate(redis: Redis, key: string, limit: number, windowSeconds: number): Promise<void> {
  const name = `rate:${key}`;
  let results: [Error | null, unknown][];
  try {
    results = (await redis.multi().incr(name).expire(name, windowSeconds, "NX").ttl(name).exec()) ?? [];
  } catch {
    throw new HttpError(503, polarErrors.codes.unavailable, "This call cannot be counted against its limit right now; try again shortly");
  }
  const count = Number(results[0]?.[1] ?? 0);
  const ttl = Number(results[2]?.[1] ?? windowSeconds);
  if (count > limit) {
    throw new HttpError(429, polarErrors.codes.too_many_requests, "Too many requests; try again shortly", { "retry-after": String(Math.max(1, ttl)) });
  }
}
