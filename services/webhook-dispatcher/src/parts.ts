import type { Knex, Logger, OrganizationAccess, SecretVault, Units, WorkFailures } from "@tollgate/kit";
import type { DispatcherConfig } from "./config.js";

/** The parts the dispatcher's `setup` builds once when it starts, for its endpoints, consumers and workers. */
export interface Parts {
  config: DispatcherConfig;
  db: Knex;
  /** The one way to change state, announce it and act once it is committed. */
  units: Units;
  logger: Logger;
  /** Counts events that fail to be sent or recorded, and sets aside one that keeps failing. */
  failures: WorkFailures;
  access: OrganizationAccess;
  /** Seals and opens endpoints' signing secrets. */
  vault: SecretVault;
  /** Asks the delivery scheduler to look for due deliveries now (new events, a redelivery, a re-enabled endpoint). */
  wakeScheduler: () => void;
}
