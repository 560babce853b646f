import type { MeterRow } from "./meters.sql.js";

/** A meter as Polar's Meter. */
export const meterJson = (meter: MeterRow) => ({
  metadata: meter.metadata,
  created_at: meter.created_at,
  modified_at: meter.modified_at,
  id: meter.id,
  name: meter.name,
  unit: meter.unit,
  custom_label: meter.custom_label,
  custom_multiplier: meter.custom_multiplier,
  filter: meter.filter,
  aggregation: meter.aggregation,
  organization_id: meter.organization_id,
  archived_at: meter.archived_at,
});
