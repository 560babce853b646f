import type { Knex, Logger, OrganizationAccess, Outbox, ServiceConfig } from "@tollgate/kit";
import type { Redis } from "ioredis";
import type { BillingEnv } from "./config.js";
import type { FileStorage } from "./files/storage.js";

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
}
