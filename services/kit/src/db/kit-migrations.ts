import type { Migrations } from "./database.js";

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
};
