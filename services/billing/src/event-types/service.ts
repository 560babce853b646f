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

/** The value at a dotted path of an event's metadata (Polar's selectors may start with `metadata.`), when it is text or a number. */
function selected(metadata: Record<string, unknown>, selector: string): string | null {
  let found: unknown = metadata;
  for (const key of selector.replace(/^metadata\./, "").split(".")) found = typeof found === "object" && found !== null ? (found as Record<string, unknown>)[key] : undefined;
  return typeof found === "string" || typeof found === "number" ? String(found) : null;
}

/** An event as its label is drawn from: whose it is, its name and its metadata. */
interface LabelledEvent {
  organization_id: string;
  name: string;
  metadata: Record<string, unknown>;
}

/**
 * The labels of events, as Polar gives each: the value its type's selector finds in its metadata,
 * else its type's label, else its name. Their sellers' types are read for all of them at once.
 */
export async function labelsOfEvents(db: Knex, events: LabelledEvent[]): Promise<string[]> {
  const types = await eventTypesNamed(db, [...new Set(events.map((event) => event.organization_id))], [...new Set(events.map((event) => event.name))]);
  const typeOf = new Map(types.map((eventType) => [`${eventType.organization_id} ${eventType.name}`, eventType]));
  return events.map((event) => {
    const eventType = typeOf.get(`${event.organization_id} ${event.name}`);
    if (!eventType) return event.name;
    return (eventType.label_property_selector && selected(event.metadata, eventType.label_property_selector)) ?? eventType.label;
  });
}
