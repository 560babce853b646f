import type { Migration } from "@tollgate/kit";

export const deliveryApiVersion: Migration = {
  // The version each attempt went out in (its endpoint's at the time); attempts made before it was kept show their endpoint's.
  up: (db) => db.raw("alter table webhook_deliveries add column api_version text"),
};
