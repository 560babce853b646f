import { Redis } from "ioredis";
import type { Logger } from "./logger.js";
import { describeStartupError } from "./startup.js";

/**
 * Connects, failing fast with a clear error if Redis is down, with every key under `prefix`.
 * Once connected, ioredis reconnects by itself; each failure is logged rather than thrown.
 */
export async function connectRedis(url: string, prefix: string, logger?: Logger): Promise<Redis> {
  const redis = new Redis(url, { keyPrefix: prefix, lazyConnect: true, maxRetriesPerRequest: 3 });
  let lastError: unknown = null;
  redis.on("error", (error: unknown) => {
    lastError = error;
    if (redis.status === "ready" || redis.status === "reconnecting") logger?.warn({ err: error }, "Redis connection problem");
  });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw describeStartupError("Redis", url, lastError ?? error);
  }
  return redis;
}
