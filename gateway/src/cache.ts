import type { Redis } from "ioredis";
import type { Logger } from "@tollgate/kit";

/**
 * Reads through the gateway's Redis cache: the cached value under `key`, or else what `load` (the
 * service that knows) answers, which `store` caches for next time. Redis is only a cache here: while
 * it cannot answer, every caller is resolved by `load` and nothing is cached, so an outage costs
 * speed, never a wrong answer. (The outage itself is logged once, by the connection.)
 */
export async function readThrough<Value>(redis: Redis, logger: Logger, key: string, load: () => Promise<Value>, store: (value: Value) => Promise<unknown>): Promise<Value> {
  let cached: string | null = null;
  let reachable = true;
  try {
    cached = await redis.get(key);
  } catch (error) {
    reachable = false;
    unexpected(redis, logger, error);
  }
  if (cached !== null) return JSON.parse(cached) as Value;
  const value = await load();
  if (reachable) await store(value).catch((error: unknown) => unexpected(redis, logger, error));
  return value;
}

/** A failure while Redis is connected is news; one while it is away is the outage already logged. */
function unexpected(redis: Redis, logger: Logger, error: unknown): void {
  if (redis.status === "ready") logger.warn({ err: error }, "the Redis cache failed; asking the service instead");
}
