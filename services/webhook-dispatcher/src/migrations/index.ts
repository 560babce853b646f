import { membershipMigrations, type Migrations } from "@tollgate/kit";
import { endpointsEventsDeliveries } from "./0001_endpoints_events_deliveries.js";
import { vacuumEventsOften } from "./0002_vacuum_events_often.js";
import { endpointApiVersion } from "./0003_endpoint_api_version.js";
import { deliveryApiVersion } from "./0004_delivery_api_version.js";

/** In the order they run: a new migration is a new file, added here last, and never changes once released. */
export const dispatcherMigrations: Migrations = {
  ...membershipMigrations,
  "0001_endpoints_events_deliveries": endpointsEventsDeliveries,
  "0002_vacuum_events_often": vacuumEventsOften,
  "0003_endpoint_api_version": endpointApiVersion,
  "0004_delivery_api_version": deliveryApiVersion,
};
