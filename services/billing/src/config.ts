import { env } from "@tollgate/kit";
import { z } from "zod";

export const billingEnv = z.object({
  /** The site's address: links in API answers (checkout pages, upload URLs) start with it. */
  PUBLIC_URL: env.url(["http", "https"], "http://localhost:3000"),
  /** Where uploaded files are kept with the default (local disk) storage. */
  FILES_DIR: env.string("a directory path", ".tollgate/files"),
  /** The largest file that may be uploaded. */
  FILE_MAX_SIZE: env.bytes("100mb"),
  /** How long an upload's part URLs work. */
  FILE_UPLOAD_URL_TTL_SECONDS: env.integer("a number of seconds", 3600, 60, 7 * 24 * 3600),
  /** How long an Idempotency-Key's answer is kept. */
  IDEMPOTENCY_TTL_SECONDS: env.integer("a number of seconds", 24 * 3600, 60),
  /** A customer's state changes are announced once this long after the last of a burst. */
  CUSTOMER_STATE_DEBOUNCE_MS: env.integer("a number of milliseconds", 2_000, 0),
});

export type BillingEnv = typeof billingEnv;
