import type { Migration } from "@tollgate/kit";

export const apiKeys: Migration = {
  async up(db) {
    // better-auth's api-key plugin's `apikey` model. A key is kept only as its SHA-256 digest: a leaked
    // table opens nothing, and the key itself is shown once, when it is made.
    await db.schema.createTable("api_keys", (t) => {
      t.text("id").primary();
      // Which configuration made it: "default" (owned by a user) or "organization" (owned by an organization).
      t.text("config_id").notNullable().defaultTo("default");
      // A user's id or an organization's, as config_id says: organizations are another service's, so no foreign key.
      t.text("reference_id").notNullable();
      t.text("key_hash").notNullable().unique();
      t.text("name");
      t.text("start");
      t.text("prefix");
      t.boolean("enabled").notNullable().defaultTo(true);
      t.timestamp("expires_at", { useTz: true });
      t.integer("remaining");
      t.integer("refill_amount");
      t.bigInteger("refill_interval");
      t.timestamp("last_refill_at", { useTz: true });
      t.boolean("rate_limit_enabled").notNullable().defaultTo(true);
      t.bigInteger("rate_limit_time_window");
      t.integer("rate_limit_max");
      t.integer("request_count").notNullable().defaultTo(0);
      t.timestamp("last_request", { useTz: true });
      t.jsonb("permissions");
      t.jsonb("metadata");
      t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.index(["reference_id", "config_id"]);
      t.index(["expires_at"]);
    });
  },
};
