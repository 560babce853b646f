import { env, type ServiceConfig } from "@tollgate/kit";
import { z } from "zod";

export const dispatcherEnv = z.object({
  /** The site's address: the disabled-endpoint mail links to it. */
  PUBLIC_URL: env.url(["http", "https"], "http://localhost:3000"),
  /** Endpoints on loopback, private, link-local or metadata addresses are refused unless this is true (development, tests). */
  WEBHOOKS_ALLOW_PRIVATE_URLS: env.boolean(false),
  /** Keys that seal endpoints' signing secrets at rest (`kid:base64` of 32 bytes, newest first); the dispatcher's alone. */
  WEBHOOK_SECRET_KEYS: env
    .list("a comma-separated list of kid:base64 keys of 32 bytes", (item) => /^[\w-]+:[A-Za-z0-9+/]{43}=$/.test(item))
    .refine((keys) => keys.length > 0, { error: "a comma-separated list of kid:base64 keys of 32 bytes" }),
  /** A delivery attempt that has no answer by then has failed. */
  WEBHOOK_TIMEOUT_MS: env.integer("a number of milliseconds", 10_000, 100, 60_000),
  /** Attempts per event before it is given up. */
  WEBHOOK_MAX_ATTEMPTS: env.integer("a number of attempts", 10, 1, 50),
  /** The first retry's delay; each further one doubles it (with jitter): 10 attempts span about a day. */
  WEBHOOK_RETRY_BASE_MS: env.integer("a number of milliseconds", 170_000, 10),
  /** An endpoint whose last this many attempts all failed is turned off. */
  WEBHOOK_DISABLE_AFTER_FAILURES: env.integer("a number of attempts", 10, 1),
  /** Deliveries one process sends at once, and to one endpoint at once (one, in order, unless it opts out of ordering). */
  WEBHOOK_CONCURRENCY: env.integer("a number of deliveries", 200, 1, 10_000),
  WEBHOOK_ENDPOINT_CONCURRENCY: env.integer("a number of deliveries", 8, 1, 1_000),
  /** How often replicas look for retries that came due (new events wake the process that stored them at once). */
  WEBHOOK_POLL_INTERVAL_MS: env.integer("a number of milliseconds", 1_000, 10),
  /** After a secret is rotated, deliveries carry the old secret's signature too for this long. */
  WEBHOOK_ROTATION_OVERLAP_SECONDS: env.integer("a number of seconds", 24 * 3600, 0),
  /** Events, their payloads and attempts are kept this long. */
  WEBHOOK_RETENTION_DAYS: env.integer("a number of days", 30, 1),
});

export type DispatcherEnv = typeof dispatcherEnv;
export type DispatcherConfig = ServiceConfig<DispatcherEnv>;
