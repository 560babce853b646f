import type { Knex, Migration } from "@tollgate/kit";
import { timestamps } from "./columns.js";

export const usageMeters: Migration = {
  async up(db) {
    const organization = (t: Knex.CreateTableBuilder) => t.text("organization_id").notNullable().references("id").inTable("organizations").onDelete("CASCADE");
    await db.schema.createTable("meters", (t) => {
      t.text("id").primary();
      organization(t);
      t.text("name").notNullable();
      t.text("unit").notNullable().defaultTo("scalar");
      t.text("custom_label");
      t.double("custom_multiplier");
      t.jsonb("filter").notNullable();
      t.jsonb("aggregation").notNullable();
      t.jsonb("metadata").notNullable().defaultTo("{}");
      t.timestamp("archived_at", { useTz: true });
      timestamps(db, t);
      t.index(["organization_id", "created_at"]);
    });

    // Events are append-only and never read whole: quantities and customer meters read the rollups
    // below. No foreign keys, so a 1,000-row insert checks nothing but its two indexes.
    await db.schema.createTable("usage_events", (t) => {
      t.text("id").primary();
      t.text("organization_id").notNullable();
      t.text("name").notNullable();
      t.text("source").notNullable().defaultTo("user");
      t.timestamp("timestamp", { useTz: true }).notNullable();
      t.text("customer_id");
      t.text("external_customer_id");
      t.text("external_id");
      t.text("parent_id");
      t.jsonb("metadata").notNullable().defaultTo("{}");
      t.timestamp("ingested_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.index(["organization_id", "timestamp"]);
    });
    // A duplicate is an event whose external_id the seller already sent.
    await db.raw("create unique index usage_events_external_id on usage_events (organization_id, external_id) where external_id is not null");
    await db.raw("create index usage_events_parent on usage_events (parent_id) where parent_id is not null");

    // Events written but not yet measured: the measuring worker takes them from here a few thousand
    // at a time, so ingestion never waits on the rows every batch would otherwise update.
    // In the order they came (the sequence), so none waits behind newer ones.
    await db.schema.createTable("usage_events_unmeasured", (t) => {
      t.bigIncrements("sequence").primary();
      t.text("event_id").notNullable();
    });

    // The names a seller's events carry, counted as they arrive, so listing them reads no events.
    await db.schema.createTable("usage_event_names", (t) => {
      t.text("organization_id").notNullable();
      t.text("name").notNullable();
      t.text("source").notNullable();
      t.bigInteger("occurrences").notNullable();
      t.timestamp("first_seen", { useTz: true }).notNullable();
      t.timestamp("last_seen", { useTz: true }).notNullable();
      t.primary(["organization_id", "name", "source"]);
    });

    // What a meter measured per customer and quarter of an hour (every time zone's day starts on
    // one). The customer key '*' holds all customers together, so a seller-wide quantity reads one
    // row a bucket; an event whose customer is not known yet is kept under 'external:<id>'.
    await db.schema.createTable("meter_rollups", (t) => {
      t.text("meter_id").notNullable().references("id").inTable("meters").onDelete("CASCADE");
      t.text("customer_key").notNullable();
      t.timestamp("bucket", { useTz: true }).notNullable();
      t.bigInteger("count").notNullable();
      t.double("sum").notNullable();
      t.double("min");
      t.double("max");
      t.primary(["meter_id", "customer_key", "bucket"]);
    });
    // A unique meter counts distinct values, which do not add up across buckets: each value is kept once a bucket.
    await db.schema.createTable("meter_unique_values", (t) => {
      t.text("meter_id").notNullable().references("id").inTable("meters").onDelete("CASCADE");
      t.text("customer_key").notNullable();
      t.timestamp("bucket", { useTz: true }).notNullable();
      t.text("value").notNullable();
      t.primary(["meter_id", "customer_key", "bucket", "value"]);
    });

    // A customer's standing on a meter: what they consumed, kept current at ingestion, and what
    // they were credited (meter credit benefits add to credited_units).
    await db.schema.createTable("customer_meters", (t) => {
      t.text("id").primary();
      organization(t);
      t.text("customer_id").notNullable().references("id").inTable("customers").onDelete("CASCADE");
      t.text("meter_id").notNullable().references("id").inTable("meters").onDelete("CASCADE");
      t.bigInteger("count").notNullable().defaultTo(0);
      t.double("sum").notNullable().defaultTo(0);
      t.double("min");
      t.double("max");
      // The meter's aggregation function, copied so that the upsert at ingestion computes consumed units alone.
      t.text("aggregation").notNullable();
      t.double("consumed_units").notNullable().defaultTo(0);
      t.integer("credited_units").notNullable().defaultTo(0);
      timestamps(db, t);
      t.unique(["customer_id", "meter_id"]);
      t.index(["meter_id"]);
    });
  },
};
