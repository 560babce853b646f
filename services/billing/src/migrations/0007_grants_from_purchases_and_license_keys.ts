import type { Migration } from "@tollgate/kit";
import { timestamps } from "./columns.js";

export const grantsFromPurchasesAndLicenseKeys: Migration = {
  async up(db) {
    // One grant of a benefit per subscription, or per order for a one-time purchase.
    await db.raw("create unique index benefit_grants_per_purchase on benefit_grants (benefit_id, customer_id, coalesce(subscription_id, order_id))");
    await db.schema.createTable("license_keys", (t) => {
      t.text("id").primary();
      t.text("organization_id").notNullable().references("id").inTable("organizations").onDelete("CASCADE");
      t.text("customer_id").notNullable().references("id").inTable("customers").onDelete("CASCADE");
      t.text("benefit_id").notNullable().references("id").inTable("benefits").onDelete("CASCADE");
      t.text("key").notNullable();
      t.text("status").notNullable();
      t.integer("limit_activations");
      t.integer("usage").notNullable().defaultTo(0);
      t.integer("limit_usage");
      t.integer("validations").notNullable().defaultTo(0);
      t.timestamp("last_validated_at", { useTz: true });
      t.timestamp("expires_at", { useTz: true });
      timestamps(db, t);
      t.unique(["organization_id", "key"]);
      t.index(["customer_id"]);
    });
    await db.schema.createTable("license_key_activations", (t) => {
      t.text("id").primary();
      t.text("license_key_id").notNullable().references("id").inTable("license_keys").onDelete("CASCADE");
      t.text("label").notNullable();
      t.jsonb("conditions").notNullable().defaultTo("{}");
      t.jsonb("meta").notNullable().defaultTo("{}");
      timestamps(db, t);
      t.index(["license_key_id"]);
    });
  },
};
