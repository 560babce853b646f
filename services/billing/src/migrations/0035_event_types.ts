import { randomId, type Migration } from "@tollgate/kit";
import { timestamps } from "./columns.js";

export const eventTypes: Migration = {
  async up(db) {
    // Polar's event types: each name a seller's events carry, with the label the seller gives it.
    // Made at ingestion for a name not seen before; the label starts as the name.
    await db.schema.createTable("event_types", (t) => {
      t.text("id").primary();
      t.text("organization_id").notNullable().references("id").inTable("organizations").onDelete("CASCADE");
      t.text("name").notNullable();
      t.text("label").notNullable();
      t.text("label_property_selector");
      timestamps(db, t);
      t.unique(["organization_id", "name"]);
    });

    // The names of the events already stored (of sellers billing still knows).
    const { rows } = await db.raw<{ rows: { organization_id: string; name: string }[] }>(
      `select distinct e.organization_id, e.name from usage_events e where exists (select 1 from organizations o where o.id = e.organization_id) order by 1, 2`,
    );
    if (rows.length > 0) {
      await db.raw(`insert into event_types (id, organization_id, name, label) select id, organization_id, name, name from unnest(?::text[], ?::text[], ?::text[]) as t(id, organization_id, name)`, [
        rows.map(() => randomId(32)),
        rows.map((row) => row.organization_id),
        rows.map((row) => row.name),
      ]);
    }

    // A customer's events, as rollups key them (their id, or the seller's id for them while they were
    // unknown): event types counted for some customers, and meters' quantities read from events, find
    // them without reading all of the seller's events.
    await db.raw("create index usage_events_customer_key on usage_events (organization_id, (coalesce(customer_id, 'external:' || external_customer_id)))");
  },
};
