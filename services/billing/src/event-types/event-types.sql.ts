import { randomId, type Knex } from "@tollgate/kit";

export interface EventTypeRow {
  id: string;
  organization_id: string;
  name: string;
  label: string;
  label_property_selector: string | null;
  created_at: Date;
  modified_at: Date | null;
}

/** What a list of event types shows of each name: how often its events occurred, and when first and last. */
export interface EventNameStats {
  organization_id: string;
  name: string;
  source: "user" | "system";
  occurrences: number;
  first_seen: Date;
  last_seen: Date;
}

/** A name's statistics with its event type. */
export type EventTypeWithStatsRow = EventNameStats & Omit<EventTypeRow, "organization_id" | "name">;

const eventTypes = (db: Knex) => db<EventTypeRow>("event_types");

/**
 * Makes the event types of names not seen before, labelled with the name. Sorted, so concurrent
 * batches sharing new names take their keys in one order and wait on each other rather than deadlock;
 * a name another batch made first is left as it is.
 */
export async function ensureEventTypes(db: Knex, names: { organization_id: string; name: string }[]): Promise<void> {
  const unique = [...new Map(names.map((named) => [`${named.organization_id}\u0000${named.name}`, named])).values()].sort((a, b) =>
    a.organization_id === b.organization_id ? (a.name < b.name ? -1 : 1) : a.organization_id < b.organization_id ? -1 : 1,
  );
  if (unique.length === 0) return;
  await db.raw(
    `insert into event_types (id, organization_id, name, label)
     select id, organization_id, name, name from unnest(?::text[], ?::text[], ?::text[]) with ordinality as t(id, organization_id, name, position)
     order by position
     on conflict (organization_id, name) do nothing`,
    [unique.map(() => randomId(32)), unique.map((named) => named.organization_id), unique.map((named) => named.name)],
  );
}

export const findEventType = (db: Knex, id: string) => eventTypes(db).where({ id }).first();

export async function updateEventType(db: Knex, id: string, changes: Pick<EventTypeRow, "label" | "label_property_selector">): Promise<EventTypeRow> {
  const [row] = await eventTypes(db)
    .where({ id })
    .update({ ...changes, modified_at: db.fn.now() } as never)
    .returning("*");
  if (!row) throw new Error(`event type ${id} vanished`);
  return row;
}

/** The sellers' event types of these names. */
export function eventTypesNamed(db: Knex, organizationIds: string[], names: string[]): Promise<EventTypeRow[]> {
  if (names.length === 0) return Promise.resolve([]);
  return eventTypes(db).whereIn("organization_id", organizationIds).whereIn("name", names);
}

/** The sellers' event types, as a query that the statistics of their names join. */
export const eventTypesOf = (db: Knex, organizationIds: string[]): Knex.QueryBuilder => eventTypes(db).whereIn("organization_id", organizationIds);

/** The properties a list of event types may be sorted by: each a column of EventTypeWithStatsRow. */
export const EVENT_TYPE_SORTABLE = ["name", "label", "occurrences", "first_seen", "last_seen"] as const;
export type EventTypeSortable = (typeof EVENT_TYPE_SORTABLE)[number];
