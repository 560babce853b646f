import type { Migrations } from "./migrations.js";

/** Tables the kit itself needs in every service schema; they run before the service's own. */
export const kitMigrations: Migrations = {
  "0000_kit_outbox_inbox": {
    async up(db) {
      await db.schema.createTable("outbox", (t) => {
        t.bigIncrements("seq").primary();
        t.uuid("id").notNullable().unique();
        t.text("subject").notNullable();
        t.jsonb("envelope").notNullable();
        t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp("published_at", { useTz: true });
      });
      await db.raw("create index outbox_pending on ?? (seq) where published_at is null", ["outbox"]);
      await db.raw("create index outbox_published on ?? (published_at) where published_at is not null", ["outbox"]);

      await db.schema.createTable("inbox", (t) => {
        t.text("consumer").notNullable();
        t.uuid("event_id").notNullable();
        t.timestamp("handled_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.primary(["consumer", "event_id"]);
      });

      await db.schema.createTable("dead_letters", (t) => {
        t.bigIncrements("id").primary();
        t.text("consumer").notNullable();
        t.text("subject").notNullable();
        t.text("payload").notNullable();
        t.text("error").notNullable();
        t.integer("deliveries").notNullable();
        t.timestamp("failed_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
      });
    },
  },
  "0000_kit_outbox_envelope_json": {
    async up(db) {
      // The relay publishes the envelope as the text it was written as: json keeps that text (checked
      // to be JSON), where jsonb took a parse on every insert and a render on every publish.
      await db.raw("alter table ?? alter column envelope type json using envelope::json", ["outbox"]);
      // Envelopes of a few kB stay in the row as written, rather than be compressed on insert and
      // rewritten compressed when marked published.
      await db.raw("alter table ?? set (toast_tuple_target = 8160)", ["outbox"]);
    },
  },
  "0000_kit_set_aside_work": {
    async up(db) {
      // Failing background items, counted, and set aside past a bound: see work/set-aside.ts.
      await db.schema.createTable("set_aside_work", (t) => {
        t.bigIncrements("id").primary();
        t.text("worker").notNullable();
        t.text("item").notNullable();
        t.text("organization_id");
        t.text("reason").notNullable();
        t.integer("failures").notNullable();
        t.timestamp("first_failed_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp("last_failed_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp("set_aside_at", { useTz: true });
        t.unique(["worker", "item"]);
      });
      await db.raw("create index set_aside_work_by_organization on ?? (organization_id, set_aside_at desc) where set_aside_at is not null", ["set_aside_work"]);
    },
  },
};
