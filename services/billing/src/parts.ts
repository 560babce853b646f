import type { Knex, Logger, OrganizationAccess, ServiceContext, Units, WorkFailures } from "@tollgate/kit";
import type { Redis } from "ioredis";
import type { BillingConfig } from "./config.js";
import type { FileStorage } from "./files/storage.js";
import type { PaymentProcessor } from "./payments/processor.js";
import type { SandboxProcessor } from "./payments/sandbox.js";
import type { StripeSettings } from "./payments/stripe.js";

/**
 * The parts billing's `setup` builds once when the service starts. Nothing takes them all: each
 * function, worker and endpoint factory names the few it uses (`Pick<Parts, "db" | "config">`).
 */
export interface Parts {
  config: BillingConfig;
  db: Knex;
  units: Units;
  logger: Logger;
  /** Counts background items' failures and sets aside those that keep failing. */
  failures: WorkFailures;
  redis: Redis;
  access: OrganizationAccess;
  /** Requests to other services over NATS (the organization service creates organizations). */
  request: ServiceContext<BillingConfig>["request"];
  storage: FileStorage;
  /** Takes payments for checkouts, renewals and refunds. */
  processor: PaymentProcessor;
  /** The same processor when it is the sandbox (the default), which also makes confirmation tokens. */
  sandbox: SandboxProcessor | null;
  /** Stripe's client and webhook secret when Stripe is the processor. */
  stripe: StripeSettings | null;
  /** The time zones this Postgres knows (lower-cased), which charts and meters may be asked in. */
  timeZones: ReadonlySet<string>;
}
