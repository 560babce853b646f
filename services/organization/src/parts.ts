import type { IdentityVerifier, Knex, Logger, ServiceContext, Units } from "@tollgate/kit";
import type { OrgConfig } from "./config.js";

/** The parts organization's `setup` builds once when the service starts, for its endpoints and consumers. */
export interface Parts {
  config: OrgConfig;
  db: Knex;
  /** The one way to change state, announce it and act once it is committed. */
  units: Units;
  logger: Logger;
  /** Requests to other services over NATS (the auth service owns sessions). */
  request: ServiceContext<OrgConfig>["request"];
  /** Checks the identity tokens bus requests carry as proof of who asked. */
  identity: IdentityVerifier;
}
