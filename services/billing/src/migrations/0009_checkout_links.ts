import type { Migration } from "@tollgate/kit";
import { timestamps } from "./columns.js";

export const checkoutLinks: Migration = {
  async up(db) {
    await db.schema.createTable("checkout_links", (t) => {
      t.text("id").primary();
      t.text("organization_id").notNullable().references("id").inTable("organizations").onDelete("CASCADE");
      t.text("client_secret").notNullable().unique();
      t.specificType("product_ids", "text[]").notNullable();
      t.text("label");
      t.boolean("allow_discount_codes").notNullable();
      t.boolean("require_billing_address").notNullable();
      t.text("discount_id").references("id").inTable("discounts");
      t.text("success_url");
      t.text("return_url");
      t.jsonb("metadata").notNullable().defaultTo("{}");
      t.timestamp("deleted_at", { useTz: true });
      timestamps(db, t);
      t.index(["organization_id", "created_at"]);
    });
  },
};
