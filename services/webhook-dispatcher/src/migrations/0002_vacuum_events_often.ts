import type { Migration } from "@tollgate/kit";

export const vacuumEventsOften: Migration = {
  // Every delivery rewrites its event twice (claim, settle); the default of vacuuming after 20 %
  // of a big table has changed leaves the scans for due events wading through dead rows.
  up: (db) => db.raw("alter table webhook_events set (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 1000)"),
};
