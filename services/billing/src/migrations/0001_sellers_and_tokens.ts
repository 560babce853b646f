import type { Migration } from "@tollgate/kit";
import { timestamps } from "./columns.js";

export const sellersAndTokens: Migration = {
  async up(db) {
    // A seller: an organization of the organization service, as billing extends it.
    await db.schema.createTable("organizations", (t) => {
      t.text("id").primary();
      t.text("name").notNullable();
      t.text("slug").notNullable();
      t.text("avatar_url");
      t.text("email");
      t.text("website");
      t.jsonb("socials").notNullable().defaultTo("[]");
      t.jsonb("details");
      t.timestamp("details_submitted_at", { useTz: true });
      t.text("country");
      t.text("default_presentment_currency").notNullable().defaultTo("usd");
      t.text("default_tax_behavior").notNullable().defaultTo("location");
      t.jsonb("feature_settings").notNullable().defaultTo("{}");
      t.jsonb("subscription_settings").notNullable().defaultTo("{}");
      t.jsonb("notification_settings").notNullable().defaultTo("{}");
      t.jsonb("customer_email_settings").notNullable().defaultTo("{}");
      t.jsonb("customer_portal_settings").notNullable().defaultTo("{}");
      timestamps(db, t);
      t.timestamp("deleted_at", { useTz: true });
    });
    // Tokens are kept only as SHA-256 digests: a leaked table opens nothing.
    await db.schema.createTable("access_tokens", (t) => {
      t.text("id").primary();
      t.text("organization_id").notNullable().references("id").inTable("organizations").onDelete("CASCADE");
      t.text("token_hash").notNullable().unique();
      t.text("comment").notNullable();
      t.specificType("scopes", "text[]").notNullable();
      t.timestamp("expires_at", { useTz: true });
      t.timestamp("last_used_at", { useTz: true });
      timestamps(db, t);
      t.index(["organization_id"]);
    });
  },
};
