import type { Migration } from "@tollgate/kit";

export const endpointsEventsDeliveries: Migration = {
  async up(db) {
    await db.schema.createTable("webhook_endpoints", (t) => {
      t.text("id").primary();
      t.text("organization_id").notNullable().index();
      t.text("url").notNullable();
      t.text("name");
      t.text("format").notNullable();
      t.specificType("events", "text[]").notNullable();
      t.boolean("enabled").notNullable().defaultTo(true);
      // Events go out one at a time, in the order they happened, unless the endpoint opts out.
      t.boolean("ordered").notNullable().defaultTo(true);
      // Signing secrets, sealed by the vault; the previous one signs too until it expires.
      t.text("secret").notNullable();
      t.text("previous_secret");
      t.timestamp("previous_secret_expires_at", { useTz: true });
      t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp("modified_at", { useTz: true });
      t.timestamp("deleted_at", { useTz: true });
    });
    // One row per billing event and endpoint (Polar's WebhookEvent): its payload, and its place in the retry schedule.
    await db.schema.createTable("webhook_events", (t) => {
      t.text("id").primary();
      t.bigIncrements("sequence", { primaryKey: false });
      t.text("endpoint_id").notNullable().references("id").inTable("webhook_endpoints").onDelete("CASCADE");
      t.text("organization_id").notNullable();
      t.text("source_event_id").notNullable();
      t.text("type").notNullable();
      t.text("payload").notNullable();
      // pending → succeeded | failed (attempts used up) | skipped (endpoint turned off or deleted).
      t.text("status").notNullable().defaultTo("pending");
      t.integer("attempts").notNullable().defaultTo(0);
      t.timestamp("run_at", { useTz: true });
      // A replica sending it holds it until then; one that died lets it go when the lease ends.
      t.timestamp("leased_until", { useTz: true });
      t.integer("last_http_code");
      t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp("modified_at", { useTz: true });
      // The bus may deliver an event twice: it still makes one row per endpoint.
      t.unique(["endpoint_id", "source_event_id"]);
      t.index(["created_at"]);
    });
    await db.raw("create index webhook_events_due on webhook_events (run_at) where status = 'pending'");
    await db.raw("create index webhook_events_pending_by_endpoint on webhook_events (endpoint_id, sequence) where status = 'pending'");
    // Every attempt (Polar's WebhookDelivery).
    await db.schema.createTable("webhook_deliveries", (t) => {
      t.text("id").primary();
      t.text("webhook_event_id").notNullable().references("id").inTable("webhook_events").onDelete("CASCADE");
      t.text("endpoint_id").notNullable();
      t.boolean("succeeded").notNullable();
      t.integer("http_code");
      t.text("response");
      t.text("error");
      t.integer("duration_ms").notNullable();
      t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp("modified_at", { useTz: true });
      t.index(["endpoint_id", "created_at"]);
      t.index(["webhook_event_id"]);
    });
  },
};
