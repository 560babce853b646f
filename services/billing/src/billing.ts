import type { Knex, Logger, OrganizationAccess, Outbox, ServiceConfig } from "@tollgate/kit";
import type { Redis } from "ioredis";
import type { BillingEnv } from "./config.js";
import type { FileStorage } from "./files/storage.js";
import type { PaymentProcessor } from "./payments/processor.js";
import type { SandboxProcessor } from "./payments/sandbox.js";

export type BillingConfig = ServiceConfig<BillingEnv>;

/** What every billing endpoint and worker works with, built once when the service starts. */
export interface Billing {
  config: BillingConfig;
  db: Knex;
  outbox: Outbox;
  logger: Logger;
  redis: Redis;
  access: OrganizationAccess;
  storage: FileStorage;
  /** Takes payments for checkouts, renewals and refunds. */
  processor: PaymentProcessor;
  /** The same processor when it is the sandbox (the default), which also makes confirmation tokens. */
  sandbox: SandboxProcessor | null;
  /** Asks the payment worker to pay confirmed checkouts now rather than at its next poll. */
  wakePayments(): void;
  /** Asks the subscription worker to look for due renewals and retries now. */
  wakeRenewals(): void;
}
