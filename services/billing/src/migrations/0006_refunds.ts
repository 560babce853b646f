import type { Migration } from "@tollgate/kit";
import { timestamps } from "./columns.js";

export const refunds: Migration = {
  async up(db) {
    await db.schema.createTable("refunds", (t) => {
      t.text("id").primary();
      t.text("organization_id").notNullable().references("id").inTable("organizations").onDelete("CASCADE");
      t.text("order_id").notNullable().references("id").inTable("orders");
      t.text("subscription_id").references("id").inTable("subscriptions");
      t.text("customer_id").notNullable().references("id").inTable("customers");
      t.text("status").notNullable();
      t.text("reason").notNullable();
      t.text("comment");
      t.integer("amount").notNullable();
      t.integer("tax_amount").notNullable();
      t.text("currency").notNullable();
      t.boolean("revoke_benefits").notNullable();
      t.text("processor_refund_id");
      t.jsonb("metadata").notNullable().defaultTo("{}");
      timestamps(db, t);
      t.index(["organization_id", "created_at"]);
      t.index(["order_id"]);
    });
  },
};
