import type { EventTypeRow, EventTypeWithStatsRow } from "./event-types.sql.js";

/** An event type as Polar's EventType. */
export const eventTypeJson = (row: EventTypeRow) => ({
  created_at: row.created_at,
  modified_at: row.modified_at,
  id: row.id,
  name: row.name,
  label: row.label,
  label_property_selector: row.label_property_selector,
  organization_id: row.organization_id,
});

/** A name's statistics with its event type, as Polar's EventTypeWithStats. */
export const eventTypeWithStatsJson = (row: EventTypeWithStatsRow) => ({
  id: row.id,
  created_at: row.created_at,
  modified_at: row.modified_at,
  name: row.name,
  label: row.label,
  label_property_selector: row.label_property_selector,
  organization_id: row.organization_id,
  source: row.source,
  occurrences: row.occurrences,
  first_seen: row.first_seen,
  last_seen: row.last_seen,
});
