import type { Knex, Units } from "@tollgate/kit";
import type { z } from "zod";
import { eventTypesNamed, updateEventType, type EventTypeRow } from "./event-types.sql.js";
import type { EventTypeUpdate } from "./schemas.js";

// The reads the routes make, as the store has them: an event type by id.
export { findEventType } from "./event-types.sql.js";

/**
 * Gives an event type the seller's label. As Polar, the selector is replaced too: an update that
 * does not send one leaves the type without one.
 */
export function relabelEventType(units: Units, eventType: EventTypeRow, body: z.output<typeof EventTypeUpdate>): Promise<EventTypeRow> {
  return units.run(({ db }) => updateEventType(db, eventType.id, { label: body.label, label_property_selector: body.label_property_selector ?? null }));
}

/**
 * Each name's label across the sellers asked about, as Polar gives one to a list of names: their event
 * types' label where they agree on it, the name itself where they do not or have no type for it.
 */
export async function labelsOfNames(db: Knex, organizationIds: string[], names: string[]): Promise<Map<string, string>> {
  const labels = new Map<string, Set<string>>();
  for (const eventType of await eventTypesNamed(db, organizationIds, names)) labels.set(eventType.name, (labels.get(eventType.name) ?? new Set()).add(eventType.label));
  return new Map(names.map((name) => {
    const [only, ...others] = labels.get(name) ?? [];
    return [name, only !== undefined && others.length === 0 ? only : name];
  }));
}
