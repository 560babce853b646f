import type { Knex, Logger, OrganizationAccess, Outbox, SecretVault, ServiceConfig } from "@tollgate/kit";
import type { DispatcherEnv } from "./config.js";

export type DispatcherConfig = ServiceConfig<DispatcherEnv>;

/** What every endpoint, consumer and worker of the dispatcher works with, built once when it starts. */
export interface Dispatcher {
  config: DispatcherConfig;
  db: Knex;
  outbox: Outbox;
  logger: Logger;
  access: OrganizationAccess;
  /** Seals and opens endpoints' signing secrets. */
  vault: SecretVault;
  /** Asks the delivery scheduler to look for due deliveries now (new events, a redelivery, a re-enabled endpoint). */
  wakeScheduler(): void;
}
