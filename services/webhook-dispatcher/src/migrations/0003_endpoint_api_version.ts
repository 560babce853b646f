import type { Migration } from "@tollgate/kit";

export const endpointApiVersion: Migration = {
  // Endpoints made before Polar's dated versions keep receiving what they received: the oldest.
  up: (db) => db.raw("alter table webhook_endpoints add column api_version text not null default '2026-04'"),
};
