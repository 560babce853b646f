import type { CustomerRow } from "../customers/customers.sql.js";
import { customerJson } from "../customers/output.js";
import type { EventNameRow, UsageEventRow } from "./usage-events.sql.js";

/** An event as Polar's UserEvent, with its customer (when known), how many events name it their parent, and its label. */
export const eventJson = (event: UsageEventRow, customer: CustomerRow | undefined, childCount: number, label: string) => ({
  id: event.id,
  timestamp: event.timestamp,
  organization_id: event.organization_id,
  customer_id: event.customer_id,
  customer: customer ? customerJson(customer) : null,
  external_customer_id: event.external_customer_id,
  child_count: childCount,
  parent_id: event.parent_id,
  label,
  name: event.name,
  source: "user" as const,
  metadata: event.metadata,
});

/** A name the events carry, as Polar's EventName, with the label its event types give it. */
export const eventNameJson = (row: EventNameRow, label: string) => ({ name: row.name, label, source: row.source, occurrences: row.occurrences, first_seen: row.first_seen, last_seen: row.last_seen });
