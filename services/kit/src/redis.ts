import { Redis } from "ioredis";
import type { Logger } from "./logger.js";
import { describeStartupError } from "./startup.js";

/** A command Redis has not answered by then fails, as one sent while it is away does at once. */
const COMMAND_TIMEOUT_MS = 2_000;
/** The longest wait between attempts to reconnect, so a Redis that is back is used again within it. */
const MAX_RECONNECT_DELAY_MS = 1_000;

/**
 * Connects, failing fast with a clear error if Redis is down, with every key under `prefix`.
 * Once connected, ioredis reconnects by itself; each failure is logged rather than thrown.
 *
 * While Redis is away, commands fail at once rather than wait in ioredis's offline queue: what the
 * processes keep there is a cache, rate limits and idempotency keys, each of which has something to
 * do without Redis, and a request held until Redis came back waited up to 20 s per command.
 */
export async function connectRedis(url: string, prefix: string, logger?: Logger): Promise<Redis> {
  const redis = new Redis(url, {
    keyPrefix: prefix,
    lazyConnect: true,
    enableOfflineQueue: false,
    // A command cut off by a lost connection fails rather than being sent again after reconnecting.
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(50 * 2 ** attempt, MAX_RECONNECT_DELAY_MS),
    // CLIENT SETINFO is no command the processes' Redis users are granted (docker-compose.yml, k8s).
    disableClientInfo: true,
  });
  let lastError: unknown = null;
  // Once per outage, not at every reconnection attempt.
  let lost = false;
  redis.on("error", (error: unknown) => {
    lastError = error;
    if (lost || !(redis.status === "ready" || redis.status === "reconnecting")) return;
    lost = true;
    logger?.warn({ err: error }, "Redis connection lost; its commands fail until it is back");
  });
  redis.on("ready", () => {
    if (lost) logger?.info("Redis connection is back");
    lost = false;
  });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw describeStartupError("Redis", url, lastError ?? error);
  }
  return redis;
}
