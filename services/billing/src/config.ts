import { env, type ServiceConfig } from "@tollgate/kit";
import { z } from "zod";

export const billingEnv = z.object({
  /** The site's address: links in API answers (checkout pages, upload URLs) start with it. */
  PUBLIC_URL: env.url(["http", "https"], "http://localhost:3000"),
  /** Where uploaded files are kept: the local disk (FILES_DIR) or an S3-compatible bucket (S3_*). */
  FILE_STORAGE: env.enum(["local", "s3"], "local"),
  FILES_DIR: env.string("a directory path", ".tollgate/files"),
  /**
   * Signs the links Tollgate hands out for files, whichever the store: the customer portal's download
   * links (which count each download before sending the customer to the store) and, with
   * FILE_STORAGE=local, the upload and download URLs of the files kept on disk. Billing's alone.
   */
  FILE_URL_SECRET: env.secret(32),
  /** Required with FILE_STORAGE=s3. */
  S3_BUCKET: env.string("a bucket name").optional(),
  S3_REGION: env.string("a region such as eu-west-1", "us-east-1"),
  /** An S3-compatible service's address (MinIO, R2, …); AWS when unset. */
  S3_ENDPOINT: env.url(["http", "https"]).optional(),
  /** bucket.example.com/key is S3's default; most self-hosted services want example.com/bucket/key. */
  S3_FORCE_PATH_STYLE: env.boolean(false),
  /** Unset, the AWS SDK's own credential chain applies (environment, instance role, …). */
  S3_ACCESS_KEY_ID: env.string("an access key id").optional(),
  S3_SECRET_ACCESS_KEY: env.string("a secret access key").optional(),
  /** The largest file that may be uploaded. */
  FILE_MAX_SIZE: env.bytes("100mb"),
  /** How long an upload's part URLs work. */
  FILE_UPLOAD_URL_TTL_SECONDS: env.integer("a number of seconds", 3600, 60, 7 * 24 * 3600),
  /** How long an Idempotency-Key's answer is kept. */
  IDEMPOTENCY_TTL_SECONDS: env.integer("a number of seconds", 24 * 3600, 60),
  /**
   * Who takes payments. \`sandbox\`: test cards decide every outcome and no money moves (see the
   * README's test cards). \`stripe\`: real card payments through Stripe, with the STRIPE_* settings.
   */
  PAYMENT_PROCESSOR: env.enum(["sandbox", "stripe"], "sandbox"),
  /** Stripe's secret API key (sk_live_… or sk_test_…); required with PAYMENT_PROCESSOR=stripe, and billing's alone. */
  STRIPE_SECRET_KEY: env.string("a Stripe secret key (sk_…)").optional(),
  /** The publishable key the hosted checkout gives Stripe.js (pk_…); required with PAYMENT_PROCESSOR=stripe. */
  STRIPE_PUBLISHABLE_KEY: env.string("a Stripe publishable key (pk_…)").optional(),
  /** The signing secret of the Stripe webhook endpoint that sends to /v1/integrations/stripe/webhook (whsec_…); required with PAYMENT_PROCESSOR=stripe. */
  STRIPE_WEBHOOK_SECRET: env.string("a Stripe webhook signing secret (whsec_…)").optional(),
  /** Where Stripe's API is: the official SDK's host, port and protocol are set from it. */
  STRIPE_API_URL: env.url(["http", "https"], "https://api.stripe.com"),
  /** A customer's state changes are announced once this long after the last of a burst. */
  CUSTOMER_STATE_DEBOUNCE_MS: env.integer("a number of milliseconds", 2_000, 0),
});

export type BillingEnv = typeof billingEnv;
export type BillingConfig = ServiceConfig<BillingEnv>;
