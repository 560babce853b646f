import type { Knex, Logger, Outbox, ServiceConfig, ServiceContext } from "@tollgate/kit";
import type { OrganizationEnv } from "./config.js";

export type OrgConfig = ServiceConfig<OrganizationEnv>;

/** What every organization endpoint works with. */
export interface Org {
  config: OrgConfig;
  db: Knex;
  outbox: Outbox;
  logger: Logger;
  /** Requests to other services over NATS (the auth service owns sessions). */
  request: ServiceContext<OrgConfig>["request"];
}
